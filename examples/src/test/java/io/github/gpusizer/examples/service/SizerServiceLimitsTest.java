package io.github.gpusizer.examples.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gpusizer.catalog.Catalog;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hostile clients: slow or stalled connections, large work, loose JSON; the service stays up and says why. */
class SizerServiceLimitsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration HANG = Duration.ofSeconds(20);
  private static final int WORKERS = 2;
  private static final Semaphore workers = new Semaphore(WORKERS);
  private static SizerService service;
  private static ServiceClient http;

  @BeforeAll
  static void start() throws IOException {
    service = SizerService.start(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), Catalog.bundled(),
        workers, Duration.ofMillis(200));
    http = new ServiceClient(service, Duration.ofSeconds(60), Duration.ofSeconds(15));
  }

  @AfterAll
  static void stop() {
    service.close();
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return http.post(path, body);
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return http.get(path);
  }

  private static Socket stalled(String partialRequest) throws IOException {
    Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), service.port());
    OutputStream out = socket.getOutputStream();
    out.write(partialRequest.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  @Test
  void clients_that_stall_mid_request_do_not_stop_the_health_check() throws Exception {
    // GIVEN more stalled connections (partial request line, partial headers, short body) than cores
    List<Socket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        sockets.add(stalled("GET /hea"));
        sockets.add(stalled("GET /health HTTP/1.1\r\nHost: x\r\n"));
        sockets.add(stalled("POST /recommend HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"mo"));
        sockets.add(stalled("POST /recommend HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nff\r\n{"));
      }
      // WHEN / THEN the health check still answers at once
      assertTimeoutPreemptively(HANG, () -> {
        HttpResponse<String> r = get("/health");
        assertThat(r.statusCode()).isEqualTo(200);
      });
    } finally {
      for (Socket s : sockets) {
        s.close();
      }
    }
  }

  @Test
  void more_stalled_clients_than_threads_and_queue_hold_is_survived() throws Exception {
    // GIVEN every connection thread and queue place taken by stalled clients, and more refused
    List<Socket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < SizerService.CONNECTION_THREADS + SizerService.QUEUE_LENGTH + 16; i++) {
        sockets.add(stalled("GET /health HTTP/1.1\r\nHost: x\r\n"));
      }
      // WHEN the stalled ones time out THEN the service answers again: the refusals did not stop it
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
        while (true) {
          try {
            if (get("/health").statusCode() == 200) {
              return;
            }
          } catch (IOException refusedWhileFull) {
            // closed at once while every thread and queue place is taken: try again
          }
          Thread.sleep(500);
        }
      });
    } finally {
      for (Socket s : sockets) {
        s.close();
      }
    }
  }

  @Test
  void a_stalled_request_is_closed_after_the_request_timeout() throws Exception {
    try (Socket socket = stalled("GET /health HTTP/1.1\r\nHost: x\r\n")) {
      socket.setSoTimeout((int) HANG.toMillis());
      InputStream in = socket.getInputStream();
      assertTimeoutPreemptively(HANG, () -> {
        int first;
        try {
          first = in.read();
        } catch (IOException e) {
          first = -1; // reset by the server: closed too
        }
        assertThat(first).as("the server closes the connection without an answer").isEqualTo(-1);
      });
    }
  }

  @Test
  void a_request_gets_503_when_every_worker_stays_busy() throws Exception {
    workers.acquire(WORKERS);
    try {
      HttpResponse<String> r = post("/recommend", "{\"model\": \"gpt2\", \"tokens\": \"1B\"}");
      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(r.headers().firstValue("Retry-After")).isPresent();
      assertThat(JSON.readTree(r.body()).get("error").asText()).contains("busy");
      assertThat(get("/health").statusCode()).isEqualTo(200);
    } finally {
      workers.release(WORKERS);
    }
  }

  @Test
  void max_gpus_beyond_the_stated_limit_is_a_400() throws Exception {
    HttpResponse<String> r = post("/recommend", "{\"model\": \"gpt2\", \"tokens\": \"1B\", \"maxGpus\": 10000}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(r.body()).get("error").asText())
        .isEqualTo("field 'maxGpus' must be at most " + SizerService.MAX_GPUS + " in this service, was 10000");
    HttpResponse<String> serve = post("/serve", "{\"model\": \"llama-2-7b\", \"rps\": 1, \"prompt\": 100, "
        + "\"output\": 100, \"ttft\": \"2s\", \"tpot\": \"100ms\", \"maxGpus\": 1000000}");
    assertThat(serve.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(serve.body()).get("error").asText()).contains("'maxGpus' must be at most");
  }

  @Test
  void a_reply_lists_a_bounded_number_of_entries_with_the_totals() throws Exception {
    HttpResponse<String> r = post("/recommend",
        "{\"model\": \"gpt2\", \"tokens\": \"10B\", \"maxGpus\": 512, \"spot\": true}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode rec = JSON.readTree(r.body());
    assertThat(rec.get("options").size()).isLessThanOrEqualTo(SizerService.REPLY_LIMIT);
    assertThat(rec.get("paretoFront").size()).isLessThanOrEqualTo(SizerService.REPLY_LIMIT);
    assertThat(rec.get("rejected").size()).isLessThanOrEqualTo(SizerService.REPLY_LIMIT);
    assertThat(rec.get("optionsTotal").asInt()).isGreaterThanOrEqualTo(rec.get("options").size());
    assertThat(rec.get("paretoFrontTotal").asInt()).isGreaterThanOrEqualTo(rec.get("paretoFront").size());
    assertThat(rec.get("truncated").asBoolean()).isEqualTo(
        rec.get("optionsTotal").asInt() > SizerService.REPLY_LIMIT
            || rec.get("paretoFrontTotal").asInt() > SizerService.REPLY_LIMIT
            || rec.get("rejectedTotal").asInt() > SizerService.REPLY_LIMIT);
  }

  @Test
  void duplicate_keys_are_a_400_naming_the_key() throws Exception {
    HttpResponse<String> r = post("/recommend", "{\"model\": \"gpt2\", \"tokens\": \"1B\", \"model\": \"llama-2-7b\"}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(r.body()).get("error").asText()).contains("Duplicate field 'model'").contains("line 1");
  }

  @Test
  void content_after_the_object_is_a_400() throws Exception {
    HttpResponse<String> r = post("/recommend", "{\"model\": \"gpt2\", \"tokens\": \"1B\"} {\"maxGpus\": 1}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(r.body()).get("error").asText()).contains("Trailing token");
  }

  @Test
  void spot_must_be_a_json_boolean() throws Exception {
    HttpResponse<String> r = post("/recommend", "{\"model\": \"gpt2\", \"tokens\": \"1B\", \"spot\": \"yes\"}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(r.body()).get("error").asText())
        .isEqualTo("field 'spot' must be true or false, was \"yes\"");
  }
}
