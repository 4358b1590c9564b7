package io.github.gpusizer.core.serving;

import java.time.Duration;
import java.util.Locale;

/** Number formats of the serving package's reasons and rationales: one owner for "140 ms" and "2.4 s". */
final class ServingTexts {
  private ServingTexts() {}

  static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  static Duration duration(double seconds) {
    return Duration.ofNanos(Math.max(1, Math.round(seconds * 1e9)));
  }

  /** "140 ms" below a second, "2.4 s" above. */
  static String duration(Duration d) {
    double s = seconds(d);
    return s < 1 ? String.format(Locale.ROOT, "%.0f ms", s * 1e3) : String.format(Locale.ROOT, "%.2g s", s);
  }

  /** {@link #duration(Duration)} of a time in seconds. */
  static String text(double seconds) {
    return duration(duration(seconds));
  }

  static String number(double v) {
    return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3g", v);
  }
}
