package io.github.gpusizer.core.task;

/** What is done with the model. */
public enum TaskKind {
  /** Training from scratch. */
  PRETRAINING,
  /** Training all weights of a pre-trained model. */
  FULL_FINE_TUNING,
  /** Low-rank adapters on frozen 16-bit base weights. */
  LORA,
  /** Low-rank adapters on frozen 4-bit (NF4) base weights. */
  QLORA,
  /** Serving: forward passes only, with a KV cache for generation. */
  INFERENCE;

  public boolean isTraining() {
    return this != INFERENCE;
  }

  public boolean isAdapter() {
    return this == LORA || this == QLORA;
  }
}
