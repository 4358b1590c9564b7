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

  Job(Task task, Hardware hardware, Layout layout, int microBatch, Tuning tuning) {
    this.tuning = tuning;
    this.task = task;
    this.hardware = hardware;
    this.layout = layout;
    this.gpu = hardware.gpu();
    this.model = task.model();
    this.precision = task.precision();
    this.training = task.kind().isTraining();
    this.adapter = task.kind().isAdapter();
    this.dp = layout.dataParallel();
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
    return new Job(task, hardware, layout, newMicroBatch, tuning);
  }

  /** Samples per optimizer step over all data-parallel ranks. */
  long globalBatch() {
    return (long) microBatch * dp * accumulation;
  }

  /** Tokens one GPU's micro-batch holds (samples for image and generic models). */
  double microTokens() {
    return (double) microBatch * sequence;
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
