package io.github.gpusizer.core.estimate;

/**
 * What sets the pace of a job.
 *
 * <pre>{@code
 * if (estimate.performance().bottleneck() == Bottleneck.CPU_INPUT) { ... add CPU cores ... }
 * }</pre>
 */
public enum Bottleneck {
  /** Arithmetic on the GPU (tensor cores or CUDA cores). */
  COMPUTE,
  /** Reading and writing GPU memory (LLM decoding, element-wise layers, recurrent steps). */
  MEMORY_BANDWIDTH,
  /** Gradient, parameter or activation traffic between GPUs that the computation cannot hide. */
  COMMUNICATION,
  /** The CPUs cannot decode and augment samples as fast as the GPUs consume them. */
  CPU_INPUT,
  /** The disk cannot read samples as fast as the GPUs consume them. */
  DISK_INPUT
}
