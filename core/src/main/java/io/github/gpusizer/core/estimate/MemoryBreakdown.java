package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.DataSize;

/**
 * Memory of one GPU at the moment of its peak, by what holds it.
 *
 * <pre>{@code
 * MemoryBreakdown b = estimator.memory(task, hw, layout).breakdown();
 * DataSize torch = b.allocated();   // compare with torch.cuda.max_memory_allocated()
 * DataSize smi = b.total();         // compare with nvidia-smi
 * }</pre>
 *
 * @param weights model weights held by this GPU (its shard; quantised weights with their constants)
 * @param gradients gradients of the trainable weights held at the peak
 * @param optimizer optimizer state (moments, master weights where separate)
 * @param activations tensors the forward pass keeps for the backward pass, the loss buffer included
 * @param kvCache key/value cache (inference)
 * @param temporary short-lived buffers at the peak: half-precision weight copies, gathered ZeRO-3 layers,
 *     communication buckets, dequantised weights, the backward working set or the optimizer's scratch tensors
 * @param overhead memory the framework never hands to tensors: the CUDA context with its kernels and library
 *     workspaces, and the caching allocator's reserved-but-unused blocks
 */
public record MemoryBreakdown(DataSize weights, DataSize gradients, DataSize optimizer, DataSize activations,
                              DataSize kvCache, DataSize temporary, DataSize overhead) {

  public MemoryBreakdown {
    checkNotNull(weights, "weights");
    checkNotNull(gradients, "gradients");
    checkNotNull(optimizer, "optimizer");
    checkNotNull(activations, "activations");
    checkNotNull(kvCache, "kvCache");
    checkNotNull(temporary, "temporary");
    checkNotNull(overhead, "overhead");
  }

  /** What {@code torch.cuda.max_memory_allocated()} reports: everything but the overhead. */
  public DataSize allocated() {
    return DataSize.ofBytes(weights.bytes() + gradients.bytes() + optimizer.bytes() + activations.bytes()
        + kvCache.bytes() + temporary.bytes());
  }

  /** What {@code nvidia-smi} shows for the process: allocated plus overhead. */
  public DataSize total() {
    return DataSize.ofBytes(allocated().bytes() + overhead.bytes());
  }
}
