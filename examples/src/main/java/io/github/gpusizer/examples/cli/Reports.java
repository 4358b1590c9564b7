package io.github.gpusizer.examples.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.HostSizing;
import io.github.gpusizer.core.estimate.Warning;
import io.github.gpusizer.core.estimate.Interval;
import io.github.gpusizer.core.estimate.MemoryBreakdown;
import io.github.gpusizer.core.estimate.MemoryEstimate;
import io.github.gpusizer.core.estimate.PerformanceEstimate;
import io.github.gpusizer.core.task.Framework;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** The JSON documents and tables of {@code estimate}; the field names are the CLI's stable schema. */
final class Reports {
  private Reports() {}

  static ObjectNode estimate(Estimate e) {
    Task task = e.task();
    ObjectNode root = Json.object();
    ObjectNode model = root.putObject("model");
    model.put("name", task.model().name());
    model.put("parameters", task.model().parameters());
    model.put("trainableParameters", task.trainableParameters());
    ObjectNode t = root.putObject("task");
    task(t, task);
    ObjectNode hardware = root.putObject("hardware");
    hardware.put("gpu", e.hardware().gpu().id());
    hardware.put("gpuName", e.hardware().gpu().name());
    hardware.put("gpuCount", e.hardware().gpus());
    hardware.put("gpusPerNode", e.hardware().gpusPerNode());
    hardware.put("nodes", e.hardware().nodes());
    hardware.put("interNodeGbps", e.hardware().effectiveInterNodeGbps());
    root.set("layout", layout(e.layout(), e.task().kind().isTraining()));
    root.set("memory", memory(e.memory()));
    PerformanceEstimate p = e.performance();
    ObjectNode throughput = root.putObject("throughput");
    rates(throughput, p, !task.isImageModel());
    ObjectNode flops = root.putObject("flops");
    Json.putRounded(flops, "perStep", p.flopsPerStep(), 6);
    Json.putRounded(flops, "achievedTflopsPerGpu", p.achievedTflopsPerGpu(), 4);
    Json.putRounded(flops, "mfu", p.mfu(), 4);
    ObjectNode time = root.putObject("time");
    seconds(time, "stepSeconds", p.stepTimeInterval());
    if (p.totalTimeInterval().isPresent()) {
      seconds(time, "totalSeconds", p.totalTimeInterval().get());
    } else {
      time.putNull("totalSeconds");
      time.putNull("totalSecondsLow");
      time.putNull("totalSecondsHigh");
    }
    Json.putRounded(root, "scalingEfficiency", p.scalingEfficiency(), 4);
    root.put("bottleneck", p.bottleneck().name());
    root.set("host", host(e.host()));
    ArrayNode warnings = root.putArray("warnings");
    e.warnings().forEach(w -> warnings.add(warning(w)));
    return root;
  }

  /**
   * Samples and tokens per second with their intervals ({@code samplesPerSecondLow}, {@code ...High}) and the error
   * band's basis; tokens null when the model reads none.
   */
  static void rates(ObjectNode node, PerformanceEstimate p, boolean tokens) {
    Interval<Double> samples = p.samplesPerSecondInterval();
    Json.putRounded(node, "samplesPerSecond", samples.nominal(), 6);
    Json.putRounded(node, "samplesPerSecondLow", samples.low(), 6);
    Json.putRounded(node, "samplesPerSecondHigh", samples.high(), 6);
    if (tokens) {
      Interval<Double> t = p.tokensPerSecondInterval();
      Json.putRounded(node, "tokensPerSecond", t.nominal(), 6);
      Json.putRounded(node, "tokensPerSecondLow", t.low(), 6);
      Json.putRounded(node, "tokensPerSecondHigh", t.high(), 6);
    } else {
      node.putNull("tokensPerSecond");
      node.putNull("tokensPerSecondLow");
      node.putNull("tokensPerSecondHigh");
    }
    node.put("errorBand", p.errorBand().basis());
  }

  /** {@code name}, {@code nameLow} and {@code nameHigh} in seconds. */
  static void seconds(ObjectNode node, String name, Interval<Duration> interval) {
    Json.putRounded(node, name, Output.seconds(interval.nominal()), 6);
    Json.putRounded(node, name + "Low", Output.seconds(interval.low()), 6);
    Json.putRounded(node, name + "High", Output.seconds(interval.high()), 6);
  }

  static void task(ObjectNode t, Task task) {
    t.put("kind", task.kind().name());
    t.put("precision", task.precision().name());
    if (task.kind().isTraining()) {
      t.put("optimizer", task.optimizer().name());
    }
    t.put("microBatch", task.microBatch());
    t.put("globalBatch", task.globalBatch());
    if (task.isImageModel()) {
      t.put("imageSize", task.imageSize());
    } else {
      t.put("sequenceLength", task.sequenceLength());
    }
    t.put("checkpointing", task.checkpointing().name());
    t.put("flashAttention", task.flashAttention());
    t.put("executionMode", task.executionMode().name());
    t.put("framework", task.framework().id());
    t.put("frameworkAssumed", task.frameworkAssumed());
    if (task.kind().isAdapter()) {
      t.put("loraRank", task.loraRank());
      ArrayNode targets = t.putArray("loraTargets");
      task.loraTargets().forEach(x -> targets.add(x.name()));
    }
    t.put("quantization", task.quantization().name());
    if (!task.kind().isTraining()) {
      t.put("generatedTokens", task.generatedTokens());
    }
    Json.put(t, "tokens", task.tokens());
    Json.put(t, "samples", task.samples());
  }

  static ObjectNode layout(Layout layout, boolean training) {
    ObjectNode node = Json.object();
    node.put("dataParallel", layout.dataParallel());
    node.put("tensorParallel", layout.tensorParallel());
    node.put("pipelineParallel", layout.pipelineParallel());
    node.put("contextParallel", layout.contextParallel());
    node.put("zeroStage", layout.zero().number());
    node.put("gpusPerNode", layout.gpusPerNode());
    node.put("description", layout.describe(training));
    return node;
  }

  static ObjectNode memory(MemoryEstimate m) {
    ObjectNode node = Json.object();
    Interval<DataSize> perGpu = m.perGpuInterval();
    node.put("perGpuBytes", perGpu.nominal().bytes());
    node.put("perGpuBytesLow", perGpu.low().bytes());
    node.put("perGpuBytesHigh", perGpu.high().bytes());
    node.put("allocatedBytes", m.breakdown().allocated().bytes());
    node.put("capacityBytes", m.capacity().bytes());
    node.put("headroomBytes", m.headroom().bytes());
    node.put("fits", m.fits());
    node.put("fit", m.fit().label());
    node.put("errorBand", m.errorBand().basis());
    MemoryBreakdown b = m.breakdown();
    ObjectNode breakdown = node.putObject("breakdown");
    breakdown.put("weights", b.weights().bytes());
    breakdown.put("gradients", b.gradients().bytes());
    breakdown.put("optimizer", b.optimizer().bytes());
    breakdown.put("activations", b.activations().bytes());
    breakdown.put("kvCache", b.kvCache().bytes());
    breakdown.put("temporary", b.temporary().bytes());
    breakdown.put("overhead", b.overhead().bytes());
    return node;
  }

  static ObjectNode host(HostSizing h) {
    ObjectNode node = Json.object();
    node.put("cpuCores", h.cpuCores());
    node.put("ramBytes", h.ram().bytes());
    node.put("diskBytes", h.disk().bytes());
    node.put("diskType", h.diskType().name());
    node.put("dataAccess", h.access().name());
    node.put("ramRule", h.ramRule().name());
    node.put("coresReason", h.coresReason());
    node.put("ramReason", h.ramReason());
    node.put("diskReason", h.diskReason());
    node.put("reason", h.reason());
    return node;
  }

  /** A warning as the CLI gives it: its fix in command-line terms. */
  static ObjectNode warning(Warning w) {
    ObjectNode node = Json.object();
    node.put("code", w.code());
    node.put("severity", w.severity().name());
    node.put("message", w.message());
    if (w.fix().isPresent()) {
      node.put("fix", w.fix().get().cli());
    } else {
      node.putNull("fix");
    }
    return node;
  }

  /** The warning's text with its fix in command-line terms. */
  static String text(Warning w) {
    return w.text(Warning.Surface.CLI);
  }

  /** A serving plan's caveats (plain texts) as CLI warning objects, code {@code "serving"}. */
  static void servingWarnings(ArrayNode into, List<String> caveats) {
    caveats.forEach(w -> into.add(warning(Warning.of("serving", Warning.Severity.INFO, w))));
  }

  /** "framework: vllm", or "assumed framework: pytorch; give --framework" when it was left open. */
  static String framework(Framework framework, boolean assumed) {
    return assumed ? "assumed framework: " + framework.named() + "; give --framework"
        : "framework: " + framework.named();
  }

  /** A table with {@code note}, where present, as its line after the framework's (the first blank line). */
  static String withNote(String table, java.util.Optional<String> note) {
    int blank = table.indexOf("\n\n");
    return note.isEmpty() || blank < 0 ? table
        : table.substring(0, blank + 1) + note.get() + table.substring(blank + 1);
  }

  static String estimateTable(Estimate e) {
    Task task = e.task();
    PerformanceEstimate p = e.performance();
    MemoryEstimate m = e.memory();
    MemoryBreakdown b = m.breakdown();
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "%s, %s, %s parameters (%s trainable)%n", task.model().name(),
        kind(task), Output.count(task.model().parameters()), Output.count(task.trainableParameters())));
    s.append(String.format(Locale.ROOT, "on %d x %s (%s), layout %s%n", e.hardware().gpus(),
        e.hardware().gpu().name(), e.hardware().nodes() > 1 ? e.hardware().nodes() + " nodes" : "1 node",
        e.layout().describe(task.kind().isTraining())));
    s.append(String.format(Locale.ROOT, "%s%n%n", framework(task.framework(), task.frameworkAssumed())));
    TextTable memory = new TextTable("MEMORY PER GPU", ">SIZE");
    memory.row("weights", size(b.weights()))
        .row("gradients", size(b.gradients()))
        .row("optimizer state", size(b.optimizer()))
        .row("activations", size(b.activations()))
        .row("KV cache", size(b.kvCache()))
        .row("temporary buffers", size(b.temporary()))
        .row("allocated (torch max_memory_allocated)", size(b.allocated()))
        .row("CUDA context + allocator overhead", size(b.overhead()))
        .row("total (as nvidia-smi shows)", Output.memoryRange(m.perGpuInterval()))
        .row("GPU memory", size(m.capacity()));
    s.append(memory.render());
    s.append(switch (m.fit()) {
      case FITS -> String.format(Locale.ROOT, "fits, %s free%n", size(m.headroom()));
      case MAY_NOT_FIT -> String.format(Locale.ROOT, "MAY NOT FIT: needs %s (%s to %s), has %s%n", size(m.perGpu()),
          size(m.perGpuInterval().low()), size(m.perGpuInterval().high()), size(m.capacity()));
      case DOES_NOT_FIT -> String.format(Locale.ROOT, "DOES NOT FIT: needs %s, has %s%n", size(m.perGpu()),
          size(m.capacity()));
    });
    s.append(String.format(Locale.ROOT, "memory interval: %s%n%n", m.errorBand().basis()));
    TextTable perf = new TextTable("PERFORMANCE", ">VALUE");
    perf.row("step time", Output.durationRange(p.stepTimeInterval()))
        .row("samples/s (all GPUs)", Output.decimalRange(p.samplesPerSecondInterval()));
    if (!task.isImageModel()) {
      perf.row("tokens/s (all GPUs)", Output.countRange(p.tokensPerSecondInterval()));
    }
    perf.row("FLOPs per step", String.format(Locale.ROOT, "%.3g", p.flopsPerStep()))
        .row("achieved TFLOP/s per GPU", Output.decimal(p.achievedTflopsPerGpu()))
        .row("MFU", Output.percent(p.mfu()))
        .row("scaling efficiency", Output.percent(p.scalingEfficiency()))
        .row("bottleneck", p.bottleneck().name().toLowerCase(Locale.ROOT).replace('_', ' '))
        .row("total time", p.totalTimeInterval().map(Output::durationRange)
            .orElse("- (give --tokens or --samples)"));
    s.append(perf.render());
    s.append(String.format(Locale.ROOT, "time and rate intervals: %s%n", p.errorBand().basis()));
    HostSizing h = e.host();
    s.append(String.format(Locale.ROOT, "%nhost per node: %d CPU cores, %s RAM, %s %s%n", h.cpuCores(),
        size(h.ram()), size(h.disk()), h.diskType().label()));
    s.append("  ").append(h.coresReason()).append("\n  ").append(h.ramReason()).append("\n  ")
        .append(h.diskReason()).append('\n');
    List<Warning> warnings = e.warnings();
    if (!warnings.isEmpty()) {
      s.append("\nwarnings:\n");
      warnings.forEach(w -> s.append("  - ").append(severityTag(w)).append(text(w)).append('\n'));
    }
    return s.toString();
  }

  /** The line label of a warning under an option: {@code note}, {@code warning} or {@code CRITICAL}. */
  static String label(Warning w) {
    return switch (w.severity()) {
      case INFO -> "note";
      case WARNING -> "warning";
      case CRITICAL -> "CRITICAL";
    };
  }

  /** {@code "[critical] "} and {@code "[warning] "} before a warning's text; nothing for information. */
  static String severityTag(Warning w) {
    return w.severity() == Warning.Severity.INFO ? "" : "[" + w.severity().name().toLowerCase(Locale.ROOT) + "] ";
  }

  static String kind(Task task) {
    switch (task.kind()) {
      case PRETRAINING:
        return "training";
      case FULL_FINE_TUNING:
        return "full fine-tuning";
      case LORA:
        return "LoRA r=" + task.loraRank();
      case QLORA:
        return "QLoRA r=" + task.loraRank();
      default:
        return "inference";
    }
  }

  static String size(DataSize size) {
    return Output.memory(size);
  }
}
