package io.github.gpusizer.examples.cli;

import io.github.gpusizer.examples.support.Quantities;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters over {@link Quantities}, so a bad value is reported as "Invalid value for option ...". */
final class Converters {
  private Converters() {}

  /** A count with SI suffixes: {@code 7B}, {@code 50M}, {@code 2k}. */
  static final class Count implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      try {
        return Quantities.count("the value", value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** A positive whole number that fits an {@code int}, with SI suffixes. */
  static final class PositiveInt implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      try {
        return Quantities.integer("the value", value, 1);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** A non-negative number with SI suffixes: {@code 1.5T}, {@code 7e9}. */
  static final class Number implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      try {
        return Quantities.number("the value", value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** {@code 24h}, {@code 1d12h}, {@code PT36H}. */
  static final class Time implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return Quantities.duration("the value", value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** {@code CNY:USD=0.14}. */
  static final class Rate implements ITypeConverter<Quantities.Rate> {
    @Override
    public Quantities.Rate convert(String value) {
      try {
        return Quantities.rate("the value", value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
