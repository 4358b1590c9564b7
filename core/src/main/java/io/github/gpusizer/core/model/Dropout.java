package io.github.gpusizer.core.model;

/**
 * How a transformer's dropout is implemented, which sets what it keeps for the backward pass at every dropout site
 * (the attention probabilities, and the outputs of the attention and MLP blocks).
 *
 * <pre>{@code
 * Transformer bertTf1 = Transformer.builder("bert-large-tf1").stack(Stack.ENCODER).layers(24).hidden(1024)
 *     .heads(16).vocab(30522).maxPositions(512).typeVocab(2).tiedEmbeddings(true)
 *     .activation(Activation.COMPOSED_TANH_GELU).dropout(Dropout.SCALED_FLOAT_MASK).build(); // Google's modeling.py
 * }</pre>
 *
 * <p>Whether a model uses dropout at all is a property of its generation (learned positions: BERT, GPT-2, ViT,
 * Whisper); this says what each dropout keeps when it does.
 */
public enum Dropout {
  /**
   * One fused kernel that keeps a one-byte mask per element (PyTorch's {@code native_dropout} returns a {@code bool}
   * mask, which its backward multiplies in): the default.
   */
  FUSED_MASK,
  /**
   * TensorFlow's {@code tf.nn.dropout} as element-wise operations, {@code x * scale * cast(keep_mask, x.dtype)}
   * (TensorFlow 1.13+, {@code nn_ops.dropout_v2}; {@code div(x, keep_prob) * floor(keep_prob + uniform)} before): a
   * mask in the activations' number format, kept for the gradient of the final multiplication. That gradient
   * ({@code _MulGrad}) forms both products, {@code grad * mask} for the scaled input and {@code grad * (x * scale)}
   * for the mask, but the second has no consumer ({@code _CastGrad} returns nothing for a {@code bool} source) and
   * {@code Session.run} executes only the ops its fetches depend on, so the scaled input is freed in the forward
   * pass. Google's TensorFlow BERT ({@code modeling.py}, {@code dropout}) and NVIDIA's TensorFlow 1 BERT use it.
   */
  SCALED_FLOAT_MASK;

  /** Bytes kept per element at a dropout site, for activations of {@code elementBytes} bytes. */
  public double savedBytesPerElement(double elementBytes) {
    return this == SCALED_FLOAT_MASK ? elementBytes : 1;
  }
}
