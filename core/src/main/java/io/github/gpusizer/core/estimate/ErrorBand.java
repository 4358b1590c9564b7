package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.DataSize;
import java.time.Duration;

/**
 * How far the estimators' predictions of one workload class land from measurements: the 10th and 90th percentiles of
 * predicted / measured over that class's calibration cases ({@code core/CALIBRATION.md}, "Error bars"). A measured
 * rate or size then lies between {@code predicted / highRatio} and {@code predicted / lowRatio} in about 8 cases of
 * 10, and a measured time between {@code predicted × lowRatio} and {@code predicted × highRatio}.
 *
 * <pre>{@code
 * ErrorBand band = estimate.performance().errorBand();
 * Interval<Double> tokens = band.ofPredicted(estimate.performance().tokensPerSecond());
 * System.out.println(band.basis());  // p10–p90 of predicted/measured over 11 calibration cases: ...
 * }</pre>
 *
 * <p>An interval always contains its nominal value: where every case of a class erred the same way (all
 * predictions too high, say), the band's near end is the prediction itself.
 *
 * @param lowRatio the 10th percentile of predicted / measured, {@code > 0}
 * @param highRatio the 90th percentile of predicted / measured, at least {@code lowRatio}
 * @param basis what the band was derived from, in words (class, cases, pooling)
 */
public record ErrorBand(double lowRatio, double highRatio, String basis) {
  private static final ErrorBand NONE = new ErrorBand(1, 1, "none: a point estimate without a calibration band");

  public ErrorBand {
    checkNotNull(basis, "basis");
    checkArgument(lowRatio > 0 && Double.isFinite(lowRatio), "low ratio must be finite and > 0, was %s", lowRatio);
    checkArgument(highRatio >= lowRatio && Double.isFinite(highRatio),
        "high ratio must be finite and >= the low ratio %s, was %s", lowRatio, highRatio);
    checkArgument(!basis.isBlank(), "basis must say what the band comes from, was blank");
  }

  /** No band at all: every interval is its nominal value (for estimates built outside the {@link Estimator}). */
  public static ErrorBand none() {
    return NONE;
  }

  /**
   * The interval of a measured rate (samples/s, tokens/s, FLOP/s) or size around its prediction:
   * {@code [predicted / highRatio, predicted / lowRatio]}, widened to contain the prediction.
   *
   * @throws IllegalArgumentException if {@code predicted} is negative or not finite
   */
  public Interval<Double> ofPredicted(double predicted) {
    checkArgument(predicted >= 0 && Double.isFinite(predicted), "prediction must be finite and >= 0, was %s",
        predicted);
    return new Interval<>(Math.min(predicted, predicted / highRatio), predicted,
        Math.max(predicted, predicted / lowRatio));
  }

  /** The interval of a measured size around its prediction, as {@link #ofPredicted(double)}, to the byte. */
  public Interval<DataSize> ofPredicted(DataSize predicted) {
    checkNotNull(predicted, "predicted");
    Interval<Double> bytes = ofPredicted((double) predicted.bytes());
    return new Interval<>(DataSize.ofBytes(Math.min(predicted.bytes(), Math.round(bytes.low()))), predicted,
        DataSize.ofBytes(Math.max(predicted.bytes(), Math.round(bytes.high()))));
  }

  /**
   * The interval of a measured size around its prediction when {@code exact} of it is fixed by configuration (a
   * serving engine's weights, KV cache and reserved share, {@link MemoryEstimate#exact()}): {@code exact} plus the
   * band's interval of the rest, {@link #ofPredicted(DataSize)}.
   *
   * @throws IllegalArgumentException if {@code exact} is more than {@code predicted}
   */
  public Interval<DataSize> ofPredicted(DataSize predicted, DataSize exact) {
    checkNotNull(predicted, "predicted");
    checkNotNull(exact, "exact");
    Interval<DataSize> rest = ofPredicted(predicted.minus(exact));
    return new Interval<>(exact.plus(rest.low()), predicted, exact.plus(rest.high()));
  }

  /**
   * The interval of a measured time around its prediction: time goes as 1 / speed, so
   * {@code [predicted × lowRatio, predicted × highRatio]}, widened to contain the prediction.
   */
  public Interval<Duration> ofPredictedTime(Duration predicted) {
    checkNotNull(predicted, "predicted");
    checkArgument(!predicted.isNegative(), "predicted time must be >= 0, was %s", predicted);
    Duration low = scaled(predicted, lowRatio);
    Duration high = scaled(predicted, highRatio);
    return new Interval<>(low.compareTo(predicted) < 0 ? low : predicted, predicted,
        high.compareTo(predicted) > 0 ? high : predicted);
  }

  /** {@code d × factor} to the nanosecond, at most {@code Long.MAX_VALUE} nanoseconds. */
  private static Duration scaled(Duration d, double factor) {
    double nanos = (d.getSeconds() * 1e9 + d.getNano()) * factor;
    return Duration.ofNanos((long) Math.min(nanos, (double) Long.MAX_VALUE));
  }
}
