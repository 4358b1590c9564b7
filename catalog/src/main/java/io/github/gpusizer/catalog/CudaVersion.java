package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CUDA toolkit version, {@code major.minor}; a GPU needs at least the version that first supports its
 * architecture (the RTX 4090 needs 11.8, the H100 12.0).
 *
 * <pre>{@code
 * boolean ok = CudaVersion.parse("12.1").isAtLeast(h100.minCuda().orElseThrow());
 * }</pre>
 */
public record CudaVersion(int major, int minor) implements Comparable<CudaVersion> {
  private static final Pattern FORM = Pattern.compile("(\\d{1,2})(?:\\.(\\d{1,2}))?(?:\\.\\d+)?");
  private static final Comparator<CudaVersion> ORDER =
      Comparator.comparingInt(CudaVersion::major).thenComparingInt(CudaVersion::minor);

  public CudaVersion {
    checkArgument(major >= 1 && major <= 99, "CUDA major version must be in 1..99, was %s", major);
    checkArgument(minor >= 0 && minor <= 99, "CUDA minor version must be in 0..99, was %s", minor);
  }

  /**
   * Parses {@code "12"}, {@code "11.8"} or {@code "12.4.1"} (the patch level is ignored).
   *
   * @throws IllegalArgumentException if the text is not a version number
   */
  public static CudaVersion parse(String text) {
    Matcher m = FORM.matcher(text.strip());
    checkArgument(m.matches(), "CUDA version must look like 11.8 or 12, was '%s'", text);
    return new CudaVersion(Integer.parseInt(m.group(1)), m.group(2) == null ? 0 : Integer.parseInt(m.group(2)));
  }

  public boolean isAtLeast(CudaVersion other) {
    return compareTo(other) >= 0;
  }

  @Override
  public int compareTo(CudaVersion other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
