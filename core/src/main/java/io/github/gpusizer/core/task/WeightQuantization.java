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
  NF4
}
