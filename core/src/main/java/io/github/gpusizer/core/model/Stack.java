package io.github.gpusizer.core.model;

/** Which transformer stacks a model has. */
public enum Stack {
  /** GPT, Llama: causal decoder only. */
  DECODER,
  /** BERT, ViT: bidirectional encoder only. */
  ENCODER,
  /** T5, Whisper: an encoder and a decoder with cross-attention. */
  ENCODER_DECODER
}
