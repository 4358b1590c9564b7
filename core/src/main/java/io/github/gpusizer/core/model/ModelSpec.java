package io.github.gpusizer.core.model;

/**
 * The architecture of a model, as much of it as sizing hardware needs: how many parameters, how much arithmetic per
 * sample or token, how many activations.
 *
 * <pre>{@code
 * ModelSpec llama = Presets.get("llama-2-7b");
 * long n = llama.parameters(); // 6,738,415,616
 * }</pre>
 */
public sealed interface ModelSpec permits Transformer, ConvNet, Recurrent, Generic {

  /** A short name for reports, e.g. {@code llama-2-7b}. */
  String name();

  /** All parameters, exactly where the architecture is known. */
  long parameters();

  /** Parameters one token (or sample) passes through; less than {@link #parameters()} for mixture-of-experts. */
  default long activeParameters() {
    return parameters();
  }
}
