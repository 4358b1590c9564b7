package io.github.gpusizer.core.model;

/**
 * Linear layers of a transformer that may carry a bias vector. {@link Transformer#bias()} switches on the first
 * three at once (GPT-2, BERT); models with biases in some places only list them in
 * {@link Transformer#extraBiases()}: Qwen2 has {@link #QKV} only, GPT-J {@link #MLP} and {@link #LM_HEAD}.
 */
public enum BiasSite {
  /** Query, key and value projections. */
  QKV,
  /**
   * Query and value projections but not the key ({@code q + kv} biases): Whisper's attention has
   * {@code k_proj = nn.Linear(..., bias=False)} (Hugging Face {@code modeling_whisper.py}; a key bias would cancel
   * in the softmax). Ignored where {@link #QKV} applies.
   */
  QUERY_VALUE,
  /** The attention output projection. */
  ATTENTION_OUT,
  /** All MLP matrices except the last carry {@code ffn} biases, the last {@code hidden}. */
  MLP,
  /** The output (language-model head) projection: {@code vocab} biases. Never implied by {@code bias}. */
  LM_HEAD
}
