package io.github.gpusizer.core.estimate;

import io.github.gpusizer.core.model.ConvNet;
import io.github.gpusizer.core.model.Transformer;

/**
 * How many samples per second the hosts can prepare (CPU decoding and augmentation) and read (disk), over all
 * nodes.
 */
final class InputPipeline {
  /**
   * CPU milliseconds to decode and augment one ImageNet-style JPEG on one core when the task does not say. Seed 000
   * asks for 10–12 logical cores per GPU for data loading; a V100 trains ResNet-50 at ~1,200 images/s
   * (calibration.tsv, NVIDIA DeepLearningExamples): 12 cores × 1000 ms / 1,200 images ≈ 10 ms per image.
   */
  static final double DEFAULT_IMAGE_CPU_MS = 10;

  /**
   * Bytes of one ImageNet training JPEG when the task gives no data-set size: ILSVRC2012_img_train.tar holds
   * 1,281,167 images (Russakovsky et al. 2015) in about 138 GB, ≈ 108 KB each.
   */
  static final double DEFAULT_IMAGE_BYTES = 108e3;

  /**
   * Bytes per token of a pre-tokenised corpus: 16-bit token ids for vocabularies up to 65,536 (Megatron-LM's and
   * nanoGPT's {@code .bin} files), 32-bit beyond.
   */
  static double tokenBytes(int vocab) {
    return vocab <= 65_536 ? 2 : 4;
  }

  private InputPipeline() {}

  /**
   * Samples per second the CPUs and the disks can supply, {@code Double.POSITIVE_INFINITY} when unknown or
   * unlimited.
   */
  record Rates(double cpuSamplesPerSecond, double diskSamplesPerSecond) {
    double samplesPerSecond() {
      return Math.min(cpuSamplesPerSecond, diskSamplesPerSecond);
    }

    /** The share of time the GPUs can compute when they could process {@code gpuSamplesPerSecond}. */
    double gpuUtilisation(double gpuSamplesPerSecond) {
      return Math.min(1, samplesPerSecond() / gpuSamplesPerSecond);
    }
  }

  static Rates rates(Job job) {
    Hardware hw = job.hardware;
    int nodes = job.nodes;
    double cpu = Double.POSITIVE_INFINITY;
    double ms = cpuMsPerSample(job);
    if (hw.cpuCoresPerNode().isPresent() && ms > 0) {
      int gpusInNode = Math.min(job.layout.gpus(), hw.gpusPerNode());
      // One core per GPU drives its training process; the rest run data-loader workers.
      double loaders = Math.max(1, hw.cpuCoresPerNode().getAsInt() - gpusInNode);
      cpu = nodes * loaders * 1000 / ms;
    }
    double disk = Double.POSITIVE_INFINITY;
    double bytes = bytesPerSample(job);
    if (hw.diskMBps().isPresent() && bytes > 0) {
      disk = nodes * hw.diskMBps().getAsDouble() * 1e6 / bytes;
    }
    return new Rates(cpu, disk);
  }

  /** The task's CPU cost per sample, or the image default; 0 (no limit) for pre-tokenised text and the rest. */
  static double cpuMsPerSample(Job job) {
    return cpuMsPerSample(job.task);
  }

  static double cpuMsPerSample(io.github.gpusizer.core.task.Task task) {
    if (task.cpuMsPerSample().isPresent()) {
      return task.cpuMsPerSample().getAsDouble();
    }
    return task.model() instanceof ConvNet ? DEFAULT_IMAGE_CPU_MS : 0;
  }

  /**
   * Bytes read per sample: the larger of the kind's typical size and data-set size ÷ samples. The task gives
   * samples over all epochs, so the quotient is exact for one epoch and a lower bound for more; the typical size
   * keeps it from vanishing.
   */
  static double bytesPerSample(Job job) {
    double typical;
    if (job.model instanceof ConvNet c) {
      typical = DEFAULT_IMAGE_BYTES;
    } else if (job.model instanceof Transformer t) {
      typical = tokenBytes(t.vocab()) * job.sequence;
    } else if (job.model instanceof io.github.gpusizer.core.model.Recurrent r) {
      typical = tokenBytes(r.vocab()) * job.sequence;
    } else {
      typical = 0;
    }
    if (job.task.datasetSize().isPresent() && job.task.samples().isPresent()) {
      typical = Math.max(typical, job.task.datasetSize().get().bytes() / job.task.samples().getAsDouble());
    }
    return typical;
  }
}
