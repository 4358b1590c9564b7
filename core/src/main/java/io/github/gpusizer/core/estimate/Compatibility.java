package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.base.Strings;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.FormFactor;
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
import java.util.Optional;

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
    // if-throw, not checkArgument: its varargs and boxed numbers were allocated on every call of a search
    if (layout.gpus() > hardware.gpus()) {
      throw invalid("layout %s needs %s GPUs but the hardware has %s (%s per node x %s nodes)", layout,
          layout.gpus(), hardware.gpus(), hardware.gpusPerNode(), hardware.nodes());
    }
    if (layout.tensorParallel() > hardware.gpusPerNode()) {
      throw invalid("tensor parallelism (%s) must stay within a node of %s GPUs", layout.tensorParallel(),
          hardware.gpusPerNode());
    }
    if (!task.kind().isTraining() && layout.zero() != ZeroStage.NONE) {
      throw invalid("ZeRO stage %s shards training state; inference needs ZeRO stage 0 (NONE)",
          layout.zero().number());
    }
    if (!task.kind().splitsLayers() && (layout.tensorParallel() > 1 || layout.pipelineParallel() > 1
        || layout.contextParallel() > 1)) {
      throw invalid("%s keeps its 4-bit base weights whole on each GPU: it runs with data parallelism and ZeRO/FSDP "
          + "sharding, not tensor (%s), pipeline (%s) or context (%s) parallelism (TaskKind.splitsLayers)",
          task.kind(), layout.tensorParallel(), layout.pipelineParallel(), layout.contextParallel());
    }
    ModelSpec model = task.model();
    if (model instanceof Transformer t) {
      if (t.heads() % layout.tensorParallel() != 0) {
        throw invalid("tensor parallelism (%s) must divide the %s attention heads of %s", layout.tensorParallel(),
            t.heads(), t.name());
      }
      if (layout.pipelineParallel() > t.totalLayers()) {
        throw invalid("pipeline parallelism (%s) needs at least one of the %s layers of %s per stage",
            layout.pipelineParallel(), t.totalLayers(), t.name());
      }
    } else {
      if (layout.tensorParallel() != 1) {
        throw invalid("tensor parallelism (%s) splits transformer layers; %s is not a transformer",
            layout.tensorParallel(), model.name());
      }
      if (model instanceof Recurrent r) {
        if (layout.pipelineParallel() > r.totalLayers()) {
          throw invalid("pipeline parallelism (%s) needs at least one of the %s layers of %s per stage",
              layout.pipelineParallel(), r.totalLayers(), r.name());
        }
      } else if (layout.pipelineParallel() != 1) {
        throw invalid("pipeline parallelism (%s) needs a model with known layers (a transformer or recurrent "
            + "network); %s has none", layout.pipelineParallel(), model.name());
      }
    }
    int cp = layout.contextParallel();
    if (cp > 1) {
      if (!(model instanceof Transformer)) {
        throw invalid("context parallelism (%s) splits a transformer's sequence; %s is not a transformer", cp,
            model.name());
      }
      if (!task.kind().isTraining()) {
        throw invalid("context parallelism (%s) splits training sequences; inference with it is not modelled", cp);
      }
      if (!task.flashAttention()) {
        throw invalid("context parallelism (%s) needs blockwise attention (FlashAttention), which ring attention "
            + "runs per key/value block; the task's attention kernel is %s", cp, task.attention());
      }
      if (task.sequenceLength() % cp != 0) {
        throw invalid("context parallelism (%s) must divide the sequence length %s", cp, task.sequenceLength());
      }
    }
    if (task.kind().isAdapter() && !(model instanceof Transformer)) {
      throw invalid("%s adapters attach to transformer projections; %s is not a transformer", task.kind(),
          model.name());
    }
  }

  /** The exception {@code checkArgument} would throw, its message formatted the same way. */
  private static IllegalArgumentException invalid(String template, Object... args) {
    return new IllegalArgumentException(Strings.lenientFormat(template, args));
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
    precisionProblem(mode, gpu).ifPresent(reason -> {
      throw new IllegalArgumentException(mode + ": " + reason);
    });
  }

  /**
   * Why {@code gpu} cannot run {@code mode}'s number format (its compute capability, or no such format at all);
   * empty if it can. The one precision check: the estimator throws with it, the sizer rejects offerings with it.
   */
  static Optional<String> precisionProblem(PrecisionMode mode, Gpu gpu) {
    Precision p = mode.compute();
    if (gpu.supports(p)) {
      return Optional.empty();
    }
    Optional<String> capability = gpu.computeCapability().flatMap(has -> p.unsupportedReason(gpu.name(), has));
    return capability.isPresent() ? capability
        : Optional.of("the " + gpu.name() + " has no " + p + " support; it supports " + gpu.denseTflops().keySet());
  }

  /**
   * The kinds of warning the estimator gives: each with its code, severity, a phrase only its message contains
   * (how {@link #parse} recognises the text again) and its fix per interface, if any.
   */
  enum Kind {
    FP32_TF32_OFF("fp32-tf32-off", Warning.Severity.WARNING, "PyTorch leaves TF32 off for matmuls by default",
        "or size it with --precision tf32 or --precision bf16",
        "or size it with Task.Builder.precision(PrecisionMode.TF32) or BF16_MIXED"),
    NO_TENSOR_CORES("no-tensor-cores", Warning.Severity.WARNING, " has no tensor cores: ", null, null),
    PCIE_NO_NVLINK("pcie-no-nvlink", Warning.Severity.INFO, " without NVLink: ", null, null),
    NO_PEER_TO_PEER("no-peer-to-peer", Warning.Severity.WARNING, "have no PCIe peer-to-peer", null, null),
    LONG_SEQUENCE("sequence-too-long", Warning.Severity.WARNING, " positions ", null, null),
    LAYOUT_IDLE_GPUS("layout-idle-gpus", Warning.Severity.INFO, "the layout uses ", null, null),
    INPUT_BOUND_CPU("input-bound-cpu", Warning.Severity.WARNING, "the CPUs cannot prepare samples", null, null),
    INPUT_BOUND_DISK("input-bound-disk", Warning.Severity.WARNING, "the disk cannot read samples", null, null),
    EAGER_LAUNCH("eager-launch-bound", Warning.Severity.WARNING, "eager PyTorch to launch work",
        "size it with --engine compiled (or --engine serving for inference)",
        "size it with Task.Builder.executionMode(ExecutionMode.COMPILED) (or SERVING_ENGINE for inference)"),
    COMPILED_TPU("eager-model-on-tpu", Warning.Severity.WARNING, "which XLA-compiled TPU programs do not pay",
        "size it with --engine compiled", "size it with Task.Builder.executionMode(ExecutionMode.COMPILED)"),
    SHORT_KERNELS("short-kernels", Warning.Severity.INFO, "shorter than the GPU's launch floor", null, null),
    ENCODER_GENERATES("encoder-generates", Warning.Severity.INFO, "is encoder-only and generates nothing", null,
        null),
    DOES_NOT_FIT("does-not-fit", Warning.Severity.CRITICAL, " per GPU, and the ", null, null),
    MAY_NOT_FIT("may-not-fit", Warning.Severity.CRITICAL, "may not fit: ", null, null),
    UNCALIBRATED_VENDOR("uncalibrated-vendor", Warning.Severity.INFO, "efficiencies are calibrated on NVIDIA GPUs",
        null, null);

    final String code;
    final Warning.Severity severity;
    final String marker;
    final java.util.Optional<Warning.Fix> fix;

    Kind(String code, Warning.Severity severity, String marker, String cli, String api) {
      this.code = code;
      this.severity = severity;
      this.marker = marker;
      this.fix = cli == null ? java.util.Optional.empty() : java.util.Optional.of(new Warning.Fix(cli, api));
    }

    Warning warning(String message) {
      return new Warning(code, severity, message, fix);
    }
  }

  /** Notes on compatibility and efficiency: what cannot apply to the hardware is never said. */
  static ImmutableList<Warning> advice(Job job, MemoryEstimate memory, PerformanceEstimate performance,
                                       StepTime step, double utilisation) {
    ImmutableList.Builder<Warning> warnings = ImmutableList.builder();
    Gpu gpu = job.gpu;
    boolean ampere = gpu.computeCapability().map(cc -> cc.isAtLeast(AMPERE)).orElse(false);
    if (job.precision == PrecisionMode.FP32 && ampere && gpu.supports(Precision.TF32)) {
      double half = gpu.supports(Precision.BF16) ? gpu.denseTflops(Precision.BF16)
          : gpu.supports(Precision.FP16) ? gpu.denseTflops(Precision.FP16) : gpu.denseTflops(Precision.TF32);
      warnings.add(Kind.FP32_TF32_OFF.warning("FP32 runs on CUDA cores at "
          + Text.fixed(gpu.denseTflops(Precision.FP32), 1)
          + " TFLOP/s: PyTorch leaves TF32 off for matmuls by default; set "
          + "torch.backends.cuda.matmul.allow_tf32 = True for " + Text.fixed(gpu.denseTflops(Precision.TF32), 1)
          + " TFLOP/s, or train in BF16/FP16 mixed precision for " + Text.fixed(half, 1) + " TFLOP/s"));
    }
    boolean halfPrecision = job.precision.compute() == Precision.FP16 || job.precision.compute() == Precision.BF16;
    boolean tensorCores = gpu.tensorCores()
        && gpu.computeCapability().map(cc -> cc.isAtLeast(TENSOR_CORES)).orElse(true);
    if (halfPrecision && !tensorCores) {
      warnings.add(Kind.NO_TENSOR_CORES.warning(gpu.name() + " has no tensor cores: " + job.precision
          + " saves memory but runs its matmuls on CUDA cores, far below a tensor-core GPU"));
    }
    int gpusInNode = Math.min(job.layout.gpus(), job.hardware.gpusPerNode());
    if (gpusInNode > 1 && !Links.peerToPeer(gpu)) {
      warnings.add(Kind.NO_PEER_TO_PEER.warning(Links.noPeerToPeerReason(gpu) + ": the " + gpusInNode
          + " GPUs' collectives are staged through host memory at " + Text.fixed(Links.intraNodeGBps(gpu, gpusInNode), 1)
          + " GB/s per direction, not the " + Text.fixed(Links.pcieGBps(gpu), 0) + " GB/s of their PCIe links"));
    } else if (gpusInNode > 1 && gpu.vendor() == Vendor.NVIDIA && !Links.usesNvlink(job.gpu, gpusInNode)) {
      // The NVLink comparison is NVIDIA's; TPUs talk over their inter-chip interconnect, AMD cards over xGMI.
      warnings.add(Kind.PCIE_NO_NVLINK.warning(gpusInNode + " GPUs per node talk over PCIe ("
          + Text.fixed(Links.pcieGBps(gpu), 0)
          + " GB/s per direction) without NVLink: gradient and tensor-parallel traffic is 5-12x slower than over "
          + "NVLink (the deep-learning server guide)"));
    }
    if (job.model instanceof Transformer t && job.task.sequenceLength() > t.maxPositions()) {
      warnings.add(Kind.LONG_SEQUENCE.warning("sequence length " + job.task.sequenceLength() + " is longer than the "
          + t.maxPositions() + " positions " + t.name() + " was built for"));
    }
    if (job.layout.gpus() < job.hardware.gpus()) {
      warnings.add(Kind.LAYOUT_IDLE_GPUS.warning("the layout uses " + job.layout.gpus() + " of the "
          + job.hardware.gpus() + " GPUs"));
    }
    if (utilisation < LOW_UTILISATION) {
      String used = Text.fixed(100 * utilisation, 0);
      warnings.add(performance.bottleneck() == Bottleneck.DISK_INPUT
          ? Kind.INPUT_BOUND_DISK.warning("expected GPU utilisation is only " + used + "%: the disk cannot read "
              + "samples as fast as the GPUs use them; pack small files into sequential shards (WebDataset, "
              + "TFRecord), move them to an SSD or cache the data set in RAM (the deep-learning server guide: a 100-150 MB/s hard disk "
              + "cannot keep a GPU fed)")
          : Kind.INPUT_BOUND_CPU.warning("expected GPU utilisation is only " + used + "%: the CPUs cannot prepare "
              + "samples as fast as the GPUs use them; add CPU cores and data-loader workers or preprocess the data "
              + "set ahead (Baidu AIStudio's GPU guide: 10-12 logical cores per GPU for image decoding and augmentation)"));
    }
    if (step.hostSeconds() > 0.25 * step.seconds()) {
      String share = Text.fixed(100 * step.hostSeconds() / step.seconds(), 0);
      if (!job.task.executionMode().launchesFromPython()) {
        warnings.add(Kind.SHORT_KERNELS.warning(share + "% of the time goes to kernel launches shorter than the "
            + "GPU's launch floor: a larger batch would use the GPU better"));
      } else if (gpu.formFactor() == FormFactor.TPU) {
        warnings.add(Kind.COMPILED_TPU.warning("the estimate charges " + share + "% of the time to launching work "
            + "layer by layer from Python, which XLA-compiled TPU programs do not pay"));
      } else {
        warnings.add(Kind.EAGER_LAUNCH.warning(share + "% of the time the GPU waits for eager PyTorch to launch "
            + "work; CUDA graphs or torch.compile (as vLLM and TensorRT-LLM use) remove most of it"));
      }
    }
    if (job.model instanceof Transformer t && t.stack() == Stack.ENCODER && !job.training
        && job.task.generatedTokens() > 0) {
      warnings.add(Kind.ENCODER_GENERATES.warning(t.name() + " is encoder-only and generates nothing: the "
          + job.task.generatedTokens() + " generated tokens are ignored (one pass over the input, no KV cache)"));
    }
    if (memory.fit() == Fit.DOES_NOT_FIT) {
      warnings.add(Kind.DOES_NOT_FIT.warning("needs " + memory.perGpu() + " per GPU, and the " + gpu.name()
          + " has " + memory.capacity()));
    }
    memory.mayNotFitWarning().ifPresent(w -> warnings.add(Kind.MAY_NOT_FIT.warning(w)));
    if (gpu.vendor() != Vendor.NVIDIA) {
      warnings.add(Kind.UNCALIBRATED_VENDOR.warning("efficiencies are calibrated on NVIDIA GPUs; " + gpu.name()
          + " may differ"));
    }
    return warnings.build();
  }
}
