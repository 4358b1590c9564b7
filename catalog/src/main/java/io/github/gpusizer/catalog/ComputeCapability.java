package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An NVIDIA compute capability, {@code major.minor}: what the chip's instructions can do (FP16 tensor cores from
 * 7.0, BF16 and TF32 from 8.0, FP8 from 8.9).
 *
 * <pre>{@code
 * ComputeCapability a100 = ComputeCapability.parse("8.0");
 * boolean bf16 = a100.isAtLeast(ComputeCapability.parse("8.0")); // true
 * }</pre>
 */
public record ComputeCapability(int major, int minor) implements Comparable<ComputeCapability> {
  private static final Pattern FORM = Pattern.compile("(\\d{1,2})\\.(\\d{1,2})");
  private static final Comparator<ComputeCapability> ORDER =
      Comparator.comparingInt(ComputeCapability::major).thenComparingInt(ComputeCapability::minor);

  public ComputeCapability {
    checkArgument(major >= 1 && major <= 99, "compute capability major must be in 1..99, was %s", major);
    checkArgument(minor >= 0 && minor <= 99, "compute capability minor must be in 0..99, was %s", minor);
  }

  /**
   * Parses {@code "8.0"} or {@code "8.9"}.
   *
   * @throws IllegalArgumentException if the text is not two numbers joined by a dot
   */
  public static ComputeCapability parse(String text) {
    Matcher m = FORM.matcher(text.strip());
    checkArgument(m.matches(), "compute capability must look like 8.0, was '%s'", text);
    return new ComputeCapability(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
  }

  public boolean isAtLeast(ComputeCapability other) {
    return compareTo(other) >= 0;
  }

  @Override
  public int compareTo(ComputeCapability other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
