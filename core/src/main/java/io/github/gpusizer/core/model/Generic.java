package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * Any other model, given by raw numbers.
 *
 * <pre>{@code
 * ModelSpec m = new Generic("my-net", 50_000_000, 4e9, 120_000_000L);
 * }</pre>
 *
 * @param name short name
 * @param parameters all parameters
 * @param forwardFlopsPerSample FLOPs of one forward pass of one sample
 * @param activationBytesPerSample bytes of activations one sample keeps for the backward pass, in 16-bit
 */
public record Generic(String name, long parameters, double forwardFlopsPerSample, long activationBytesPerSample)
    implements ModelSpec {

  public Generic {
    checkArgument(!checkNotNull(name, "name").isBlank(), "model needs a name");
    checkArgument(parameters > 0, "%s: parameters must be > 0, was %s", name, parameters);
    checkArgument(forwardFlopsPerSample >= 0 && Double.isFinite(forwardFlopsPerSample),
        "%s: forward FLOPs per sample must be >= 0, was %s", name, forwardFlopsPerSample);
    checkArgument(activationBytesPerSample >= 0,
        "%s: activation bytes per sample must be >= 0, was %s", name, activationBytesPerSample);
  }

  /** A model known only by its parameter count: forward FLOPs ≈ 2 per parameter per sample. */
  public static Generic ofParameters(long parameters) {
    return new Generic("model-" + parameters, parameters, 2.0 * parameters, 0);
  }
}
