package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.estimate.Estimate;
import java.util.List;

/** The table, JSON and CSV of {@code gpusizer estimate} (the fields themselves are {@link Reports#estimate}). */
final class EstimateReport {
  private EstimateReport() {}

  /** The CSV header of every estimate: transformers and CNNs alike (sequenceLength or imageSize empty). */
  static final ImmutableList<String> CSV_COLUMNS = ImmutableList.of(
      "model.name", "model.parameters", "model.trainableParameters", "task.kind", "task.precision",
      "task.optimizer", "task.microBatch", "task.globalBatch", "task.sequenceLength", "task.imageSize",
      "task.checkpointing", "task.flashAttention", "task.executionMode", "task.framework",
      "task.frameworkAssumed", "task.loraRank", "task.loraTargets",
      "task.quantization", "task.generatedTokens", "task.tokens", "task.samples", "hardware.gpu",
      "hardware.gpuName", "hardware.gpuCount", "hardware.gpusPerNode", "hardware.nodes", "hardware.interNodeGbps",
      "layout.dataParallel", "layout.tensorParallel", "layout.pipelineParallel", "layout.contextParallel",
      "layout.zeroStage", "layout.gpusPerNode", "layout.description", "memory.perGpuBytes", "memory.perGpuBytesLow",
      "memory.perGpuBytesHigh", "memory.allocatedBytes", "memory.capacityBytes", "memory.headroomBytes",
      "memory.fits", "memory.fit", "memory.errorBand", "memory.breakdown.weights", "memory.breakdown.gradients",
      "memory.breakdown.optimizer", "memory.breakdown.activations", "memory.breakdown.kvCache",
      "memory.breakdown.temporary", "memory.breakdown.overhead", "throughput.samplesPerSecond",
      "throughput.samplesPerSecondLow", "throughput.samplesPerSecondHigh", "throughput.tokensPerSecond",
      "throughput.tokensPerSecondLow", "throughput.tokensPerSecondHigh", "throughput.errorBand", "flops.perStep",
      "flops.achievedTflopsPerGpu", "flops.mfu", "time.stepSeconds", "time.stepSecondsLow", "time.stepSecondsHigh",
      "time.totalSeconds", "time.totalSecondsLow", "time.totalSecondsHigh", "scalingEfficiency", "bottleneck",
      "host.cpuCores", "host.ramBytes", "host.diskBytes", "host.diskType", "host.dataAccess", "host.ramRule",
      "host.coresReason", "host.ramReason", "host.diskReason", "host.reason", "warnings");

  static String render(Estimate e, Format format, Catalog catalog) {
    switch (format) {
      case JSON:
        return Json.pretty(Reports.estimate(e), catalog);
      case CSV:
        return Csv.write(CSV_COLUMNS, List.of(Reports.estimate(e)));
      default:
        return Reports.estimateTable(e);
    }
  }
}
