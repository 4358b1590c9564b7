package io.github.gpusizer.core.task;

import io.github.gpusizer.catalog.Precision;

/**
 * The numeric recipe of a job: which format the matrix multiplications run in and how many bytes weights,
 * gradients and master copies take.
 */
public enum PrecisionMode {
  /** Everything in FP32 on CUDA cores (PyTorch's default: TF32 is off for matmuls). */
  FP32(Precision.FP32, 4, 4, false),
  /** FP32 storage, matmuls in TF32 on tensor cores ({@code torch.backends.cuda.matmul.allow_tf32 = True}). */
  TF32(Precision.TF32, 4, 4, false),
  /** Automatic mixed precision with FP16: FP32 weights and gradients, FP16 compute, loss scaling. */
  FP16_MIXED(Precision.FP16, 4, 4, false),
  /** Automatic mixed precision with BF16: FP32 weights and gradients, BF16 compute. */
  BF16_MIXED(Precision.BF16, 4, 4, false),
  /** Pure BF16: weights, gradients and optimizer state all in BF16 (LitGPT's {@code bf16-true}). */
  BF16_PURE(Precision.BF16, 2, 2, true),
  /** FP8 matmuls (Transformer Engine) with BF16/FP32 master state as in mixed precision. */
  FP8_MIXED(Precision.FP8, 4, 4, false);

  private final Precision compute;
  private final int weightBytes;
  private final int gradientBytes;
  private final boolean pureHalf;

  PrecisionMode(Precision compute, int weightBytes, int gradientBytes, boolean pureHalf) {
    this.compute = compute;
    this.weightBytes = weightBytes;
    this.gradientBytes = gradientBytes;
    this.pureHalf = pureHalf;
  }

  /** The format matrix multiplications run in; its dense peak bounds the speed. */
  public Precision compute() {
    return compute;
  }

  /** Bytes per stored trainable weight (PyTorch autocast keeps FP32 weights). */
  public int weightBytes() {
    return weightBytes;
  }

  /** Bytes per gradient element (autocast gradients are FP32, like the weights they belong to). */
  public int gradientBytes() {
    return gradientBytes;
  }

  /** Whether optimizer state is kept in 16-bit too. */
  public boolean pureHalf() {
    return pureHalf;
  }

  /** Bytes per activation element: 4 for FP32/TF32, 2 otherwise. */
  public int activationBytes() {
    return this == FP32 || this == TF32 ? 4 : 2;
  }
}
