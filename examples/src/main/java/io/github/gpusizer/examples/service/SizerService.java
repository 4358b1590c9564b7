package io.github.gpusizer.examples.service;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSet;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.core.GpuSizer;
import io.github.gpusizer.core.Sizer;
import io.github.gpusizer.core.Recommendation;
import io.github.gpusizer.core.serving.ServingSizer;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.TaskKind;
import io.github.gpusizer.examples.cli.JsonReports;
import io.github.gpusizer.examples.support.Quantities;
import io.github.gpusizer.examples.support.Words;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Currency;
import java.util.Iterator;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Embedding the sizer in a service: a plain JDK {@link HttpServer} that answers JSON. The catalog is loaded once and
 * shared; each request builds a task and calls {@code GpuSizer.forTask(task)...recommend()}.
 *
 * <pre>{@code
 * try (SizerService service = SizerService.start(new InetSocketAddress("127.0.0.1", 8080), Catalog.bundled())) {
 *   // POST /recommend {"model": "llama-2-7b", "task": "lora", "tokens": "50M", "deadline": "24h"}
 *   // GET /gpus, GET /health
 * }
 * }</pre>
 *
 * <p>Replies: 200 with the same JSON as {@code gpusizer recommend --format json} (also when nothing is feasible:
 * {@code "feasible": false} and a {@code suggestion}); 400 {@code {"error": ...}} for a bad request, naming the field;
 * 404 for an unknown path; 405 for a wrong method; 413 for a body over 64 KiB; 503 (with {@code Retry-After}) when
 * every worker is busy for {@value #QUEUE_WAIT_SECONDS} s.
 *
 * <p>Limits, so that no client can hang or exhaust it: a request must arrive whole (headers and body) within
 * {@value #REQUEST_TIMEOUT_SECONDS} s and its reply be read within {@value #RESPONSE_TIMEOUT_SECONDS} s, else the
 * connection is closed (the JDK server's {@code sun.net.httpserver.maxReqTime} and {@code maxRspTime}, set when
 * this class loads unless already set; they apply to every JDK {@code HttpServer} started later in the JVM);
 * {@value #CONNECTION_THREADS} threads read requests, at most max(2, cores) of them size at once, and
 * {@value #QUEUE_LENGTH} connections may wait for a thread (more are closed at once); {@code maxGpus} is at most
 * {@value #MAX_GPUS}; a reply lists at most {@value #REPLY_LIMIT} options, Pareto-front members and rejections,
 * with the totals ({@code optionsTotal}, {@code paretoFrontTotal}, {@code rejectedTotal}, {@code truncated}).
 * Bodies are strict JSON: one object, no duplicate keys, nothing after it, each field of its type.
 *
 * <p>Run: {@code java -cp gpusizer.jar io.github.gpusizer.examples.service.SizerService [port]} (default 8080, on
 * the loopback address), then {@code curl -d '{"model":"llama-2-7b","task":"lora","tokens":"50M"}'
 * http://127.0.0.1:8080/recommend}.
 */
public final class SizerService implements AutoCloseable {
  /** The fields a recommend request may carry. */
  public static final ImmutableSet<String> FIELDS = ImmutableSet.of("model", "task", "tokens", "samples", "epochs",
      "loraRank", "seq", "microBatch", "deadline", "budget", "objective", "maxGpus", "currency", "spot", "framework");
  /** The fields of {@code POST /serve}: {@code gpusizer serve}'s options in camel case. */
  public static final ImmutableSet<String> SERVE_FIELDS = ImmutableSet.of("model", "rps", "prompt", "output",
      "promptP95", "outputP95", "ttft", "tpot", "framework", "engine", "quantization", "kvDtype", "maxGpus",
      "currency");
  private static final int MAX_BODY_BYTES = 64 * 1024;
  /** Seconds a client has to send a whole request, headers and body. */
  public static final int REQUEST_TIMEOUT_SECONDS = 10;
  /** Seconds from the end of a request to the end of its reply (the sizing included). */
  public static final int RESPONSE_TIMEOUT_SECONDS = 120;
  /** Threads that read requests and write replies. */
  public static final int CONNECTION_THREADS = 32;
  /** Connections that may wait for a thread; more are closed. */
  public static final int QUEUE_LENGTH = 256;
  /** Seconds a request waits for a worker before a 503. */
  public static final int QUEUE_WAIT_SECONDS = 10;
  /** The largest {@code maxGpus} a request may ask for: the work and the reply grow with it. */
  public static final int MAX_GPUS = 4096;
  /** Options, Pareto-front members and rejections listed in a reply at most (the totals count them all). */
  public static final int REPLY_LIMIT = 50;

  static {
    // Read once, when the JDK's server configuration loads: set them before any HttpServer is created.
    setIfAbsent("sun.net.httpserver.maxReqTime", String.valueOf(REQUEST_TIMEOUT_SECONDS));
    setIfAbsent("sun.net.httpserver.maxRspTime", String.valueOf(RESPONSE_TIMEOUT_SECONDS));
  }

  private static void setIfAbsent(String property, String value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, value);
    }
  }

  private final HttpServer server;
  private final ThreadPoolExecutor executor;
  private final Catalog catalog;
  private final Semaphore workers;
  private final java.time.Duration queueWait;
  private final ObjectMapper mapper = new ObjectMapper()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private SizerService(HttpServer server, ThreadPoolExecutor executor, Catalog catalog, Semaphore workers,
                       java.time.Duration queueWait) {
    this.server = server;
    this.executor = executor;
    this.catalog = catalog;
    this.workers = workers;
    this.queueWait = queueWait;
  }

  /**
   * Starts serving on {@code address} (port 0 picks a free port; see {@link #port()}).
   *
   * @throws IOException if the address cannot be bound
   */
  public static SizerService start(InetSocketAddress address, Catalog catalog) throws IOException {
    return start(address, catalog, new Semaphore(Math.max(2, Runtime.getRuntime().availableProcessors())),
        java.time.Duration.ofSeconds(QUEUE_WAIT_SECONDS));
  }

  /** As {@link #start(InetSocketAddress, Catalog)}, sizing on {@code workers}' permits (tests hold some). */
  static SizerService start(InetSocketAddress address, Catalog catalog, Semaphore workers,
                            java.time.Duration queueWait) throws IOException {
    HttpServer server = HttpServer.create(address, 0);
    AtomicInteger threads = new AtomicInteger();
    ThreadPoolExecutor executor = new ThreadPoolExecutor(CONNECTION_THREADS, CONNECTION_THREADS, 30, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(QUEUE_LENGTH), r -> {
          Thread t = new Thread(r, "sizer-service-" + threads.incrementAndGet());
          t.setDaemon(true);
          return t;
        }, new ThreadPoolExecutor.AbortPolicy());
    executor.allowCoreThreadTimeOut(true);
    SizerService service = new SizerService(server, executor, catalog, workers, queueWait);
    server.createContext("/", service::handle);
    server.setExecutor(executor);
    server.start();
    return service;
  }

  /** The port it listens on. */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdown();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      switch (path) {
        case "/health":
          reply(exchange, method, "GET", () -> mapper.createObjectNode().put("status", "ok"));
          break;
        case "/gpus":
          reply(exchange, method, "GET", () -> JsonReports.gpus(catalog.gpus()));
          break;
        case "/recommend":
          reply(exchange, method, "POST", () -> sized(exchange, body(exchange), this::recommend));
          break;
        case "/serve":
          reply(exchange, method, "POST", () -> sized(exchange, body(exchange), this::serve));
          break;
        default:
          send(exchange, 404, error("no such path " + path
              + "; paths are GET /health, GET /gpus, POST /recommend, POST /serve"));
      }
    }
  }

  private interface Answer {
    JsonNode get() throws IOException;
  }

  /**
   * Sizes {@code request} (read whole beforehand, so a slow body holds no worker) on one of the bounded workers, or
   * refuses with 503 when none frees up in time.
   */
  private JsonNode sized(HttpExchange exchange, JsonNode request, java.util.function.Function<JsonNode, JsonNode> work)
      throws IOException {
    boolean acquired;
    try {
      acquired = workers.tryAcquire(queueWait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      acquired = false;
    }
    if (!acquired) {
      exchange.getResponseHeaders().set("Retry-After", "1");
      throw new Busy();
    }
    try {
      return work.apply(request);
    } finally {
      workers.release();
    }
  }

  private static final class Busy extends IOException {
    private static final long serialVersionUID = 1L;

    Busy() {
      super("every worker is busy; retry shortly");
    }
  }

  private void reply(HttpExchange exchange, String method, String allowed, Answer answer) throws IOException {
    if (!method.equals(allowed)) {
      exchange.getResponseHeaders().set("Allow", allowed);
      send(exchange, 405, error(exchange.getRequestURI().getPath() + " takes " + allowed + ", was " + method));
      return;
    }
    JsonNode result;
    try {
      result = answer.get();
    } catch (BodyTooLarge e) {
      send(exchange, 413, error(e.getMessage()));
      return;
    } catch (Busy e) {
      send(exchange, 503, error(e.getMessage()));
      return;
    } catch (JsonProcessingException e) {
      send(exchange, 400, error(notJson(e)));
      return;
    } catch (IllegalArgumentException e) {
      send(exchange, 400, error(e.getMessage()));
      return;
    } catch (RuntimeException e) {
      send(exchange, 500, error("internal error: " + e));
      return;
    }
    send(exchange, 200, result);
  }

  private static final class BodyTooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    BodyTooLarge() {
      super("request body must be at most " + MAX_BODY_BYTES + " bytes");
    }
  }

  /** Jackson's message without its source dump, with the place: "Duplicate field 'model' at line 1, column 30". */
  private static String notJson(JsonProcessingException e) {
    JsonLocation where = e.getLocation();
    String place = where == null || where.getLineNr() < 1 ? ""
        : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
    return "request body is not strict JSON (one object, no duplicate keys, nothing after it): "
        + e.getOriginalMessage() + place;
  }

  private JsonNode body(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
      if (bytes.length > MAX_BODY_BYTES) {
        throw new BodyTooLarge();
      }
      JsonNode node = mapper.readTree(bytes);
      if (node == null || !node.isObject()) {
        throw new IllegalArgumentException("request body must be a JSON object with fields " + FIELDS);
      }
      return node;
    }
  }

  /** Builds the task and the sizer from a request and answers with the recommendation. */
  JsonNode recommend(JsonNode request) {
    for (Iterator<String> names = request.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        throw new IllegalArgumentException("unknown field '" + name + "'; fields are " + FIELDS);
      }
    }
    String model = text(request, "model").orElseThrow(
        () -> new IllegalArgumentException("field 'model' is required: a preset id such as llama-2-7b"));
    ModelSpec spec = Presets.get(model);
    TaskKind kind = Words.TASKS.get("field 'task'", text(request, "task").orElse("train"));
    int rank = text(request, "loraRank").map(v -> Quantities.integer("loraRank", v, 1))
        .orElse(Words.DEFAULT_LORA_RANK);
    Task.Builder b = Words.taskBuilder(kind, spec, rank);
    text(request, "tokens").ifPresent(v -> b.tokens(Quantities.number("tokens", v)));
    text(request, "samples").ifPresent(v -> b.samples(Quantities.number("samples", v)));
    text(request, "epochs").ifPresent(v -> b.epochs(Quantities.number("epochs", v)));
    text(request, "seq").ifPresent(v -> b.sequenceLength(Quantities.integer("seq", v, 1)));
    text(request, "framework").ifPresent(v -> b.framework(Words.FRAMEWORKS.get("framework", v)));
    text(request, "microBatch").ifPresent(v -> b.microBatch(Quantities.integer("microBatch", v, 1)));
    Task task = b.build();
    Sizer sizer = GpuSizer.forTask(task).catalog(catalog);
    Currency currency = Currency.getInstance("USD");
    if (text(request, "currency").isPresent()) {
      currency = Quantities.currency("currency", text(request, "currency").get());
      sizer.currency(currency.getCurrencyCode());
    }
    text(request, "deadline").ifPresent(v -> sizer.deadline(Quantities.duration("deadline", v)));
    Currency budgetDefault = currency;
    text(request, "budget").ifPresent(v -> {
      Money budget = Quantities.money("budget", v, budgetDefault);
      sizer.budget(budget);
    });
    text(request, "objective").ifPresent(v -> sizer.objective(Words.OBJECTIVES.get("field 'objective'", v)));
    text(request, "maxGpus").ifPresent(v -> sizer.maxGpus(maxGpus(v)));
    if (bool(request, "spot")) {
      sizer.allowSpot();
    }
    Recommendation rec = sizer.recommend();
    return JsonReports.document(JsonReports.recommendation(rec, task, REPLY_LIMIT), catalog);
  }

  /** Sizes online inference for a request with the fields of {@code gpusizer serve} and answers its JSON. */
  JsonNode serve(JsonNode request) {
    for (Iterator<String> names = request.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!SERVE_FIELDS.contains(name)) {
        throw new IllegalArgumentException("unknown field '" + name + "'; fields are " + SERVE_FIELDS);
      }
    }
    ServingSizer sizer = ServingSizer.forTask(JsonReports.servingTask(f -> text(request, f))).catalog(catalog);
    text(request, "maxGpus").ifPresent(v -> sizer.maxGpus(maxGpus(v)));
    text(request, "currency").ifPresent(v -> sizer.currency(Quantities.currency("currency", v)));
    return JsonReports.document(JsonReports.serving(sizer.recommend()), catalog);
  }

  private static int maxGpus(String value) {
    int n = Quantities.integer("maxGpus", value, 1);
    if (n > MAX_GPUS) {
      throw new IllegalArgumentException("field 'maxGpus' must be at most " + MAX_GPUS + " in this service, was "
          + value);
    }
    return n;
  }

  /** A JSON boolean; absent or null is false; anything else ({@code "yes"}, {@code 1}) is a bad request. */
  private static boolean bool(JsonNode request, String field) {
    JsonNode node = request.get(field);
    if (node == null || node.isNull()) {
      return false;
    }
    if (!node.isBoolean()) {
      throw new IllegalArgumentException("field '" + field + "' must be true or false, was " + node);
    }
    return node.booleanValue();
  }

  private static java.util.Optional<String> text(JsonNode request, String field) {
    JsonNode node = request.get(field);
    if (node == null || node.isNull()) {
      return java.util.Optional.empty();
    }
    if (!node.isValueNode()) {
      throw new IllegalArgumentException("field '" + field + "' must be a string or a number, was " + node);
    }
    return java.util.Optional.of(node.asText());
  }

  private ObjectNode error(String message) {
    return mapper.createObjectNode().put("error", message);
  }

  private void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
    byte[] bytes = mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  public static void main(String[] args) throws IOException {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
    SizerService service = start(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), Catalog.bundled());
    System.out.println("listening on http://127.0.0.1:" + service.port() + "/ (POST /recommend, POST /serve, GET /gpus, GET /health)");
  }
}
