package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.DataSize;

/**
 * How much KV cache one GPU of a serving replica can hold, and what holds the rest of its memory.
 *
 * <pre>{@code
 * KvCacheBudget kv = Estimator.defaults().kvCacheBudget(task, Hardware.of(h100, 8, 1), layout, 1);
 * long tokens = kv.tokens();   // tokens of context over all sequences of the replica
 * }</pre>
 *
 * @param memory the GPU's memory without any KV cache: weights (its shard), one forward pass of the largest
 *     prefill, temporary buffers and the overheads (CUDA context, the engine's unused share or the allocator cache)
 * @param capacity room left for the KV cache (never negative)
 * @param bytesPerToken KV-cache bytes one token of one sequence takes on this GPU (0: the model keeps none)
 */
public record KvCacheBudget(MemoryBreakdown memory, DataSize capacity, double bytesPerToken) {

  public KvCacheBudget {
    checkNotNull(memory, "memory");
    checkNotNull(capacity, "capacity");
    checkArgument(bytesPerToken >= 0 && Double.isFinite(bytesPerToken), "KV bytes per token must be >= 0, was %s",
        bytesPerToken);
  }

  /** Tokens of context the cache holds over all sequences; {@link Long#MAX_VALUE} for a model without KV cache. */
  public long tokens() {
    return bytesPerToken == 0 ? Long.MAX_VALUE : (long) Math.floor(capacity.bytes() / bytesPerToken);
  }
}
