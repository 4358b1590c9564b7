package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.DataSize;

/**
 * Whether a job fits in one GPU's memory, and by how much.
 *
 * <pre>{@code
 * MemoryEstimate m = estimator.memory(task, hw, layout);
 * if (!m.fits()) System.out.println("needs " + m.perGpu() + " per GPU, has " + m.capacity());
 * }</pre>
 *
 * @param breakdown memory by holder at the peak
 * @param capacity the GPU's memory
 * @param fits whether {@code breakdown.total()} is at most the capacity
 * @param headroom capacity left at the peak; zero when it does not fit (see {@link #shortfall()})
 */
public record MemoryEstimate(MemoryBreakdown breakdown, DataSize capacity, boolean fits, DataSize headroom) {

  public MemoryEstimate {
    checkNotNull(breakdown, "breakdown");
    checkNotNull(capacity, "capacity");
    checkNotNull(headroom, "headroom");
    checkArgument(fits == !breakdown.total().isLargerThan(capacity),
        "fits (%s) must say whether %s fits in %s", fits, breakdown.total(), capacity);
  }

  /** Builds the estimate for a breakdown and a capacity. */
  public static MemoryEstimate of(MemoryBreakdown breakdown, DataSize capacity) {
    long total = breakdown.total().bytes();
    boolean fits = total <= capacity.bytes();
    return new MemoryEstimate(breakdown, capacity, fits, DataSize.ofBytes(fits ? capacity.bytes() - total : 0));
  }

  /** Memory one GPU needs at its peak, as {@code nvidia-smi} would show it: {@code breakdown().total()}. */
  public DataSize perGpu() {
    return breakdown.total();
  }

  /** How much is missing when it does not fit; zero when it fits. */
  public DataSize shortfall() {
    return DataSize.ofBytes(Math.max(0, breakdown.total().bytes() - capacity.bytes()));
  }
}
