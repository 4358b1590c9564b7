package io.github.gpusizer.core.task;

/**
 * How a transformer's attention core runs, which decides whether the {@code s × s} scores are stored and in which
 * number format their softmax is kept for the backward pass.
 *
 * <pre>{@code
 * Task megatron = Task.pretraining(gpt).sequenceLength(2048).precision(PrecisionMode.FP16_MIXED)
 *     .attention(AttentionKernel.FUSED_SOFTMAX).build(); // Megatron-LM without flash attention
 * }</pre>
 */
public enum AttentionKernel {
  /**
   * FlashAttention-style fused kernels (FlashAttention 2/3, PyTorch's SDPA flash and memory-efficient back ends): the
   * scores are never stored; the output and a log-sum-exp per head are kept. The default.
   */
  FLASH,
  /**
   * Two matrix multiplications with one fused scale-mask-softmax kernel between them that reads and writes the
   * activations' 16-bit format (Megatron-LM's {@code FusedScaleMaskSoftmax}, {@code megatron/core/fusions/
   * fused_softmax.py}, with {@code scaled_masked_softmax_cuda}): the softmax output is kept in 16 bits, which is
   * the {@code 2as²b} of Korthikanti et al. 2022, §4.1. In FP32 it is the same as {@link #EAGER}.
   */
  FUSED_SOFTMAX,
  /**
   * Framework operators one by one ({@code softmax(q @ k.T * scale + mask) @ v}): under autocast the softmax runs
   * and is kept in FP32 (torch.amp's list of ops that autocast to float32), and the next matrix multiplication keeps
   * its own 16-bit copy of the probabilities.
   */
  EAGER;

  /** Whether the scores are never stored (a FlashAttention-style kernel). */
  public boolean flash() {
    return this == FLASH;
  }
}
