package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.core.estimate.Interval;
import io.github.gpusizer.examples.support.Printable;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;

/** Formatting of numbers, sizes, money and durations for the tables people read. */
final class Output {
  private Output() {}

  /**
   * Prints a command's result. A table or JSON document is {@link Printable#text printable} (JSON strings hold no
   * raw control characters anyway, and an escape inside one means the same character); CSV is data for programs
   * and goes out as written.
   */
  static void print(CommandSpec spec, String text, Format format) {
    PrintWriter out = spec.commandLine().getOut();
    out.print(format == Format.CSV ? text : Printable.text(text));
    out.flush();
    // PrintWriter and PrintStream swallow write errors (picocli's default writer wraps System.out, which keeps the
    // flag itself): a result that was not written is a failed run
    if (out.checkError() || System.out.checkError()) {
      throw new OutputFailedException();
    }
  }

  /** {@code 80.0 GiB}; binary units, as nvidia-smi and PyTorch count. */
  static String memory(DataSize size) {
    return size.toString();
  }

  /** Up to one decimal, no trailing {@code .0}: 989.4, 80, 0.5. */
  static String decimal(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.format(Locale.ROOT, "%d", (long) v);
    }
    return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v)
        : Math.abs(v) >= 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3g", v);
  }

  /** {@code 1.2 M}, {@code 6.74 B}: counts with SI suffixes, three significant digits. */
  static String count(double v) {
    String[] suffixes = {"", " k", " M", " B", " T", " P"};
    int i = 0;
    double x = v;
    while (Math.abs(x) >= 1000 && i < suffixes.length - 1) {
      x /= 1000;
      i++;
    }
    return (i == 0 ? decimal(x) : String.format(Locale.ROOT, "%.3g", x)) + suffixes[i];
  }

  /** Money rounded to the currency's minor unit: {@code 171.23 USD}. */
  static String money(Money m) {
    return m.rounded().amount().toPlainString() + " " + m.currency().getCurrencyCode();
  }

  /** {@code 3d 4h}, {@code 5h 12m}, {@code 42m}, {@code 12.3 s}, {@code 350 ms}. */
  static String duration(Duration d) {
    long seconds = d.getSeconds();
    if (seconds >= 86_400) {
      return String.format(Locale.ROOT, "%dd %dh", seconds / 86_400, (seconds % 86_400) / 3600);
    }
    if (seconds >= 3600) {
      return String.format(Locale.ROOT, "%dh %02dm", seconds / 3600, (seconds % 3600) / 60);
    }
    if (seconds >= 60) {
      return String.format(Locale.ROOT, "%dm %02ds", seconds / 60, seconds % 60);
    }
    double s = seconds(d);
    return s >= 1 ? String.format(Locale.ROOT, "%.1f s", s) : String.format(Locale.ROOT, "%.0f ms", s * 1000);
  }

  /**
   * A time with its interval, all three in the nominal's unit: {@code 2.1 h (1.7–2.8 h)},
   * {@code 3.2 d (2.9–5.9 d)}, {@code 42.0 min (38.0–77.0 min)}, {@code 12.3 s (11.0–22.1 s)},
   * {@code 350 ms (310–640 ms)}.
   */
  static String durationRange(Interval<Duration> i) {
    double s = seconds(i.nominal());
    String unit;
    double scale;
    if (s >= 86_400) {
      unit = "d";
      scale = 86_400;
    } else if (s >= 3600) {
      unit = "h";
      scale = 3600;
    } else if (s >= 60) {
      unit = "min";
      scale = 60;
    } else if (s >= 1) {
      unit = "s";
      scale = 1;
    } else {
      unit = "ms";
      scale = 1e-3;
    }
    return inUnit(s / scale) + " " + unit + " (" + inUnit(seconds(i.low()) / scale) + "–"
        + inUnit(seconds(i.high()) / scale) + " " + unit + ")";
  }

  /** One decimal below 100, none from 100: {@code 2.1}, {@code 14.2}, {@code 350}. */
  private static String inUnit(double v) {
    return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
  }

  /** A rate with its interval, as {@link #count}: {@code 1.23 k (1.1 k–1.5 k)}. */
  static String countRange(Interval<Double> i) {
    return count(i.nominal()) + " (" + count(i.low()) + "–" + count(i.high()) + ")";
  }

  /** A rate with its interval, as {@link #decimal}: {@code 537 (290–543)}. */
  static String decimalRange(Interval<Double> i) {
    return decimal(i.nominal()) + " (" + decimal(i.low()) + "–" + decimal(i.high()) + ")";
  }

  /** A size with its interval: {@code 61.2 GiB (49.0–70.3 GiB)} when the units agree, else each in its own. */
  static String memoryRange(Interval<DataSize> i) {
    String nominal = memory(i.nominal());
    String low = memory(i.low());
    String high = memory(i.high());
    String unit = nominal.substring(nominal.lastIndexOf(' '));
    if (low.endsWith(unit) && high.endsWith(unit)) {
      return nominal + " (" + low.substring(0, low.length() - unit.length()) + "–" + high + ")";
    }
    return nominal + " (" + low + "–" + high + ")";
  }

  static double seconds(Duration d) {
    return d.getSeconds() + d.getNano() / 1e9;
  }

  static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
  }
}
