package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.base.Strings;
import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.catalog.Vendor;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Recurrent;
import io.github.gpusizer.core.model.Stack;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;

/** Whether hardware and layout can run a task at all (errors), and what they should know (warnings). */
final class Compatibility {
  /** Tensor cores and FP16 tensor math: Volta, compute capability 7.0 (NVIDIA Volta whitepaper, 2017). */
  static final ComputeCapability TENSOR_CORES = Precision.FP16.minComputeCapability().orElseThrow();
  /** BF16 and TF32 tensor math: Ampere, compute capability 8.0. */
  static final ComputeCapability AMPERE = Precision.BF16.minComputeCapability().orElseThrow();

  /** GPU utilisation below which a job is called input-bound in a warning. */
  static final double LOW_UTILISATION = 0.9;

  private Compatibility() {}

  /** Checks what makes a task impossible on the hardware and layout; cheap, no allocation on success. */
  static void check(Task task, Hardware hardware, Layout layout) {
    Gpu gpu = hardware.gpu();
    checkPrecision(task.precision(), gpu);
    checkArgument(layout.gpus() <= hardware.gpus(),
        "layout %s needs %s GPUs but the hardware has %s (%s per node x %s nodes)", layout, layout.gpus(),
        hardware.gpus(), hardware.gpusPerNode(), hardware.nodes());
    checkArgument(layout.tensorParallel() <= hardware.gpusPerNode(),
        "tensor parallelism (%s) must stay within a node of %s GPUs", layout.tensorParallel(),
        hardware.gpusPerNode());
    checkArgument(task.kind().isTraining() || layout.zero() == ZeroStage.NONE,
        "ZeRO stage %s shards training state; inference needs ZeRO stage 0 (NONE)", layout.zero().number());
    ModelSpec model = task.model();
    if (model instanceof Transformer t) {
      checkArgument(t.heads() % layout.tensorParallel() == 0,
          "tensor parallelism (%s) must divide the %s attention heads of %s", layout.tensorParallel(), t.heads(),
          t.name());
      checkArgument(layout.pipelineParallel() <= t.totalLayers(),
          "pipeline parallelism (%s) needs at least one of the %s layers of %s per stage",
          layout.pipelineParallel(), t.totalLayers(), t.name());
    } else {
      checkArgument(layout.tensorParallel() == 1,
          "tensor parallelism (%s) splits transformer layers; %s is not a transformer", layout.tensorParallel(),
          model.name());
      if (model instanceof Recurrent r) {
        checkArgument(layout.pipelineParallel() <= r.layers(),
            "pipeline parallelism (%s) needs at least one of the %s layers of %s per stage",
            layout.pipelineParallel(), r.layers(), r.name());
      } else {
        checkArgument(layout.pipelineParallel() == 1,
            "pipeline parallelism (%s) needs a model with known layers (a transformer or recurrent network); %s "
                + "has none", layout.pipelineParallel(), model.name());
      }
    }
    checkArgument(!task.kind().isAdapter() || model instanceof Transformer,
        "%s adapters attach to transformer projections; %s is not a transformer", task.kind(), model.name());
  }

  /** Checks the global batch against micro-batch × data-parallel ranks (only {@code estimate} needs it). */
  static void checkBatch(Job job) {
    int global = job.task.globalBatch();
    long perStep = (long) job.microBatch * job.dp;
    checkArgument(global == 0 || global % perStep == 0,
        "global batch %s must be a multiple of micro-batch %s x %s data-parallel ranks = %s", global,
        job.microBatch, job.dp, perStep);
  }

  private static void checkPrecision(PrecisionMode mode, Gpu gpu) {
    Precision precision = mode.compute();
    gpu.computeCapability().flatMap(has -> precision.unsupportedReason(gpu.name(), has)).ifPresent(reason -> {
      throw new IllegalArgumentException(mode + ": " + reason);
    });
    if (!gpu.supports(precision)) { // not checkArgument: its arguments (a key set view) were built on every call
      throw new IllegalArgumentException(Strings.lenientFormat("%s (%s) needs %s arithmetic; %s supports only %s",
          mode, precision, precision, gpu.name(), gpu.denseTflops().keySet()));
    }
  }

  /** Plain-language notes on compatibility and efficiency. */
  static ImmutableList<String> warnings(Job job, MemoryEstimate memory, PerformanceEstimate performance,
                                        StepTime step, double utilisation) {
    ImmutableList.Builder<String> warnings = ImmutableList.builder();
    Gpu gpu = job.gpu;
    boolean ampere = gpu.computeCapability().map(cc -> cc.isAtLeast(AMPERE)).orElse(false);
    if (job.precision == PrecisionMode.FP32 && ampere && gpu.supports(Precision.TF32)) {
      double half = gpu.supports(Precision.BF16) ? gpu.denseTflops(Precision.BF16)
          : gpu.supports(Precision.FP16) ? gpu.denseTflops(Precision.FP16) : gpu.denseTflops(Precision.TF32);
      warnings.add("FP32 runs on CUDA cores at " + Text.fixed(gpu.denseTflops(Precision.FP32), 1)
          + " TFLOP/s: PyTorch leaves TF32 off for matmuls by default; set "
          + "torch.backends.cuda.matmul.allow_tf32 = True for " + Text.fixed(gpu.denseTflops(Precision.TF32), 1)
          + " TFLOP/s, or train in BF16/FP16 mixed precision for " + Text.fixed(half, 1) + " TFLOP/s");
    }
    boolean halfPrecision = job.precision.compute() == Precision.FP16 || job.precision.compute() == Precision.BF16;
    boolean tensorCores = gpu.tensorCores()
        && gpu.computeCapability().map(cc -> cc.isAtLeast(TENSOR_CORES)).orElse(true);
    if (halfPrecision && !tensorCores) {
      warnings.add(gpu.name() + " has no tensor cores: " + job.precision
          + " saves memory but runs its matmuls on CUDA cores, far below a tensor-core GPU");
    }
    int gpusInNode = Math.min(job.layout.gpus(), job.hardware.gpusPerNode());
    if (gpusInNode > 1 && !Links.usesNvlink(job.gpu, gpusInNode)) {
      warnings.add(gpusInNode + " GPUs per node talk over PCIe (" + Text.fixed(Links.pcieGBps(gpu), 0)
          + " GB/s per direction) without NVLink: gradient and tensor-parallel traffic is 5-12x slower than over "
          + "NVLink (seed 002)");
    }
    if (job.model instanceof Transformer t && job.task.sequenceLength() > t.maxPositions()) {
      warnings.add("sequence length " + job.task.sequenceLength() + " is longer than the " + t.maxPositions()
          + " positions " + t.name() + " was built for");
    }
    if (job.layout.gpus() < job.hardware.gpus()) {
      warnings.add("the layout uses " + job.layout.gpus() + " of the " + job.hardware.gpus() + " GPUs");
    }
    if (utilisation < LOW_UTILISATION) {
      warnings.add("expected GPU utilisation is only " + Text.fixed(100 * utilisation, 0) + "%: the "
          + (performance.bottleneck() == Bottleneck.DISK_INPUT ? "disk" : "CPUs")
          + " cannot prepare samples as fast as the GPUs use them");
    }
    if (step.hostSeconds() > 0.25 * step.seconds()) {
      warnings.add(Text.fixed(100 * step.hostSeconds() / step.seconds(), 0)
          + (job.task.executionMode().launchesFromPython()
          ? "% of the time the GPU waits for eager PyTorch to launch work; CUDA graphs or torch.compile (as vLLM "
              + "and TensorRT-LLM use) remove most of it (ExecutionMode.COMPILED or SERVING_ENGINE)"
          : "% of the time goes to kernel launches shorter than the GPU's launch floor: a larger batch would use "
              + "the GPU better"));
    }
    if (job.model instanceof Transformer t && t.stack() == Stack.ENCODER && !job.training
        && job.task.generatedTokens() > 0) {
      warnings.add(t.name() + " is encoder-only and generates nothing: the " + job.task.generatedTokens()
          + " generated tokens are ignored (one pass over the input, no KV cache)");
    }
    if (!memory.fits()) {
      warnings.add("needs " + memory.perGpu() + " per GPU, " + gpu.name() + " has " + memory.capacity());
    }
    if (gpu.vendor() != Vendor.NVIDIA) {
      warnings.add("efficiencies are calibrated on NVIDIA GPUs; " + gpu.name() + " may differ");
    }
    return warnings.build();
  }
}
