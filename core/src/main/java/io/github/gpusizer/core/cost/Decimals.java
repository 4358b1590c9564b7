package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;

/** Exact conversions between {@link Duration} and decimal hours, and the one rounding rule of the package. */
final class Decimals {

  /**
   * Every division in this package rounds once, to 34 significant digits, half-even (IEEE 754 decimal128). Amounts
   * are never rounded to the currency's minor unit here; {@link io.github.gpusizer.catalog.Money#rounded()} does
   * that for display.
   */
  static final MathContext MATH = MathContext.DECIMAL128;

  static final BigDecimal SECONDS_PER_HOUR = BigDecimal.valueOf(3600);

  private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);

  private Decimals() {}

  /** The exact number of seconds in {@code d}, nanoseconds included. */
  static BigDecimal seconds(Duration d) {
    return BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9));
  }

  /** {@code d} in hours, rounded once with {@link #MATH}. */
  static BigDecimal hours(Duration d) {
    return seconds(d).divide(SECONDS_PER_HOUR, MATH);
  }

  /** A duration of {@code hours} hours, rounded half-up to the nanosecond. */
  static Duration ofHours(BigDecimal hours) {
    return ofSeconds(hours.multiply(SECONDS_PER_HOUR));
  }

  /** A duration of {@code seconds} seconds, rounded half-up to the nanosecond. */
  static Duration ofSeconds(BigDecimal seconds) {
    checkArgument(seconds.signum() >= 0, "duration must be >= 0 s, was %s s", seconds);
    BigDecimal nanos = seconds.setScale(9, RoundingMode.HALF_UP);
    BigDecimal whole = nanos.setScale(0, RoundingMode.DOWN);
    return Duration.ofSeconds(whole.longValueExact(), nanos.subtract(whole).multiply(NANOS_PER_SECOND).longValueExact());
  }

  /** A positive, finite ratio as a decimal: {@link BigDecimal#valueOf(double)}, i.e. its shortest decimal form. */
  static BigDecimal positiveRatio(double value, String name) {
    checkArgument(Double.isFinite(value) && value > 0, "%s must be a finite number > 0, was %s", name, value);
    return BigDecimal.valueOf(value);
  }
}
