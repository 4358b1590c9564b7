package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Locale;

/**
 * An amount of memory or storage in bytes, spelling out binary (GiB) and decimal (GB) units.
 *
 * <pre>{@code
 * DataSize a100 = DataSize.ofGiB(80);
 * DataSize disk = DataSize.ofGB(500);
 * double gib = a100.toGiB(); // 80.0
 * }</pre>
 *
 * @param bytes the size in bytes, never negative
 */
public record DataSize(long bytes) implements Comparable<DataSize> {
  private static final long KIB = 1024L;
  private static final long MIB = KIB * 1024;
  private static final long GIB = MIB * 1024;
  private static final long TIB = GIB * 1024;

  public static final DataSize ZERO = new DataSize(0);

  public DataSize {
    checkArgument(bytes >= 0, "size must be >= 0 bytes, was %s", bytes);
  }

  public static DataSize ofBytes(long bytes) {
    return new DataSize(bytes);
  }

  /** Rounds a fractional byte count to the nearest byte; fails on NaN, infinity or a value beyond {@code long}. */
  public static DataSize ofBytes(double bytes) {
    checkArgument(Double.isFinite(bytes) && bytes >= 0 && bytes < 0x1p63,
        "size must be a finite number of bytes in [0, 2^63), was %s", bytes);
    return new DataSize(Math.round(bytes));
  }

  public static DataSize ofMiB(double mib) {
    return ofBytes(mib * MIB);
  }

  public static DataSize ofGiB(double gib) {
    return ofBytes(gib * GIB);
  }

  public static DataSize ofTiB(double tib) {
    return ofBytes(tib * TIB);
  }

  /** Decimal megabytes, 10^6 bytes. */
  public static DataSize ofMB(double mb) {
    return ofBytes(mb * 1e6);
  }

  /** Decimal gigabytes, 10^9 bytes. */
  public static DataSize ofGB(double gb) {
    return ofBytes(gb * 1e9);
  }

  /** Decimal terabytes, 10^12 bytes. */
  public static DataSize ofTB(double tb) {
    return ofBytes(tb * 1e12);
  }

  public double toMiB() {
    return (double) bytes / MIB;
  }

  public double toGiB() {
    return (double) bytes / GIB;
  }

  public double toGB() {
    return bytes / 1e9;
  }

  /**
   * The sum.
   *
   * @throws IllegalArgumentException if it is 2^63 bytes or more
   */
  public DataSize plus(DataSize other) {
    checkArgument(bytes <= Long.MAX_VALUE - other.bytes,
        "sum of sizes must be < 2^63 bytes, was %s + %s bytes", bytes, other.bytes);
    return new DataSize(bytes + other.bytes);
  }

  /**
   * The difference.
   *
   * @throws IllegalArgumentException if {@code other} is larger than this size
   */
  public DataSize minus(DataSize other) {
    checkArgument(other.bytes <= bytes, "cannot subtract %s bytes from %s bytes: size must be >= 0", other.bytes,
        bytes);
    return new DataSize(bytes - other.bytes);
  }

  public DataSize times(double factor) {
    return ofBytes(bytes * factor);
  }

  public boolean isLargerThan(DataSize other) {
    return bytes > other.bytes;
  }

  @Override
  public int compareTo(DataSize other) {
    return Long.compare(bytes, other.bytes);
  }

  /** Binary units, one decimal: {@code "38.2 GiB"}. */
  @Override
  public String toString() {
    if (bytes >= TIB) {
      return String.format(Locale.ROOT, "%.1f TiB", (double) bytes / TIB);
    }
    if (bytes >= GIB) {
      return String.format(Locale.ROOT, "%.1f GiB", (double) bytes / GIB);
    }
    if (bytes >= MIB) {
      return String.format(Locale.ROOT, "%.1f MiB", (double) bytes / MIB);
    }
    if (bytes >= KIB) {
      return String.format(Locale.ROOT, "%.1f KiB", (double) bytes / KIB);
    }
    return bytes + " B";
  }
}
