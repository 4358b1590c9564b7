package io.github.gpusizer.examples.cli;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gpusizer estimate}: memory, time and throughput of one task on one layout. */
@Command(name = "estimate", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Estimate memory per GPU, throughput, FLOPs and time of one task on one GPU model and layout.",
        "Exits with 1 when the task does not fit in GPU memory (the message says what would make it fit)."})
final class EstimateCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  CommonOptions common;

  @Mixin
  TaskOptions taskOptions;

  @Option(names = "--gpu", paramLabel = "NAME", required = true,
      description = "The GPU model (id, name or alias, e.g. a100-80gb, H100 SXM, rtx4090).")
  String gpu;

  @Option(names = "--gpus", paramLabel = "N", converter = Converters.PositiveInt.class, defaultValue = "1",
      description = "GPUs in all, over all nodes (default ${DEFAULT-VALUE}).")
  int gpus = 1;

  @Option(names = "--nodes", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Nodes the GPUs are spread over, equally (default: one node up to 8 GPUs, else nodes of 8, "
          + "as on an HGX/DGX board). A node holds at most 16 GPUs.")
  Integer nodes;

  /** GPUs per node when --nodes is not given: an HGX/DGX baseboard (and the largest common cloud instance). */
  static final int DEFAULT_GPUS_PER_NODE = 8;

  /** The most GPUs any node in the catalog holds (GCP a2-megagpu-16g: 16 A100s). */
  static final int MAX_GPUS_PER_NODE = 16;

  @Option(names = "--inter-node-gbps", paramLabel = "GBPS",
      description = "Network out of each node in Gb/s, all NICs together (e.g. 3200 for 8 x 400 Gb/s InfiniBand). "
          + "Default: the fabric of the GPU's class: 400 Gb/s per GPU for H100-generation SXM/OAM, 200 for A100, "
          + "100 Gb/s Ethernet per node for PCIe and consumer cards.")
  Double interNodeGbps;

  @Option(names = "--fabric", paramLabel = "cluster|ethernet",
      description = "What joins the nodes: cluster (InfiniBand, EFA, RoCE: RDMA, the default) or ethernet (plain "
          + "VM Ethernet, where NCCL's TCP sockets reach about half of the link).")
  String fabric;

  @Option(names = "--efficiency", paramLabel = "MFU",
      description = "Override the model FLOPs utilisation the estimator assumes (0 < MFU <= 1), e.g. a measured 0.45.")
  Double efficiency;

  @Override
  public Integer call() {
    Task task = taskOptions.task();
    Gpu g = common.catalog().gpu(gpu);
    int nodes = nodes(gpus, this.nodes);
    Hardware hardware = hardware(g, gpus, nodes);
    if (interNodeGbps != null) {
      checkArgument(interNodeGbps > 0 && Double.isFinite(interNodeGbps), "--inter-node-gbps must be > 0, was %s",
          interNodeGbps);
      hardware = hardware.withInterNodeGbps(interNodeGbps);
    }
    if (fabric != null) {
      Fabric joined;
      try {
        joined = Fabric.parse(fabric);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--fabric " + e.getMessage(), e);
      }
      checkArgument(joined.joinable(), "--fabric %s: stand-alone machines are never joined; give cluster or ethernet",
          fabric);
      hardware = hardware.withInterNodeFabric(joined);
    }
    Layout layout = layout(taskOptions, gpus, nodes);
    Estimator estimator = Estimator.defaults();
    if (efficiency != null) {
      checkArgument(efficiency > 0 && efficiency <= 1, "--efficiency must be in (0, 1], was %s", efficiency);
      estimator = estimator.withEfficiency(efficiency);
    }
    task = taskOptions.withOpenMicroBatch(task, hardware, layout, estimator);
    Estimate estimate = estimator.estimateAsRun(task, hardware, layout);
    String report = EstimateReport.render(estimate, common.format, common.catalog());
    if (common.format == Format.TABLE) {
      report = Reports.withNote(report, taskOptions.microBatchNote(task));
    }
    Output.print(spec, report, common.format);
    if (!estimate.memory().fits()) {
      throw new InfeasibleException(Advice.doesNotFit(estimator, estimate));
    }
    return 0;
  }

  /** The nodes given, or those of {@value #DEFAULT_GPUS_PER_NODE} GPUs; never more GPUs on a node than any holds. */
  static int nodes(int gpus, Integer given) {
    int nodes;
    if (given != null) {
      nodes = given;
    } else if (gpus <= DEFAULT_GPUS_PER_NODE) {
      nodes = 1;
    } else {
      checkArgument(gpus % DEFAULT_GPUS_PER_NODE == 0, "--gpus %s spans several nodes but is not a multiple of %s "
          + "(GPUs per node by default); give --nodes", gpus, DEFAULT_GPUS_PER_NODE);
      nodes = gpus / DEFAULT_GPUS_PER_NODE;
    }
    checkArgument(gpus % nodes == 0, "--gpus (%s) must be a multiple of --nodes (%s): every node holds as many GPUs",
        gpus, nodes);
    checkArgument(gpus / nodes <= MAX_GPUS_PER_NODE, "--gpus %s on %s node%s is %s GPUs per node, more than any "
        + "node holds (%s); give more --nodes", gpus, nodes, nodes == 1 ? "" : "s", gpus / nodes, MAX_GPUS_PER_NODE);
    return nodes;
  }

  static Hardware hardware(Gpu gpu, int gpus, int nodes) {
    checkArgument(gpus % nodes == 0, "--gpus (%s) must be a multiple of --nodes (%s): every node holds as many GPUs",
        gpus, nodes);
    return Hardware.of(gpu, gpus / nodes, nodes);
  }

  static Layout layout(TaskOptions options, int gpus, int nodes) {
    int tp = options.tensorParallel();
    int pp = options.pipelineParallel();
    int cp = options.contextParallel();
    checkArgument(gpus % (tp * pp * cp) == 0, "--gpus (%s) must be a multiple of --tp x --pp x --cp (%s x %s x %s)",
        gpus, tp, pp, cp);
    Layout layout = new Layout(gpus / (tp * pp * cp), tp, pp, options.zeroStage(), gpus / nodes);
    return options.withShardingAndStages(cp == 1 ? layout : layout.withContextParallel(cp));
  }

}
