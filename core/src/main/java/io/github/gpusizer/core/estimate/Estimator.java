package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.time.Duration;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Estimates memory, speed, bottleneck and host of a task on given hardware and layout. Immutable and thread-safe;
 * {@link #memory} is cheap enough to call thousands of times while searching layouts.
 *
 * <pre>{@code
 * Estimator estimator = Estimator.defaults();
 * Estimate e = estimator.estimate(task, Hardware.of(a100, 8, 1), Layout.dataParallel(8));
 * if (e.memory().fits()) System.out.println(e.performance().totalTime());
 * int mbs = estimator.maxMicroBatch(task, Hardware.single(rtx4090), Layout.single());
 * }</pre>
 */
public final class Estimator {
  private static final Estimator DEFAULTS = new Estimator(Tuning.DEFAULTS);

  private final Tuning tuning;
  /**
   * The fixed quantities of the task estimated last ({@link ModelFacts}): a search estimates one task thousands of
   * times. An immutable value behind a volatile reference, so threads that share this estimator see either the
   * facts of their task or work theirs out again; never a wrong one ({@link ModelFacts#describes} is checked).
   */
  private volatile ModelFacts lastFacts;
  /** The GPU estimated last and its {@link Efficiency#hopperClass}, shared the same way as {@link #lastFacts}. */
  private volatile GpuClass lastGpu;

  private record GpuClass(Gpu gpu, boolean hopperClass, double sustainedClock) {
    static GpuClass of(Gpu gpu) {
      return new GpuClass(gpu, Efficiency.hopperClass(gpu), Efficiency.sustainedClock(gpu));
    }
  }

  private Estimator(Tuning tuning) {
    this.tuning = tuning;
  }

  /** The estimator with the calibrated default efficiencies (see {@code core/CALIBRATION.md}). */
  public static Estimator defaults() {
    return DEFAULTS;
  }

  /**
   * An estimator that assumes the given model FLOP utilisation instead of the calibrated default: the arithmetic of
   * a step takes {@code FLOPs / (dense peak × mfu)}; memory traffic, communication and input limits still apply.
   *
   * @throws IllegalArgumentException if {@code mfu} is not in (0, 1]
   */
  public Estimator withEfficiency(double mfu) {
    return new Estimator(tuning.withMfu(fraction("efficiency (MFU)", mfu)));
  }

  /**
   * An estimator that charges no eager host time to any task, whatever its {@link
   * io.github.gpusizer.core.task.ExecutionMode}: the per-layer Python overhead and the per-kernel dispatch time are
   * dropped, the device's launch floor stays. Prefer stating the mode on the task
   * ({@code Task.Builder.executionMode(ExecutionMode.COMPILED)}), which also decides the memory allocator; this
   * switch is kept for callers that time every task as compiled.
   */
  public Estimator withCompiledExecution() {
    return new Estimator(tuning.withHostSecondsPerLayer(0));
  }

  /**
   * An estimator whose eager framework needs {@code perLayer} of host time to launch one layer's kernels, for every
   * task (default: the task's {@link io.github.gpusizer.core.task.Framework}'s, 1.22 ms for PyTorch's own eager code
   * and 2.3 ms for Hugging Face's modules, see {@code core/CALIBRATION.md}).
   *
   * @throws IllegalArgumentException if the duration is negative
   */
  public Estimator withHostTimePerLayer(Duration perLayer) {
    checkNotNull(perLayer, "perLayer");
    checkArgument(!perLayer.isNegative(), "host time per layer must be >= 0, was %s", perLayer);
    return new Estimator(tuning.withHostSecondsPerLayer(perLayer.toNanos() / 1e9));
  }

  /**
   * An estimator whose kernels reach {@code fraction} of the datasheet memory bandwidth (default 0.80).
   *
   * @throws IllegalArgumentException if {@code fraction} is not in (0, 1]
   */
  public Estimator withBandwidthEfficiency(double fraction) {
    return new Estimator(tuning.withBandwidthEfficiency(fraction("bandwidth efficiency", fraction)));
  }

  /**
   * An estimator whose collectives reach {@code fraction} of the datasheet NVLink, PCIe or network bandwidth
   * (default 0.80).
   *
   * @throws IllegalArgumentException if {@code fraction} is not in (0, 1]
   */
  public Estimator withLinkEfficiency(double fraction) {
    return new Estimator(tuning.withLinkEfficiency(fraction("link efficiency", fraction)));
  }

  /**
   * An estimator whose CUDA context and library workspaces take {@code size} per GPU, in every execution mode
   * (default: the framework's, 1343 MiB for PyTorch as Hugging Face measured on a V100, 700 MiB for a TensorFlow
   * graph as TensorFlow's device logs put it).
   */
  public Estimator withCudaContext(DataSize size) {
    return new Estimator(tuning.withCudaContextBytes(checkNotNull(size, "size").bytes()));
  }

  /**
   * An estimator whose caching allocator holds {@code fraction} of the allocated memory on top of it (default 0.15)
   * where the card has room for it; near the card's capacity the allocator releases its free cached blocks and only
   * the unreleasable fragments (2.4% of the allocation, or {@code fraction} if smaller) are charged.
   *
   * @throws IllegalArgumentException if {@code fraction} is not in [0, 1]
   */
  public Estimator withAllocatorCacheFraction(double fraction) {
    checkArgument(fraction >= 0 && fraction <= 1, "allocator cache fraction must be in [0, 1], was %s", fraction);
    return new Estimator(tuning.withAllocatorCacheFraction(fraction));
  }

  /** Whether this estimator assumes compiled execution (no host launch overhead). */
  public boolean compiledExecution() {
    return tuning.hostSecondsPerLayer().isPresent() && tuning.hostSecondsPerLayer().getAsDouble() == 0;
  }

  /** The caller's efficiency override, if any. */
  public OptionalDouble efficiency() {
    return tuning.mfu();
  }

  private static double fraction(String what, double value) {
    checkArgument(value > 0 && value <= 1, "%s must be in (0, 1], was %s", what, value);
    return value;
  }

  /** Why {@code gpu} cannot run the task's number format; empty if it can (the check {@link #estimate} makes). */
  public static Optional<String> precisionProblem(Task task, Gpu gpu) {
    return Compatibility.precisionProblem(task.precision(), gpu);
  }

  /**
   * What one checkpoint of the task's training state holds (trainable weights as the optimizer keeps them and the
   * optimizer state), the same on every GPU; zero for inference.
   */
  public DataSize checkpointSize(Task task, Gpu gpu) {
    return DataSize.ofBytes(MemoryModel.checkpointBytes(new Job(task, Hardware.single(gpu), Layout.single(), tuning)));
  }

  /** What a run of the task reads before its first step: the stored weights; zero when pre-training from scratch. */
  public DataSize weightsToLoad(Task task, Gpu gpu) {
    return DataSize.ofBytes(MemoryModel.weightsToLoad(new Job(task, Hardware.single(gpu), Layout.single(), tuning)));
  }

  /**
   * A lower bound, in GPU-seconds, of the GPU time any run of the training task on {@code gpu} takes, whatever its
   * layout (GPUs, nodes, tensor or pipeline stages, ZeRO stage) and recipe (micro-batch, recomputation): the
   * arithmetic of all its samples without recomputation (the hardware FLOPs, or the model FLOPs where fewer, which a
   * caller's MFU divides), at the fastest rate the model gives any kernel on the GPU. Every kernel takes at least its
   * FLOPs at that rate ({@link Roofline}), the arithmetic per sample does not depend on the micro-batch, and tensor,
   * pipeline and context parallelism split it without shrinking it. A search uses it to pass over offerings that
   * cannot cost less than one it has found. Zero where it knows no bound: inference, a task without an amount of
   * work, one the GPU cannot run.
   */
  public double leastGpuSeconds(Task task, Gpu gpu) {
    checkNotNull(task, "task");
    checkNotNull(gpu, "gpu");
    if (!task.kind().isTraining()) {
      return 0;
    }
    Job job;
    try {
      Task one = task.toBuilder().microBatch(1).globalBatch(0)
          .checkpointing(Checkpointing.NONE).build();
      check(one, Hardware.single(gpu), Layout.single());
      job = new Job(one, Hardware.single(gpu), Layout.single(), tuning);
    } catch (IllegalArgumentException e) {
      return 0;
    }
    double flops = Math.min(ComputeModel.micro(job).flops(), ComputeModel.modelFlopsPerSample(job));
    // the fastest share of the peak any kernel runs at: a GEMM's or a convolution's (attention, depthwise and the
    // rest run at a fraction of the GEMM's, Efficiency), or the caller's MFU; a GeForce card's can pass its rated
    // peak (it boosts above the rated clock)
    double rate = job.gpu.denseTflops(job.precision.compute()) * 1e12
        * Math.max(tuning.mfu().orElse(0), Math.max(job.gemmEfficiency(), job.convolutionEfficiency()));
    double seconds = Performance.totalSeconds(job, 1, job.sequenceModel() ? job.sequence : 0, flops / rate);
    return Double.isNaN(seconds) || seconds <= 0 ? 0 : seconds * (1 - 1e-9);
  }

  /**
   * Memory per GPU at the peak of a step.
   *
   * @throws IllegalArgumentException if the hardware cannot run the task at all or the layout does not fit the model
   */
  public MemoryEstimate memory(Task task, Hardware hardware, Layout layout) {
    Job job = job(task, hardware, layout);
    return memoryOf(job);
  }

  /**
   * A value equal for two calls of {@link #memory} on this estimator that give equal estimates, for searches that
   * estimate one task on many instance counts and may share them: the task and GPU by identity, and what the memory
   * model reads of the layout and hardware (not the host, the network, or data-parallel ranks that change nothing).
   *
   * @throws IllegalArgumentException exactly when {@link #memory} would
   */
  public Object memoryKey(Task task, Hardware hardware, Layout layout) {
    check(task, hardware, layout);
    return new MemoryKey(task, hardware.gpu(), MemoryModel.LayoutKey.of(task, hardware, layout));
  }

  /** {@link #memoryKey}: the task and GPU by identity (their records' hashes walk every field). */
  private record MemoryKey(Task task, Gpu gpu, MemoryModel.LayoutKey layout) {
    @Override
    public boolean equals(Object o) {
      return o instanceof MemoryKey k && k.task == task && k.gpu == gpu && k.layout.equals(layout);
    }

    @Override
    public int hashCode() {
      return (System.identityHashCode(task) * 31 + System.identityHashCode(gpu)) * 31 + layout.hashCode();
    }
  }

  /**
   * Memory, time, bottleneck, host and warnings.
   *
   * @throws IllegalArgumentException if the hardware cannot run the task at all (BF16 on a V100), the global batch
   *     is not a multiple of micro-batch × data-parallel ranks, or the layout does not fit the model
   */
  public Estimate estimate(Task task, Hardware hardware, Layout layout) {
    Job job = job(task, hardware, layout);
    Compatibility.checkBatch(job);
    MemoryEstimate memory = memoryOf(job);
    Timing timing = timing(job);
    StepTime step = timing.step();
    InputPipeline.Rates input = timing.input();
    PerformanceEstimate performance = timing.performance();
    double gpuSamplesPerSecond = step.samples() / step.seconds();
    HostSizing host = HostSizer.size(job, memory, gpuSamplesPerSecond);
    ImmutableList<Warning> warnings = Compatibility.advice(job, memory, performance, step,
        input.gpuUtilisation(gpuSamplesPerSecond));
    return new Estimate(task, hardware, layout, memory, performance, host, warnings);
  }

  /**
   * {@link #estimate} of the task as a sizer runs it on the hardware's GPU: where the caller chose no precision and
   * the GPU cannot run the default, in the best precision the GPU has ({@link Task#forGpu}: FP16 mixed on a V100 or
   * T4), with a warning saying so. The estimate's task is the one run.
   *
   * @throws IllegalArgumentException as {@link #estimate} does, and for a precision the caller chose that the GPU
   *     cannot run
   */
  public Estimate estimateAsRun(Task task, Hardware hardware, Layout layout) {
    Task run = checkNotNull(task, "task").forGpu(checkNotNull(hardware, "hardware").gpu());
    Estimate e = estimate(run, hardware, layout);
    if (run.precision() == task.precision()) {
      return e;
    }
    ImmutableList<Warning> warnings = ImmutableList.<Warning>builder()
        .add(Warning.precisionFallback(hardware.gpu(), task.precision(), run.precision())).addAll(e.warnings())
        .build();
    return new Estimate(run, hardware, layout, e.memory(), e.performance(), e.host(), warnings);
  }

  /**
   * Time, throughput and bottleneck only: exactly {@link #estimate}'s {@link Estimate#performance()}, without the
   * memory breakdown, host sizing and warnings, whose texts cost more than the arithmetic. For searches that time
   * many layouts and keep one; call {@link #estimate} for the one kept.
   *
   * @throws IllegalArgumentException as {@link #estimate} does
   */
  public PerformanceEstimate performance(Task task, Hardware hardware, Layout layout) {
    Job job = job(task, hardware, layout);
    Compatibility.checkBatch(job);
    return timing(job).performance();
  }

  /**
   * A memo of this estimator for one search that estimates a task on many pieces of hardware: it gives the same
   * memory as {@link #memory} and the same performance as {@link #performance}, and reuses what they share (a
   * training micro-batch across data-parallel ranks, nodes and networks; a memory allocation across GPU models).
   * Not thread-safe: one per search.
   */
  public Memo memo() {
    return new Memo();
  }

  /** The checks every estimate makes of its arguments: not null, and the hardware able to run the layout. */
  private static void check(Task task, Hardware hardware, Layout layout) {
    checkNotNull(task, "task");
    checkNotNull(hardware, "hardware");
    checkNotNull(layout, "layout");
    Compatibility.check(task, hardware, layout);
  }

  /** See {@link #memo()}. */
  public final class Memo {
    /** Training micro-batches, which the data-parallel ranks, nodes and network do not change. */
    private final Map<MicroKey, ComputeModel.Micro> micros = new HashMap<>();
    /** Memory allocations, which the GPU model does not change (its capacity only sets the overheads). */
    private final Map<AllocationKey, Allocated> allocations = new HashMap<>();
    /** The facts of each task and the class of each GPU met, by identity (a search alternates between GPUs). */
    private final Map<Task, ModelFacts> facts = new IdentityHashMap<>();
    private final Map<Gpu, GpuClass> gpus = new IdentityHashMap<>();
    /** The facts last worked out, for the next variant of the same task. */
    private ModelFacts lastFacts;

    private Memo() {}

    /**
     * Exactly {@link Estimator#memory}.
     *
     * @throws IllegalArgumentException as {@link Estimator#memory} does
     */
    public MemoryEstimate memory(Task task, Hardware hardware, Layout layout) {
      check(task, hardware, layout);
      AllocationKey key = new AllocationKey(task, MemoryModel.LayoutKey.of(task, hardware, layout));
      Allocated known = allocations.get(key);
      if (known == null) {
        Job job = checkedJob(task, hardware, layout);
        known = new Allocated(MemoryModel.allocation(job), ErrorBands.bundled().memory(WorkloadClass.of(job),
            job.task.framework(), job.task.frameworkAssumed()));
        allocations.put(key, known);
      }
      DataSize capacity = hardware.gpu().memory();
      MemoryBreakdown breakdown = MemoryModel.breakdown(known.allocation(), task, tuning, capacity.bytes());
      return MemoryEstimate.of(breakdown, capacity, known.band(), MemoryModel.configured(breakdown, task, tuning));
    }

    private Job job(Task task, Hardware hardware, Layout layout) {
      check(task, hardware, layout);
      return checkedJob(task, hardware, layout);
    }

    /** The job of arguments that passed {@link #check}, with the facts and GPU class met before. */
    private Job checkedJob(Task task, Hardware hardware, Layout layout) {
      ModelFacts f = facts.get(task);
      if (f == null) {
        // a search's variants of one task (micro-batch, recomputation) share the model's facts
        f = lastFacts != null && lastFacts.describes(task) ? lastFacts : ModelFacts.of(task);
        facts.put(task, f);
        lastFacts = f;
      }
      GpuClass gpu = gpus.computeIfAbsent(hardware.gpu(), GpuClass::of);
      return new Job(task, hardware, layout, task.microBatch(), tuning, f, gpu.hopperClass(), gpu.sustainedClock());
    }

    /**
     * A training or inference run of {@code task} on the hardware and layout, to be bounded and timed.
     *
     * @throws IllegalArgumentException as {@link Estimator#performance} does
     */
    public Run run(Task task, Hardware hardware, Layout layout) {
      Job job = job(task, hardware, layout);
      Compatibility.checkBatch(job);
      return new Run(job);
    }

    /** A run to time: {@link #leastSeconds} cheaply, {@link #performance} in full. */
    public final class Run {
      private final Job job;

      private Run(Job job) {
        this.job = job;
      }

      /**
       * A lower bound of {@link #performance}'s total time, in seconds, at a fraction of its cost: the step's
       * arithmetic, memory traffic and host time with every stall hidden (communication, pipeline bubbles, the
       * input pipeline). Zero for inference and for a task without an amount of work, which it does not bound.
       */
      public double leastSeconds() {
        if (!job.training) {
          return 0;
        }
        double seconds = ComputeModel.leastTrainingStepSeconds(job, micro(job));
        double samples = job.globalBatch();
        double total = Performance.totalSeconds(job, samples, job.sequenceModel() ? samples * job.sequence : 0,
            seconds);
        return Double.isNaN(total) ? 0 : total;
      }

      /** Exactly {@link Estimator#performance} of the run. */
      public PerformanceEstimate performance() {
        if (!job.training) {
          return timing(job).performance();
        }
        StepTime step = ComputeModel.training(job, micro(job));
        return Performance.combine(job, step, InputPipeline.rates(job));
      }
    }

    private ComputeModel.Micro micro(Job job) {
      MicroKey key = new MicroKey(job.task, job.gpu, job.tp, job.pp, job.cp, job.zero == ZeroStage.STAGE_3);
      ComputeModel.Micro micro = micros.get(key);
      if (micro == null) {
        micro = ComputeModel.micro(job);
        micros.put(key, micro);
      }
      return micro;
    }
  }

  /**
   * A memory allocation and its error band, both the same on every GPU ({@link WorkloadClass} reads the layout's
   * nodes, which {@link MemoryModel.LayoutKey} holds).
   */
  private record Allocated(MemoryModel.Allocation allocation, ErrorBand band) {}

  /** What a memory allocation depends on ({@link MemoryModel.LayoutKey}): the task by identity. */
  private record AllocationKey(Task task, MemoryModel.LayoutKey layout) {
    @Override
    public boolean equals(Object o) {
      return o instanceof AllocationKey k && k.task == task && k.layout.equals(layout);
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(task) * 31 + layout.hashCode();
    }
  }

  /**
   * What a training micro-batch depends on beyond the estimator ({@link ComputeModel#micro(Job)}): the task and
   * GPU by identity, the tensor, pipeline and context-parallel degrees, and whether ZeRO-3 gathers the weights.
   */
  private record MicroKey(Task task, Gpu gpu, int tp, int pp, int cp, boolean zero3) {
    @Override
    public boolean equals(Object o) {
      return o instanceof MicroKey k && k.task == task && k.gpu == gpu && k.tp == tp && k.pp == pp && k.cp == cp
          && k.zero3 == zero3;
    }

    @Override
    public int hashCode() {
      return (((System.identityHashCode(task) * 31 + System.identityHashCode(gpu)) * 31 + tp * 64 + pp) * 31 + cp) * 2
          + (zero3 ? 1 : 0);
    }
  }

  /**
   * Whether the host's CPU cores can change {@link #performance} for this task: only when its samples cost CPU
   * time to prepare (its {@code cpuMsPerSample}, or the image default), which the cores' data loaders must keep up
   * with. When false, a search may share timings between hosts that differ only in cores.
   */
  public boolean performanceDependsOnHostCores(Task task) {
    checkNotNull(task, "task");
    return InputPipeline.cpuMsPerSample(task) > 0;
  }

  /** The step, the input rates and their combination: the part {@link #estimate} and {@link #performance} share. */
  private record Timing(StepTime step, InputPipeline.Rates input, PerformanceEstimate performance) {}

  private Timing timing(Job job) {
    StepTime step = ComputeModel.step(job);
    InputPipeline.Rates input = InputPipeline.rates(job);
    return new Timing(step, input, Performance.combine(job, step, input));
  }

  /**
   * The prefill of a serving engine: {@code task.microBatch()} prompts of {@code task.sequenceLength()} tokens in one
   * forward pass, compute-bound for all but the shortest prompts, with its tensor-parallel all-reduces.
   *
   * @throws IllegalArgumentException if the model is not a transformer, or as {@link #estimate} does
   */
  public PassTime prefill(Task task, Hardware hardware, Layout layout) {
    Job job = servingJob(task, hardware, layout);
    Transformer t = (Transformer) job.model;
    Roofline run = new Roofline(job.gpu.denseTflops(job.precision.compute()), job.gpu.memoryBandwidthGBps(),
        job.bandwidthEfficiency());
    ComputeModel.prefill(job, t, run, ComputeModel.hostSecondsPerLayer(job));
    return new PassTime(run.computeSeconds, run.memorySeconds, run.hostSeconds,
        CommunicationModel.tensorParallelPass(job, job.microTokens()));
  }

  /**
   * One decode step of a serving engine: one token for each of {@code task.microBatch()} sequences, each attending
   * over {@code task.sequenceLength()} cached tokens stored at {@code kvCacheBytesPerElement} bytes (2 for FP16/BF16,
   * 1 for an FP8 KV cache). Reads the weights once and every sequence's KV cache, so it is bandwidth-bound until the
   * batch makes the matmuls compute-bound.
   *
   * @throws IllegalArgumentException if the model is not a transformer, the element size is not 1, 2 or 4 bytes,
   *     or as {@link #estimate} does
   */
  public PassTime decodeStep(Task task, Hardware hardware, Layout layout, int kvCacheBytesPerElement) {
    Job job = servingJob(task, hardware, layout);
    checkKvBytes(kvCacheBytesPerElement);
    Roofline step = ComputeModel.decodeStep(job, (Transformer) job.model, job.sequence, kvCacheBytesPerElement,
        ComputeModel.hostSecondsPerLayer(job));
    return new PassTime(step.computeSeconds, step.memorySeconds, step.hostSeconds,
        CommunicationModel.tensorParallelPass(job, job.microBatch));
  }

  /**
   * The KV-cache room of one GPU of a serving replica: its memory less the weights, one forward pass of
   * {@code task.microBatch() × task.sequenceLength()} tokens (the largest prefill the engine runs at once) and the
   * execution mode's overheads (a serving engine keeps 10% of the GPU free, as vLLM's {@code gpu_memory_utilization}
   * of 0.9, and pages the cache; PyTorch's allocator caches a share of everything), and the bytes per cached token.
   *
   * @throws IllegalArgumentException if the model is not a transformer, the element size is not 1, 2 or 4 bytes,
   *     or as {@link #memory} does
   */
  public KvCacheBudget kvCacheBudget(Task task, Hardware hardware, Layout layout, int kvCacheBytesPerElement) {
    Job job = servingJob(task, hardware, layout);
    checkKvBytes(kvCacheBytesPerElement);
    return new KvCacheBudget(MemoryModel.inferenceWithoutKvCache(job),
        DataSize.ofBytes(MemoryModel.kvCacheCapacityBytes(job)),
        MemoryModel.kvCacheBytesPerToken(job, kvCacheBytesPerElement));
  }

  private Job servingJob(Task task, Hardware hardware, Layout layout) {
    Job job = job(task, hardware, layout);
    checkArgument(job.model instanceof Transformer, "serving passes need a transformer; %s is a %s",
        job.model.name(), job.model.getClass().getSimpleName());
    checkArgument(!job.training, "serving passes need an inference task, was %s", task.kind());
    return job;
  }

  private static void checkKvBytes(int bytes) {
    checkArgument(bytes == 1 || bytes == 2 || bytes == 4,
        "KV-cache bytes per element must be 1 (FP8), 2 (FP16/BF16) or 4 (FP32), was %s", bytes);
  }

  /**
   * The largest micro-batch that fits in memory under this layout (the task's micro-batch is ignored); 0 if even 1
   * does not fit.
   *
   * @throws IllegalArgumentException if the hardware cannot run the task at all or the layout does not fit the model
   */
  public int maxMicroBatch(Task task, Hardware hardware, Layout layout) {
    Job first = job(task, hardware, layout);
    long capacity = hardware.gpu().memory().bytes();
    if (peak(first.withMicroBatch(1)) > capacity) {
      return 0;
    }
    int low = 1;
    int high = 2;
    while (high < (1 << 24) && peak(first.withMicroBatch(high)) <= capacity) {
      low = high;
      high *= 2;
    }
    while (high - low > 1) {
      int mid = low + (high - low) / 2;
      if (peak(first.withMicroBatch(mid)) <= capacity) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return low;
  }

  private static long peak(Job job) {
    return MemoryModel.breakdown(job).total().bytes();
  }

  private Job job(Task task, Hardware hardware, Layout layout) {
    check(task, hardware, layout);
    ModelFacts facts = lastFacts;
    if (facts == null || !facts.describes(task)) {
      facts = ModelFacts.of(task);
      lastFacts = facts;
    }
    GpuClass gpu = lastGpu;
    if (gpu == null || gpu.gpu() != hardware.gpu()) {
      gpu = GpuClass.of(hardware.gpu());
      lastGpu = gpu;
    }
    return new Job(task, hardware, layout, task.microBatch(), tuning, facts, gpu.hopperClass(),
        gpu.sustainedClock());
  }

  private static MemoryEstimate memoryOf(Job job) {
    MemoryBreakdown breakdown = MemoryModel.breakdown(job);
    DataSize capacity = job.gpu.memory();
    return MemoryEstimate.of(breakdown, capacity,
        ErrorBands.bundled().memory(WorkloadClass.of(job), job.task.framework(), job.task.frameworkAssumed()),
        MemoryModel.configured(breakdown, job.task, job.tuning));
  }

  @Override
  public String toString() {
    return "Estimator[" + tuning + "]";
  }
}
