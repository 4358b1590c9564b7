package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.function.Function;

/**
 * A figure with the interval its calibration error allows: the nominal prediction and the low and high ends of the
 * band around it (the p10–p90 band of its workload class's calibration errors; see {@link ErrorBand}).
 *
 * <pre>{@code
 * Interval<Duration> t = estimate.performance().totalTimeInterval().orElseThrow();
 * System.out.println(t.nominal() + " (" + t.low() + " to " + t.high() + ")");
 * boolean covered = t.contains(measured);
 * }</pre>
 *
 * @param low the low end, at most the nominal value
 * @param nominal the prediction itself
 * @param high the high end, at least the nominal value
 * @param <T> the quantity: {@link java.time.Duration}, {@link io.github.gpusizer.catalog.DataSize} or a rate as
 *     {@link Double}
 */
public record Interval<T extends Comparable<? super T>>(T low, T nominal, T high) {

  public Interval {
    checkNotNull(low, "low");
    checkNotNull(nominal, "nominal");
    checkNotNull(high, "high");
    checkArgument(low.compareTo(nominal) <= 0 && nominal.compareTo(high) <= 0,
        "an interval must have low <= nominal <= high, was %s, %s, %s", low, nominal, high);
  }

  /** The interval of a figure known exactly: low, nominal and high all {@code value}. */
  public static <T extends Comparable<? super T>> Interval<T> point(T value) {
    return new Interval<>(value, value, value);
  }

  /** Whether {@code value} lies within {@code [low, high]}, ends included. */
  public boolean contains(T value) {
    checkNotNull(value, "value");
    return low.compareTo(value) <= 0 && value.compareTo(high) <= 0;
  }

  /**
   * The interval of a quantity that grows with this one ({@code f} must be non-decreasing: a cost from a time, GiB
   * from bytes).
   *
   * @throws IllegalArgumentException if {@code f} turns out decreasing on these three values
   */
  public <R extends Comparable<? super R>> Interval<R> map(Function<? super T, ? extends R> f) {
    checkNotNull(f, "f");
    return new Interval<>(f.apply(low), f.apply(nominal), f.apply(high));
  }
}
