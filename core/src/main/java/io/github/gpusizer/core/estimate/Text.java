package io.github.gpusizer.core.estimate;

/** Number formatting for messages without {@code String.format} (the estimators run in tight search loops). */
final class Text {
  private Text() {}

  /** {@code value} rounded to {@code decimals} (0–3) places, e.g. {@code fixed(12.345, 1)} is {@code "12.3"}. */
  static String fixed(double value, int decimals) {
    if (!Double.isFinite(value)) {
      return Double.toString(value);
    }
    long scale = decimals == 0 ? 1 : decimals == 1 ? 10 : decimals == 2 ? 100 : 1000;
    long scaled = Math.round(Math.abs(value) * scale);
    StringBuilder s = new StringBuilder(16);
    if (value < 0 && scaled != 0) {
      s.append('-');
    }
    s.append(scaled / scale);
    if (decimals > 0) {
      String fraction = Long.toString(scaled % scale);
      s.append('.');
      for (int i = fraction.length(); i < decimals; i++) {
        s.append('0');
      }
      s.append(fraction);
    }
    return s.toString();
  }

  /** Like {@code DataSize.toString()} (binary units, one decimal) without {@code String.format}. */
  static String size(long bytes) {
    double kib = 1024;
    if (bytes >= (1L << 40)) {
      return fixed(bytes / (kib * kib * kib * kib), 1) + " TiB";
    }
    if (bytes >= (1L << 30)) {
      return fixed(bytes / (kib * kib * kib), 1) + " GiB";
    }
    if (bytes >= (1L << 20)) {
      return fixed(bytes / (kib * kib), 1) + " MiB";
    }
    if (bytes >= (1L << 10)) {
      return fixed(bytes / kib, 1) + " KiB";
    }
    return bytes + " B";
  }
}
