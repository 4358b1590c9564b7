package io.github.gpusizer.core.task;

/** How frozen or served weights are stored. */
public enum WeightQuantization {
  /** At the compute precision (2 bytes for BF16/FP16). */
  NONE,
  /** 8-bit integers (LLM.int8(), weight-only INT8). */
  INT8,
  /** 4-bit integers with per-group scales (GPTQ, AWQ). */
  INT4,
  /** 4-bit NormalFloat with block-wise constants (QLoRA). */
  NF4,
  /**
   * 8-bit floating point (E4M3) with a per-tensor scale, as vLLM's {@code --quantization fp8} stores weights. Where
   * the GPU has FP8 tensor cores (compute capability 8.9 and up) a serving engine also multiplies in FP8 (W8A8, the
   * task's {@link PrecisionMode#FP8_MIXED}); elsewhere the weights are widened to 16-bit in the kernel (weight-only,
   * vLLM's FP8 Marlin kernels on Ampere).
   */
  FP8
}
