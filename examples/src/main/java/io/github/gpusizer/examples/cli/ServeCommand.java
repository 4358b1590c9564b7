package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableList;
import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.estimate.MemoryBreakdown;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.serving.ServingPlan;
import io.github.gpusizer.core.serving.ServingRecommendation;
import io.github.gpusizer.core.serving.ServingRejection;
import io.github.gpusizer.core.serving.ServingSizer;
import io.github.gpusizer.core.serving.ServingTask;
import io.github.gpusizer.examples.support.Quantities;
import io.github.gpusizer.examples.support.Words;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gpusizer serve}: GPU, tensor-parallel degree and replicas for online inference within latency targets. */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Size online inference: the cheapest GPU x tensor-parallel degree x replicas that serve a "
        + "traffic level within time-to-first-token and time-per-output-token targets.",
        "Exits with 1 when nothing meets the targets (the message says what would)."})
final class ServeCommand implements Callable<Integer> {

  /** The CSV header, one row per plan, also when no plan meets the targets. */
  static final ImmutableList<String> CSV_COLUMNS = ImmutableList.of(
      "provider", "instanceType", "region", "gpu", "tensorParallel", "replicas", "instances", "gpuCount",
      "pricePerHour.amount", "pricePerHour.currency", "costPerHour.amount", "costPerHour.currency",
      "costPerMillionOutputTokens.amount", "costPerMillionOutputTokens.currency", "ttftSeconds.p50",
      "ttftSeconds.p95", "tpotSeconds.p50", "tpotSeconds.p95", "maxConcurrency", "batch", "maxContextTokens",
      "memory.perGpuBytes", "memory.breakdown.weights", "memory.breakdown.activations", "memory.breakdown.kvCache",
      "memory.breakdown.temporary", "memory.breakdown.overhead", "bottleneck", "warnings", "rationale");
  private static final Pattern LATENCY = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s)");

  @Spec
  CommandSpec spec;

  @Mixin
  CommonOptions common;

  @Option(names = "--model", paramLabel = "ID", required = true, description = "A preset model, e.g. llama-2-70b.")
  String model;

  @Option(names = "--rps", paramLabel = "R", required = true, description = "Requests per second, all replicas.")
  double rps;

  @Option(names = "--prompt", paramLabel = "N", required = true, converter = Converters.PositiveInt.class,
      description = "Mean prompt length in tokens.")
  int prompt;

  @Option(names = "--output", paramLabel = "N", required = true, converter = Converters.PositiveInt.class,
      description = "Mean output length in tokens.")
  int output;

  @Option(names = "--prompt-p95", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "95th-percentile prompt length (default: the mean).")
  Integer promptP95;

  @Option(names = "--output-p95", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "95th-percentile output length (default: the mean).")
  Integer outputP95;

  @Option(names = "--ttft", paramLabel = "TIME", description = "95th-percentile time to first token, e.g. 2s.")
  String ttft;

  @Option(names = "--tpot", paramLabel = "TIME", description = "95th-percentile time per output token, e.g. 100ms.")
  String tpot;

  @Option(names = "--engine", paramLabel = "serving|eager|compiled", defaultValue = "serving",
      description = "serving: continuous batching with a paged KV cache (vLLM-like, default); eager: Hugging Face "
          + "generate, one request at a time; compiled: the same with CUDA graphs.")
  String engine = "serving";

  @Option(names = {"--quantization", "--quant"}, paramLabel = "none|int8|int4|fp8|nf4", defaultValue = "none",
      description = "How the weights are stored (default ${DEFAULT-VALUE}).")
  String quantization = "none";

  @Option(names = "--kv-dtype", paramLabel = "bf16|fp16|fp8|fp32", defaultValue = "bf16",
      description = "The KV cache's element type (default ${DEFAULT-VALUE}).")
  String kvDtype = "bf16";

  @Option(names = "--max-gpus", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "The most GPUs a deployment may rent (default " + ServingSizer.DEFAULT_MAX_GPUS + ").")
  Integer maxGpus;

  @Option(names = "--currency", paramLabel = "CODE", description = "Currency of the costs (default USD).")
  String currency;

  @Override
  public Integer call() {
    ServingTask.Builder builder = ServingTask.builder(Presets.get(model)).requestsPerSecond(rps)
        .promptTokens(prompt).outputTokens(output).engine(Words.ENGINES.get(engine))
        .quantization(Words.SERVING_QUANT.get(quantization)).kvCache(Words.KV_TYPES.get(kvDtype));
    if (promptP95 != null) {
      builder.promptTokensP95(promptP95);
    }
    if (outputP95 != null) {
      builder.outputTokensP95(outputP95);
    }
    if (ttft != null) {
      builder.ttft(latency("--ttft", ttft));
    }
    if (tpot != null) {
      builder.tpot(latency("--tpot", tpot));
    }
    ServingSizer sizer = ServingSizer.forTask(builder.build()).catalog(common.catalog());
    if (maxGpus != null) {
      sizer.maxGpus(maxGpus);
    }
    if (currency != null) {
      sizer.currency(Quantities.currency("--currency", currency));
    }
    ServingRecommendation rec = sizer.recommend();
    Output.print(spec, render(rec, common.format, common.catalog()), common.format);
    if (!rec.feasible()) {
      throw new InfeasibleException("no plan meets the targets: " + rec.suggestion().orElse(""));
    }
    return 0;
  }

  /** {@code 100ms}, {@code 2s}, {@code 1.5s}. */
  static Duration latency(String option, String text) {
    Matcher m = LATENCY.matcher(text.strip().toLowerCase(Locale.ROOT));
    checkArgument(m.matches(), "%s must be a time such as 100ms or 2s, was '%s'", option, text);
    double value = Double.parseDouble(m.group(1));
    double nanos = value * (m.group(2).equals("ms") ? 1e6 : 1e9);
    checkArgument(nanos >= 1, "%s must be > 0, was '%s'", option, text);
    return Duration.ofNanos(Math.round(nanos));
  }

  static String render(ServingRecommendation rec, Format format, Catalog catalog) {
    switch (format) {
      case JSON:
        return Json.pretty(report(rec), catalog);
      case CSV:
        return Csv.write(CSV_COLUMNS, rec.options().stream().map(ServeCommand::plan).toList());
      default:
        return table(rec);
    }
  }

  private static String table(ServingRecommendation rec) {
    TextTable t = new TextTable("offering", "gpu", ">TP", ">replicas", ">GPUs", ">cost/h", ">per M tok",
        ">TTFT p95", ">TPOT p95", ">batch", "bottleneck");
    for (ServingPlan p : rec.options()) {
      t.row(p.offering().provider() + " " + p.offering().instanceType(), p.gpu().id(), p.tensorParallel(),
          p.replicas(), p.gpuCount(), Output.money(p.costPerHour()), Output.money(p.costPerMillionOutputTokens()),
          Output.duration(p.ttftP95()), Output.duration(p.tpotP95()), Output.decimal(p.batch()), p.bottleneck());
    }
    StringBuilder s = new StringBuilder();
    rec.best().ifPresent(b -> s.append("Best: ").append(b.rationale()).append('\n'));
    rec.suggestion().ifPresent(x -> s.append("Nothing meets the targets: ").append(x).append('\n'));
    if (!t.isEmpty()) {
      s.append(t.render());
    }
    return s.toString();
  }

  static ObjectNode report(ServingRecommendation rec) {
    ObjectNode root = Json.object();
    ServingTask task = rec.task();
    root.put("model", task.model().name());
    ObjectNode traffic = root.putObject("traffic");
    traffic.put("requestsPerSecond", task.traffic().requestsPerSecond());
    traffic.put("promptTokens", task.traffic().promptTokens());
    traffic.put("outputTokens", task.traffic().outputTokens());
    traffic.put("promptTokensP95", task.traffic().promptP95());
    traffic.put("outputTokensP95", task.traffic().outputP95());
    ObjectNode slo = root.putObject("slo");
    seconds(slo, "ttftP50Seconds", task.targets().ttftP50());
    seconds(slo, "ttftP95Seconds", task.targets().ttftP95());
    seconds(slo, "tpotP50Seconds", task.targets().tpotP50());
    seconds(slo, "tpotP95Seconds", task.targets().tpotP95());
    root.put("engine", task.engine().label());
    root.put("currency", rec.currency().getCurrencyCode());
    root.put("feasible", rec.feasible());
    rec.best().ifPresentOrElse(b -> root.set("best", plan(b)), () -> root.putNull("best"));
    ArrayNode options = root.putArray("options");
    rec.options().forEach(p -> options.add(plan(p)));
    ArrayNode front = root.putArray("paretoFront");
    rec.paretoFront().forEach(p -> front.add(plan(p)));
    ArrayNode rejected = root.putArray("rejected");
    for (ServingRejection r : rec.rejected()) {
      ObjectNode node = rejected.addObject();
      node.put("provider", r.offering().provider());
      node.put("instanceType", r.offering().instanceType());
      node.put("gpu", r.offering().gpu().id());
      node.put("tensorParallel", r.tensorParallel());
      node.put("reason", r.reason());
    }
    Json.put(root, "suggestion", rec.suggestion());
    return root;
  }

  private static void seconds(ObjectNode node, String field, java.util.Optional<Duration> value) {
    value.ifPresentOrElse(d -> node.put(field, Output.seconds(d)), () -> node.putNull(field));
  }

  static ObjectNode plan(ServingPlan p) {
    ObjectNode node = Json.object();
    node.put("provider", p.offering().provider());
    node.put("instanceType", p.offering().instanceType());
    node.put("region", p.offering().region());
    node.put("gpu", p.gpu().id());
    node.put("tensorParallel", p.tensorParallel());
    node.put("replicas", p.replicas());
    node.put("instances", p.instances());
    node.put("gpuCount", p.gpuCount());
    node.set("pricePerHour", Json.money(p.offering().onDemandPerHour()));
    node.set("costPerHour", Json.money(p.costPerHour().rounded()));
    node.set("costPerMillionOutputTokens", Json.money(p.costPerMillionOutputTokens().rounded()));
    ObjectNode ttft = node.putObject("ttftSeconds");
    ttft.put("p50", Output.seconds(p.ttftP50()));
    ttft.put("p95", Output.seconds(p.ttftP95()));
    ObjectNode tpot = node.putObject("tpotSeconds");
    tpot.put("p50", Output.seconds(p.tpotP50()));
    tpot.put("p95", Output.seconds(p.tpotP95()));
    node.put("maxConcurrency", p.maxConcurrency());
    node.put("batch", p.batch());
    node.put("maxContextTokens", p.maxContextTokens());
    MemoryBreakdown m = p.memoryPerGpu();
    ObjectNode memory = node.putObject("memory");
    memory.put("perGpuBytes", m.total().bytes());
    ObjectNode breakdown = memory.putObject("breakdown");
    breakdown.put("weights", m.weights().bytes());
    breakdown.put("activations", m.activations().bytes());
    breakdown.put("kvCache", m.kvCache().bytes());
    breakdown.put("temporary", m.temporary().bytes());
    breakdown.put("overhead", m.overhead().bytes());
    node.put("bottleneck", p.bottleneck());
    Reports.warnings(node.putArray("warnings"), p.warnings());
    node.put("rationale", p.rationale());
    return node;
  }
}
