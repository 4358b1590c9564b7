package io.github.gpusizer.core.task;

/** Activation checkpointing (recomputation) trades arithmetic for activation memory. */
public enum Checkpointing {
  /** Keep every activation. */
  NONE,
  /** Recompute only the attention core (Korthikanti et al. 2022, "selective recomputation"). */
  SELECTIVE,
  /** Keep only each layer's input and recompute the layer in the backward pass. */
  FULL
}
