package io.github.gpusizer.core.task;

/** Which projections of each transformer layer get LoRA adapters. */
public enum LoraTarget {
  Q,
  K,
  V,
  O,
  /** All MLP matrices (gate, up, down). */
  MLP
}
