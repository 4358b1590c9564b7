package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Money;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;

/** Formatting of numbers, sizes, money and durations for the tables people read. */
final class Output {
  private Output() {}

  static void print(CommandSpec spec, String text) {
    PrintWriter out = spec.commandLine().getOut();
    out.print(text);
    out.flush();
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

  static double seconds(Duration d) {
    return d.getSeconds() + d.getNano() / 1e9;
  }

  static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
  }
}
