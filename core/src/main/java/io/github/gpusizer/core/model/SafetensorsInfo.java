package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableMap;

/**
 * What the header of a {@code .safetensors} file (or of all shards of a sharded checkpoint) says about the weights
 * it stores.
 *
 * <pre>{@code
 * SafetensorsInfo info = Safetensors.read(Path.of("model.safetensors"));
 * info.parameters();     // elements of all stored tensors
 * info.dominantDtype();  // "BF16"
 * }</pre>
 *
 * @param parameters elements of all stored tensors (a tied matrix is stored, and counted, once)
 * @param parametersByDtype elements per safetensors dtype name ({@code "BF16"}, {@code "F32"}, {@code "I8"}, …)
 * @param dominantDtype the dtype holding the most elements (ties: alphabetically first)
 * @param headerBytes bytes of the JSON header(s)
 */
public record SafetensorsInfo(
    long parameters, ImmutableMap<String, Long> parametersByDtype, String dominantDtype, long headerBytes) {

  public SafetensorsInfo {
    checkArgument(parameters >= 0, "parameters must be >= 0, was %s", parameters);
    parametersByDtype = ImmutableMap.copyOf(checkNotNull(parametersByDtype, "parametersByDtype"));
    long sum = 0;
    for (var e : parametersByDtype.entrySet()) {
      checkArgument(e.getValue() >= 0, "elements of dtype %s must be >= 0, was %s", e.getKey(), e.getValue());
      sum = Math.addExact(sum, e.getValue());
    }
    checkArgument(sum == parameters, "elements per dtype add up to %s, not to the %s parameters", sum, parameters);
    checkNotNull(dominantDtype, "dominantDtype");
    checkArgument(parametersByDtype.containsKey(dominantDtype), "dominant dtype %s is not among %s",
        dominantDtype, parametersByDtype.keySet());
    checkArgument(headerBytes > 0, "header bytes must be > 0, was %s", headerBytes);
  }
}
