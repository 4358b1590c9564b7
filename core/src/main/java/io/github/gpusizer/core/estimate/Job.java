package io.github.gpusizer.core.estimate;

import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;

/**
 * The quantities every estimator needs, derived once per call from a task, its hardware and its layout. Checked by
 * {@link Compatibility} before it is built.
 */
final class Job {
  final Task task;
  final Hardware hardware;
  final Layout layout;
  final Gpu gpu;
  final ModelSpec model;
  final PrecisionMode precision;
  final boolean training;
  final boolean adapter;
  final int dp;
  /** Context-parallel degree: GPUs that split each sequence between them; 1 without context parallelism. */
  final int cp;
  /** Ranks that reduce each gradient: {@code dp × cp} ({@link Layout#gradientRanks}). */
  final int gradientRanks;
  /**
   * Ranks that share one copy of the ZeRO-sharded state: the shard group's data-parallel ranks times {@code cp}
   * ({@code gradientRanks} unless hybrid-sharded), as Megatron-LM's distributed optimizer shards over its
   * data-parallel group with context parallelism.
   */
  final int shard;
  /** Model chunks per pipeline rank (interleaved 1F1B); 1 without interleaving. */
  final int virtualStages;
  final int tp;
  final int pp;
  final ZeroStage zero;
  /** Samples per GPU per forward/backward pass. */
  final int microBatch;
  /** Nodes the layout occupies on this hardware (the hardware's GPUs per node decide, not the layout's). */
  final int nodes;
  /** Micro-batches per optimizer step on each data-parallel rank (gradient accumulation). */
  final int accumulation;
  /** Tokens per sample (the prompt for inference); 1 for image and generic models. */
  final int sequence;
  /** Bytes of one activation element: 4 in FP32/TF32, 2 otherwise. */
  final int activationBytes;
  /** Bytes of one weight element as the matrix multiplications read it: 4 in FP32/TF32, 1 in FP8, 2 otherwise. */
  final int computeBytes;
  /** The estimator's constants for this job. */
  final Tuning tuning;
  /** {@link Efficiency#hopperClass} of the GPU. */
  final boolean hopperClass;
  /** {@link Efficiency#sustainedClock} of the GPU: the share of its rated boost clock its power limit sustains. */
  final double sustainedClock;
  /** What the task fixes for every estimate of it (parameter counts, adapter widths). */
  final ModelFacts facts;
  /** {@code model.parameters()}, counted once per task (a transformer counts them from its dimensions each time). */
  final double parameters;
  /** LoRA adapter parameters ({@link io.github.gpusizer.core.task.LoraTarget#adapterParameters}); 0 unless an adapter job on a transformer. */
  final long loraParameters;
  /** Parameters that receive gradients: 0 for inference, the adapters under LoRA, else all. */
  final double trainableParameters;

  Job(Task task, Hardware hardware, Layout layout, int microBatch, Tuning tuning) {
    this(task, hardware, layout, microBatch, tuning, ModelFacts.of(task), Efficiency.hopperClass(hardware.gpu()),
        Efficiency.sustainedClock(hardware.gpu()));
  }

  /**
   * A job whose task's fixed quantities are {@code facts} (which must {@link ModelFacts#describes describe} it) on
   * a GPU whose {@link Efficiency#hopperClass} is {@code hopperClass} and whose {@link Efficiency#sustainedClock} is
   * {@code sustainedClock}.
   */
  Job(Task task, Hardware hardware, Layout layout, int microBatch, Tuning tuning, ModelFacts facts,
      boolean hopperClass, double sustainedClock) {
    this.tuning = tuning;
    this.facts = facts;
    this.hopperClass = hopperClass;
    this.sustainedClock = sustainedClock;
    this.task = task;
    this.hardware = hardware;
    this.layout = layout;
    this.gpu = hardware.gpu();
    this.model = task.model();
    this.precision = task.precision();
    this.training = task.kind().isTraining();
    this.adapter = task.kind().isAdapter();
    this.dp = layout.dataParallel();
    this.cp = layout.contextParallel();
    this.gradientRanks = layout.gradientRanks();
    this.shard = layout.shardGroup() * cp;
    this.virtualStages = layout.virtualStages();
    this.tp = layout.tensorParallel();
    this.pp = layout.pipelineParallel();
    this.zero = layout.zero();
    this.microBatch = microBatch;
    this.nodes = (layout.gpus() + hardware.gpusPerNode() - 1) / hardware.gpusPerNode();
    // long: a micro-batch near 2^31 times the ranks wrapped to 0 and divided by zero (found by fuzzing)
    long perStep = (long) microBatch * dp;
    this.accumulation = task.globalBatch() == 0 ? 1 : (int) Math.max(1, task.globalBatch() / perStep);
    this.sequence = model instanceof Transformer || model instanceof io.github.gpusizer.core.model.Recurrent
        ? task.sequenceLength() : 1;
    this.activationBytes = precision.activationBytes();
    this.computeBytes = switch (precision) {
      case FP32, TF32 -> 4;
      case FP8_MIXED -> 1;
      default -> 2;
    };
    this.parameters = facts.parameters;
    // adapters attach to transformer projections; Compatibility rejects adapter jobs on other models
    this.loraParameters = facts.loraParameters;
    this.trainableParameters = !training ? 0 : adapter ? loraParameters : parameters;
  }

  /** A job with another micro-batch: shares the parameter counts of {@code other}. */
  private Job(Job other, int microBatch) {
    this.tuning = other.tuning;
    this.facts = other.facts;
    this.hopperClass = other.hopperClass;
    this.sustainedClock = other.sustainedClock;
    this.task = other.task;
    this.hardware = other.hardware;
    this.layout = other.layout;
    this.gpu = other.gpu;
    this.model = other.model;
    this.precision = other.precision;
    this.training = other.training;
    this.adapter = other.adapter;
    this.dp = other.dp;
    this.cp = other.cp;
    this.gradientRanks = other.gradientRanks;
    this.shard = other.shard;
    this.virtualStages = other.virtualStages;
    this.tp = other.tp;
    this.pp = other.pp;
    this.zero = other.zero;
    this.microBatch = microBatch;
    this.nodes = other.nodes;
    long perStep = (long) microBatch * dp;
    this.accumulation = task.globalBatch() == 0 ? 1 : (int) Math.max(1, task.globalBatch() / perStep);
    this.sequence = other.sequence;
    this.activationBytes = other.activationBytes;
    this.computeBytes = other.computeBytes;
    this.parameters = other.parameters;
    this.loraParameters = other.loraParameters;
    this.trainableParameters = other.trainableParameters;
  }

  Job(Task task, Hardware hardware, Layout layout, Tuning tuning) {
    this(task, hardware, layout, task.microBatch(), tuning);
  }

  /** A job under the default constants. */
  Job(Task task, Hardware hardware, Layout layout) {
    this(task, hardware, layout, Tuning.DEFAULTS);
  }

  /** The same job with another micro-batch (for the micro-batch search; accumulation is recomputed). */
  Job withMicroBatch(int newMicroBatch) {
    return new Job(this, newMicroBatch);
  }

  /** {@link Efficiency#gemm} of the GPU in the task's compute precision, at the clock its power sustains. */
  double gemmEfficiency() {
    return Efficiency.gemm(gpu, precision.compute(), hopperClass) * sustainedClock;
  }

  /** The share of the datasheet memory bandwidth kernels reach: the caller's, else the GPU's memory type's. */
  double bandwidthEfficiency() {
    return tuning.bandwidthEfficiency().isPresent() ? tuning.bandwidthEfficiency().getAsDouble()
        : Efficiency.bandwidth(gpu);
  }

  /** {@link Efficiency#convolution} of the GPU in the task's compute precision, at the clock its power sustains. */
  double convolutionEfficiency() {
    return Efficiency.convolution(gpu, precision.compute(), hopperClass) * sustainedClock;
  }

  /** Samples per optimizer step over all data-parallel ranks. */
  long globalBatch() {
    return (long) microBatch * dp * accumulation;
  }

  /**
   * Tokens one GPU's micro-batch holds (samples for image and generic models): under context parallelism its
   * {@code 1/cp} share of every sequence.
   */
  double microTokens() {
    return (double) microBatch * sequence / cp;
  }

  /** Whether the model processes token sequences. */
  boolean sequenceModel() {
    return sequence > 1 || model instanceof Transformer || model instanceof io.github.gpusizer.core.model.Recurrent;
  }

  /** Parameters one GPU holds before ZeRO sharding: the model split by tensor and pipeline parallelism. */
  double modelShard(double parameters) {
    return parameters / ((double) tp * pp);
  }
}
