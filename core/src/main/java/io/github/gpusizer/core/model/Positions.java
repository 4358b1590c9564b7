package io.github.gpusizer.core.model;

/** How a transformer encodes positions; only learned absolute embeddings add parameters per position. */
public enum Positions {
  LEARNED,
  ROTARY,
  ALIBI,
  RELATIVE_BIAS
}
