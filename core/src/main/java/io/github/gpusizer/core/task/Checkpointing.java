package io.github.gpusizer.core.task;

/** Activation checkpointing (recomputation) trades arithmetic for activation memory. */
public enum Checkpointing {
  /** Keep every activation. */
  NONE,
  /**
   * Keep the outputs of the expensive operations and recompute the cheap ones. Without FlashAttention: recompute the
   * attention core, scores, softmax and dropout (Korthikanti et al. 2022, "selective recomputation", which keeps
   * {@code 34sbh} per layer). With FlashAttention, which stores no scores: op-level selective checkpointing as
   * PyTorch trainers apply it (torchtitan {@code selective_ac_option = "op"}): keep the layer input, the output of
   * every other matrix multiplication and the attention output, recompute the rest — about a third of the
   * activations of a Llama layer.
   */
  SELECTIVE,
  /** Keep only each layer's input and recompute the layer in the backward pass. */
  FULL
}
