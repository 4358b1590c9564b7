package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.DataSize;
import java.util.Optional;

/**
 * Whether a job fits in one GPU's memory, and by how much.
 *
 * <pre>{@code
 * MemoryEstimate m = estimator.memory(task, hw, layout);
 * if (!m.fits()) System.out.println("needs " + m.perGpu() + " per GPU, has " + m.capacity());
 * Interval<DataSize> peak = m.perGpuInterval();   // p10–p90 of the memory model's calibration errors
 * if (m.fit() == Fit.MAY_NOT_FIT) System.out.println("may need up to " + peak.high());
 * }</pre>
 *
 * @param breakdown memory by holder at the peak
 * @param capacity the GPU's memory
 * @param fits whether {@code breakdown.total()} is at most the capacity (the nominal verdict; {@link #fit()} allows
 *     for the model's error)
 * @param headroom capacity left at the peak; zero when it does not fit (see {@link #shortfall()})
 * @param errorBand the calibration error band of the job's workload class for memory ({@link ErrorBand#none()} for
 *     an estimate built by hand)
 * @param exact the part of the peak that configuration fixes to the byte, which the band does not widen: a serving
 *     engine's weights, KV cache and the share of the GPU it leaves free ({@code MemoryModel.configured}); zero
 *     under PyTorch's caching allocator, whose reserve grows with everything allocated, as the band was calibrated
 */
public record MemoryEstimate(MemoryBreakdown breakdown, DataSize capacity, boolean fits, DataSize headroom,
                             ErrorBand errorBand, DataSize exact) {

  public MemoryEstimate {
    checkNotNull(breakdown, "breakdown");
    checkNotNull(capacity, "capacity");
    checkNotNull(headroom, "headroom");
    checkArgument(fits == !breakdown.total().isLargerThan(capacity),
        "fits (%s) must say whether %s fits in %s", fits, breakdown.total(), capacity);
    checkNotNull(errorBand, "errorBand");
    checkNotNull(exact, "exact");
    checkArgument(!exact.isLargerThan(breakdown.total()), "exact part %s must be at most the peak %s", exact,
        breakdown.total());
  }

  /** The estimate with its band widening the whole peak (no exact part). */
  public MemoryEstimate(MemoryBreakdown breakdown, DataSize capacity, boolean fits, DataSize headroom,
                        ErrorBand errorBand) {
    this(breakdown, capacity, fits, headroom, errorBand, DataSize.ZERO);
  }

  /** The four components before error bands; no band ({@link ErrorBand#none()}). */
  public MemoryEstimate(MemoryBreakdown breakdown, DataSize capacity, boolean fits, DataSize headroom) {
    this(breakdown, capacity, fits, headroom, ErrorBand.none());
  }

  /** Builds the estimate for a breakdown and a capacity, without an error band ({@link ErrorBand#none()}). */
  public static MemoryEstimate of(MemoryBreakdown breakdown, DataSize capacity) {
    return of(breakdown, capacity, ErrorBand.none());
  }

  /** Builds the estimate for a breakdown, a capacity and the error band of the job's workload class. */
  public static MemoryEstimate of(MemoryBreakdown breakdown, DataSize capacity, ErrorBand errorBand) {
    return of(breakdown, capacity, errorBand, DataSize.ZERO);
  }

  /** {@link #of(MemoryBreakdown, DataSize, ErrorBand)} with {@code exact} of the peak fixed by configuration. */
  public static MemoryEstimate of(MemoryBreakdown breakdown, DataSize capacity, ErrorBand errorBand, DataSize exact) {
    long total = breakdown.total().bytes();
    boolean fits = total <= capacity.bytes();
    return new MemoryEstimate(breakdown, capacity, fits, DataSize.ofBytes(fits ? capacity.bytes() - total : 0),
        errorBand, exact);
  }

  /** Memory one GPU needs at its peak, as {@code nvidia-smi} would show it: {@code breakdown().total()}. */
  public DataSize perGpu() {
    return breakdown.total();
  }

  /** How much is missing when it does not fit; zero when it fits. */
  public DataSize shortfall() {
    return DataSize.ofBytes(Math.max(0, breakdown.total().bytes() - capacity.bytes()));
  }

  /**
   * The memory one GPU needs at its peak with the interval of {@link #errorBand()}: a measured peak lies in it about
   * 8 times in 10 ({@code core/CALIBRATION.md}, "Error bars"). The band widens all but the {@link #exact()} part:
   * a serving engine's 66 GiB of FP8 weights for a 70B model are 66 GiB whatever the calibration's spread.
   */
  public Interval<DataSize> perGpuInterval() {
    return errorBand.ofPredicted(perGpu(), exact);
  }

  /**
   * The verdict allowing for the error band: {@link Fit#FITS} when the interval's high end is within the capacity,
   * {@link Fit#DOES_NOT_FIT} when even its low end exceeds it, else {@link Fit#MAY_NOT_FIT}: the interval straddles
   * the capacity, whichever side the nominal peak lies on ({@link #fits()} says that).
   */
  public Fit fit() {
    Interval<DataSize> peak = perGpuInterval();
    if (peak.low().isLargerThan(capacity)) {
      return Fit.DOES_NOT_FIT;
    }
    return peak.high().isLargerThan(capacity) ? Fit.MAY_NOT_FIT : Fit.FITS;
  }

  /**
   * The warning for a peak that may not fit, in plain words with the interval and its basis; empty unless
   * {@link #fit()} is {@link Fit#MAY_NOT_FIT}.
   */
  public Optional<String> mayNotFitWarning() {
    if (fit() != Fit.MAY_NOT_FIT) {
      return Optional.empty();
    }
    Interval<DataSize> peak = perGpuInterval();
    return Optional.of("may not fit: needs " + Text.size(peak.nominal().bytes()) + " per GPU ("
        + Text.size(peak.low().bytes()) + " to " + Text.size(peak.high().bytes()) + ", " + errorBand.basis()
        + ") of " + Text.size(capacity.bytes()) + (fits ? "; leave more memory free or lower the micro-batch"
            : ", more than it has: it fits only if the estimate is high; lower the micro-batch or shard more"));
  }
}
