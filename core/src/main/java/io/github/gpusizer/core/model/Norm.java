package io.github.gpusizer.core.model;

/**
 * The normalisation layer a transformer uses; decides its parameter count (LayerNorm has a scale and a bias per
 * channel, RMSNorm and bias-free LayerNorm only a scale) and, for a LayerNorm written as element-wise operations, what
 * it keeps besides its input for the backward pass.
 */
public enum Norm {
  /** LayerNorm with scale and bias (GPT-2, BERT, GPT-J, ViT): 2 parameters per channel. */
  LAYER_NORM(2),
  /** RMSNorm (Llama, Mistral, Qwen2, T5's {@code T5LayerNorm}): 1 parameter per channel. */
  RMS_NORM(1),
  /** LayerNorm without its bias (MPT with {@code no_bias: true}): 1 parameter per channel. */
  LAYER_NORM_NO_BIAS(1),
  /**
   * LayerNorm with scale and bias written as TensorFlow operations: {@code tf.contrib.layers.layer_norm} (Google's
   * and NVIDIA's TensorFlow 1 BERT, {@code modeling.py}, {@code layer_norm}) computes {@code nn.moments} and then
   * {@code nn.batch_normalization}, whose {@code inv = rsqrt(variance + epsilon); inv *= scale} broadcasts the
   * per-token statistic against the per-channel scale into a full-width tensor, and {@code x * inv} keeps it for its
   * gradient (TensorFlow {@code nn_impl.batch_normalization}): one more hidden-wide tensor per norm.
   */
  COMPOSED_LAYER_NORM(2);

  private final int parametersPerChannel;

  Norm(int parametersPerChannel) {
    this.parametersPerChannel = parametersPerChannel;
  }

  /** Tensors as wide as the norm's input that it keeps for the backward pass besides that input. */
  public int extraSavedTensors() {
    return this == COMPOSED_LAYER_NORM ? 1 : 0;
  }

  /** Learned parameters of one norm layer over {@code width} channels. */
  public long parameters(long width) {
    return parametersPerChannel * width;
  }
}
