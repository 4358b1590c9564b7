package io.github.gpusizer.examples.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gpusizer.catalog.Catalog;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Starts the service on a free loopback port and queries it over HTTP. */
class SizerServiceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static SizerService service;
  private static ServiceClient http;

  @BeforeAll
  static void start() throws IOException {
    service = SizerService.start(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), Catalog.bundled());
    http = new ServiceClient(service, Duration.ofSeconds(30), Duration.ofSeconds(30));
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

  @Test
  void listens_on_a_free_port() {
    assertThat(service.port()).isPositive();
  }

  @Test
  void health() throws Exception {
    HttpResponse<String> r = get("/health");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(r.body()).get("status").asText()).isEqualTo("ok");
  }

  @Test
  void recommends_as_the_cli_does() throws Exception {
    HttpResponse<String> r = post("/recommend",
        "{\"model\": \"llama-2-7b\", \"task\": \"lora\", \"tokens\": \"50M\", \"deadline\": \"24h\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).contains("json"));
    JsonNode rec = JSON.readTree(r.body());
    assertThat(rec.get("feasible").asBoolean()).isTrue();
    assertThat(rec.get("best")).isEqualTo(rec.get("options").get(0));
    assertThat(rec.at("/model/parameters").asLong()).isEqualTo(6_738_415_616L);
    assertThat(rec.get("best").get("wallSeconds").asDouble()).isLessThanOrEqualTo(24 * 3600);
  }

  @Test
  void replies_start_with_the_clis_document_header() throws Exception {
    HttpResponse<String> r = post("/recommend", "{\"model\": \"gpt2\", \"tokens\": \"1M\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode rec = JSON.readTree(r.body());
    java.util.List<String> first = new java.util.ArrayList<>();
    rec.fieldNames().forEachRemaining(first::add);
    assertThat(first.subList(0, 3)).containsExactly("schemaVersion", "gpusizerVersion", "catalogPrices");
    assertThat(rec.at("/catalogPrices/offerings").asInt()).isPositive();
    assertThat(rec.at("/catalogPrices/oldest").asText()).matches("\\d{4}-\\d{2}-\\d{2}");
  }

  @Test
  void a_bad_task_word_is_named_as_the_field_with_every_word() throws Exception {
    HttpResponse<String> r = post("/recommend", "{\"model\": \"gpt2\", \"task\": \"pretrain\", \"tokens\": 1}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(r.body()).get("error").asText())
        .isEqualTo("field 'task' must be one of train, finetune, lora, qlora, infer, was 'pretrain'");
  }

  @Test
  void infeasible_is_still_an_answer_with_a_suggestion() throws Exception {
    HttpResponse<String> r = post("/recommend",
        "{\"model\": \"llama-2-7b\", \"task\": \"lora\", \"tokens\": 5e7, \"deadline\": \"1m\", \"maxGpus\": 1}");
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode rec = JSON.readTree(r.body());
    assertThat(rec.get("feasible").asBoolean()).isFalse();
    assertThat(rec.get("best").isNull()).isTrue();
    assertThat(rec.at("/suggestion/advice").asText()).isNotBlank();
  }

  @Test
  void bad_requests_get_400_naming_the_field() throws Exception {
    HttpResponse<String> unknown = post("/recommend", "{\"model\": \"llama-2-7b\", \"tokenz\": 1}");
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(unknown.body()).get("error").asText()).contains("tokenz", "tokens");
    HttpResponse<String> model = post("/recommend", "{\"model\": \"llama-2-7\", \"tokens\": \"1M\"}");
    assertThat(model.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(model.body()).get("error").asText()).contains("llama-2-7b");
    HttpResponse<String> notJson = post("/recommend", "{oops");
    assertThat(notJson.statusCode()).isEqualTo(400);
    HttpResponse<String> noWork = post("/recommend", "{\"model\": \"gpt2\"}");
    assertThat(noWork.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(noWork.body()).get("error").asText()).contains("tokens");
  }

  @Test
  void serves_as_the_cli_does() throws Exception {
    HttpResponse<String> r = post("/serve", "{\"model\": \"llama-2-7b\", \"rps\": 2, \"prompt\": 500, "
        + "\"output\": 100, \"ttft\": \"2s\", \"tpot\": \"100ms\", \"kvDtype\": \"fp8\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode rec = JSON.readTree(r.body());
    assertThat(rec.get("feasible").asBoolean()).isTrue();
    assertThat(rec.get("best")).isEqualTo(rec.get("options").get(0));
    assertThat(rec.at("/best/ttftSeconds/p95").asDouble()).isLessThanOrEqualTo(2);
    assertThat(rec.at("/best/tpotSeconds/p95").asDouble()).isLessThanOrEqualTo(0.1);
  }

  @Test
  void bad_serve_requests_get_400_naming_the_field() throws Exception {
    HttpResponse<String> missing = post("/serve", "{\"model\": \"llama-2-7b\", \"rps\": 2, \"prompt\": 500}");
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(missing.body()).get("error").asText()).contains("output");
    HttpResponse<String> engine = post("/serve", "{\"model\": \"llama-2-7b\", \"rps\": 2, \"prompt\": 500, "
        + "\"output\": 100, \"engine\": \"vllm\"}");
    assertThat(engine.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(engine.body()).get("error").asText()).contains("engine", "serving", "vllm");
    HttpResponse<String> unknown = post("/serve", "{\"model\": \"llama-2-7b\", \"qps\": 2}");
    assertThat(JSON.readTree(unknown.body()).get("error").asText()).contains("qps", "rps");
  }

  @Test
  void wrong_method_and_path() throws Exception {
    assertThat(get("/recommend").statusCode()).isEqualTo(405);
    assertThat(get("/nope").statusCode()).isEqualTo(404);
  }

  @Test
  void gpus_lists_the_catalog() throws Exception {
    HttpResponse<String> r = get("/gpus");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(r.body()).size()).isEqualTo(Catalog.bundled().gpus().size());
  }

  @Test
  void oversized_body_is_refused() throws Exception {
    HttpResponse<String> r = post("/recommend", "{\"model\": \"" + "x".repeat(70_000) + "\"}");
    assertThat(r.statusCode()).isEqualTo(413);
  }
}
