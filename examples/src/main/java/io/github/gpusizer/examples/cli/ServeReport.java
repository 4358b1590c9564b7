package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableList;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.estimate.MemoryBreakdown;
import io.github.gpusizer.core.serving.ServingPlan;
import io.github.gpusizer.core.serving.ServingRecommendation;
import io.github.gpusizer.core.serving.ServingRejection;
import io.github.gpusizer.core.serving.ServingTask;
import java.time.Duration;

/** The table, JSON and CSV of {@code gpusizer serve}; the JSON field names are the CLI's stable schema. */
final class ServeReport {
  private ServeReport() {}

  /** The CSV header, one row per plan, also when no plan meets the targets. */
  static final ImmutableList<String> CSV_COLUMNS = ImmutableList.of(
      "provider", "instanceType", "region", "gpu", "tensorParallel", "replicas", "instances", "gpuCount",
      "pricePerHour.amount", "pricePerHour.currency", "costPerHour.amount", "costPerHour.currency",
      "costPerMillionOutputTokens.amount", "costPerMillionOutputTokens.currency", "ttftSeconds.p50",
      "ttftSeconds.p95", "tpotSeconds.p50", "tpotSeconds.p95", "maxConcurrency", "batch", "maxContextTokens",
      "memory.perGpuBytes", "memory.breakdown.weights", "memory.breakdown.activations", "memory.breakdown.kvCache",
      "memory.breakdown.temporary", "memory.breakdown.overhead", "bottleneck", "warnings", "rationale");

  static String render(ServingRecommendation rec, Format format, Catalog catalog) {
    switch (format) {
      case JSON:
        return Json.pretty(report(rec), catalog);
      case CSV:
        return Csv.write(CSV_COLUMNS, rec.options().stream().map(ServeReport::plan).toList());
      default:
        return table(rec);
    }
  }

  private static String table(ServingRecommendation rec) {
    // the region too: one instance type sold in several regions gives rows that are otherwise the same
    TextTable t = new TextTable("offering", "region", "gpu", ">TP", ">replicas", ">GPUs", ">cost/h", ">per M tok",
        ">TTFT p95", ">TPOT p95", ">batch", "bottleneck");
    for (ServingPlan p : rec.options()) {
      t.row(p.offering().provider() + " " + p.offering().instanceType(), p.offering().region(), p.gpu().id(),
          p.tensorParallel(),
          p.replicas(), p.gpuCount(), Output.money(p.costPerHour()), Output.money(p.costPerMillionOutputTokens()),
          Output.duration(p.ttftP95()), Output.duration(p.tpotP95()), Output.decimal(p.batch()), p.bottleneck());
    }
    StringBuilder s = new StringBuilder();
    rec.best().ifPresent(b -> s.append("Best: ").append(b.rationale()).append('\n'));
    rec.suggestion().ifPresent(x -> s.append("Nothing meets the targets: ").append(x).append('\n'));
    s.append(Reports.framework(rec.task().framework(), rec.task().frameworkAssumed())).append('\n');
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
    root.put("framework", task.framework().id());
    root.put("frameworkAssumed", task.frameworkAssumed());
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
    Reports.servingWarnings(node.putArray("warnings"), p.warnings());
    node.put("rationale", p.rationale());
    return node;
  }
}
