package io.github.gpusizer.core.model;

/**
 * How a transformer's MLP activation is implemented, which sets what autograd keeps of it for the backward pass.
 *
 * <pre>{@code
 * Transformer gpt2 = Transformer.builder("gpt2").layers(12).hidden(768).heads(12).vocab(50257)
 *     .activation(Activation.COMPOSED_TANH_GELU).build(); // Hugging Face's "gelu_new"
 * }</pre>
 */
public enum Activation {
  /** One fused kernel that saves its input ({@code F.gelu}, {@code F.silu}, ReLU): the default. */
  FUSED,
  /**
   * The tanh approximation of GELU written as element-wise operations, {@code 0.5·x·(1 + tanh(√(2/π)·(x +
   * 0.044715·x³)))}: Hugging Face's {@code NewGELUActivation} ({@code hidden_act: "gelu_new"}, GPT-2's default) and
   * Google's TensorFlow BERT and GPT-2 code. Autograd keeps, besides the input, the tanh output (for its gradient),
   * {@code 0.5·x} and {@code 1 + tanh} (the two operands of the final product): three more FFN-wide tensors.
   */
  COMPOSED_TANH_GELU;

  /** FFN-wide tensors kept besides the activation's input. */
  public int extraSavedTensors() {
    return this == COMPOSED_TANH_GELU ? 3 : 0;
  }
}
