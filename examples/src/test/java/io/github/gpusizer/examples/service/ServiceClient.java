package io.github.gpusizer.examples.service;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** An HTTP client of one running {@link SizerService}, for the service's tests: POST and GET with a timeout each. */
final class ServiceClient {
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final SizerService service;
  private final Duration postTimeout;
  private final Duration getTimeout;

  ServiceClient(SizerService service, Duration postTimeout, Duration getTimeout) {
    this.service = service;
    this.postTimeout = postTimeout;
    this.getTimeout = getTimeout;
  }

  HttpResponse<String> post(String path, String body) throws Exception {
    return client.send(request(path, postTimeout).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> get(String path) throws Exception {
    return client.send(request(path, getTimeout).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(String path, Duration timeout) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + path)).timeout(timeout);
  }
}
