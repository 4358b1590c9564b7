package io.github.gpusizer.core.model;

/**
 * The normalisation layer a transformer uses; decides its parameter count: LayerNorm has a scale and a bias per
 * channel, RMSNorm and bias-free LayerNorm only a scale.
 */
public enum Norm {
  /** LayerNorm with scale and bias (GPT-2, BERT, GPT-J, ViT): 2 parameters per channel. */
  LAYER_NORM(2),
  /** RMSNorm (Llama, Mistral, Qwen2, T5's {@code T5LayerNorm}): 1 parameter per channel. */
  RMS_NORM(1),
  /** LayerNorm without its bias (MPT with {@code no_bias: true}): 1 parameter per channel. */
  LAYER_NORM_NO_BIAS(1);

  private final int parametersPerChannel;

  Norm(int parametersPerChannel) {
    this.parametersPerChannel = parametersPerChannel;
  }

  /** Learned parameters of one norm layer over {@code width} channels. */
  public long parameters(long width) {
    return parametersPerChannel * width;
  }
}
