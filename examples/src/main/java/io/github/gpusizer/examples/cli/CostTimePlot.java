package io.github.gpusizer.examples.cli;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import com.google.common.escape.Escaper;
import com.google.common.xml.XmlEscapers;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Draws total cost against wall-clock time as a small, self-contained SVG: every feasible option as a dot, the
 * Pareto front joined by a line, the best option marked with a ring and its label.
 *
 * <pre>{@code
 * String svg = CostTimePlot.render(List.of(
 *     new CostTimePlot.Point("aws p4d.24xlarge", 5.2, 171.0, true, true),
 *     new CostTimePlot.Point("lambda 1x A10", 31.0, 23.0, true, false)), "USD");
 * }</pre>
 *
 * <p>An axis whose values span more than a factor of 30 is drawn on a log scale (and says so in its label), so a
 * one-GPU option taking days and a 64-GPU option taking an hour both stay readable.
 */
public final class CostTimePlot {
  private static final int WIDTH = 760;
  private static final int HEIGHT = 500;
  private static final int LEFT = 90;
  private static final int RIGHT = 30;
  private static final int TOP = 50;
  private static final int BOTTOM = 70;
  private static final double LOG_SPAN = 30;
  private static final Escaper XML = XmlEscapers.xmlContentEscaper();
  private static final Escaper ATTR = XmlEscapers.xmlAttributeEscaper();

  private CostTimePlot() {}

  /**
   * One feasible option.
   *
   * @param label what it is, e.g. {@code aws p4d.24xlarge x2}
   * @param hours wall-clock time in hours, > 0
   * @param cost total cost in the plot's currency, >= 0
   * @param pareto whether it is on the Pareto front
   * @param best whether it is the recommended option
   */
  public record Point(String label, double hours, double cost, boolean pareto, boolean best) {
    public Point {
      checkNotNull(label, "label");
      checkArgument(hours > 0 && Double.isFinite(hours), "%s: hours must be > 0, was %s", label, hours);
      checkArgument(cost >= 0 && Double.isFinite(cost), "%s: cost must be >= 0, was %s", label, cost);
    }
  }

  /**
   * Renders the points.
   *
   * @param currency the ISO code of the costs, written in the y-axis label
   * @throws IllegalArgumentException if there are no points
   */
  public static String render(List<Point> points, String currency) {
    checkArgument(!points.isEmpty(), "a cost/time plot needs at least one feasible option, had none");
    Axis x = Axis.of(points.stream().mapToDouble(Point::hours).toArray(), LEFT, WIDTH - RIGHT, false);
    Axis y = Axis.of(points.stream().mapToDouble(Point::cost).toArray(), HEIGHT - BOTTOM, TOP, true);
    StringBuilder s = new StringBuilder();
    s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
        .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
        .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
    s.append("<title>Total cost against wall-clock time</title>\n");
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    s.append(text(WIDTH / 2.0, 24, "middle", "font-size=\"15\" font-weight=\"bold\"",
        "Total cost against wall-clock time (" + points.size() + " feasible options)"));
    // Axes, ticks and grid.
    s.append(line(LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM, "black", "axis"));
    s.append(line(LEFT, TOP, LEFT, HEIGHT - BOTTOM, "black", "axis"));
    for (double tick : x.ticks()) {
      double px = x.position(tick);
      s.append(line(px, TOP, px, HEIGHT - BOTTOM, "#e5e5e5", "grid"));
      s.append(text(px, HEIGHT - BOTTOM + 18, "middle", "", format(tick)));
    }
    for (double tick : y.ticks()) {
      double py = y.position(tick);
      s.append(line(LEFT, py, WIDTH - RIGHT, py, "#e5e5e5", "grid"));
      s.append(text(LEFT - 8, py + 4, "end", "", format(tick)));
    }
    s.append(text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 22, "middle", "class=\"x-label\"",
        "Wall-clock time (hours" + (x.log ? ", log scale" : "") + ")"));
    s.append(String.format(Locale.ROOT,
        "<text class=\"y-label\" x=\"22\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 22 %.1f)\">%s</text>%n",
        (TOP + HEIGHT - BOTTOM) / 2.0, (TOP + HEIGHT - BOTTOM) / 2.0,
        XML.escape("Total cost (" + currency + (y.log ? ", log scale" : "") + ")")));
    // The Pareto front, as a line through its points in time order.
    List<Point> front = new ArrayList<>(points.stream().filter(Point::pareto).toList());
    front.sort(Comparator.comparingDouble(Point::hours));
    if (front.size() > 1) {
      s.append("<polyline class=\"pareto-front\" fill=\"none\" stroke=\"#e07b00\" stroke-width=\"2\" points=\"");
      for (Point p : front) {
        s.append(String.format(Locale.ROOT, "%.1f,%.1f ", x.position(p.hours()), y.position(p.cost())));
      }
      s.append("\"/>\n");
    }
    for (Point p : points) {
      String cls = p.best() ? "option best" : p.pareto() ? "option pareto" : "option";
      String fill = p.pareto() ? "#e07b00" : "#6b8fb5";
      s.append(String.format(Locale.ROOT,
          "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s</title></circle>%n", cls,
          x.position(p.hours()), y.position(p.cost()), fill,
          XML.escape(String.format(Locale.ROOT, "%s: %s h, %s %s", p.label(), format(p.hours()), format(p.cost()),
              currency))));
    }
    for (Point p : points) {
      if (p.best()) {
        double px = x.position(p.hours());
        double py = y.position(p.cost());
        s.append(String.format(Locale.ROOT,
            "<circle class=\"best-marker\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"#c00000\" stroke-width=\"2.5\"/>%n",
            px, py));
        boolean right = px < WIDTH - 250;
        s.append(text(right ? px + 13 : px - 13, py - 10, right ? "start" : "end",
            "class=\"best-label\" fill=\"#c00000\" font-weight=\"bold\"", "best: " + p.label()));
      }
    }
    // Legend.
    int lx = WIDTH - RIGHT - 170;
    s.append(String.format(Locale.ROOT,
        "<g class=\"legend\"><rect x=\"%d\" y=\"%d\" width=\"165\" height=\"58\" fill=\"white\" stroke=\"#999\"/>%n", lx,
        TOP + 4));
    s.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"#6b8fb5\"/>", lx + 12, TOP + 18));
    s.append(text(lx + 24, TOP + 22, "start", "", "feasible option"));
    s.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"#e07b00\"/>", lx + 12, TOP + 34));
    s.append(text(lx + 24, TOP + 38, "start", "", "Pareto front (cost vs time)"));
    s.append(String.format(Locale.ROOT,
        "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"none\" stroke=\"#c00000\" stroke-width=\"2.5\"/>", lx + 12, TOP + 50));
    s.append(text(lx + 24, TOP + 54, "start", "", "best option"));
    s.append("</g>\n</svg>\n");
    return s.toString();
  }

  private static String line(double x1, double y1, double x2, double y2, String stroke, String cls) {
    return String.format(Locale.ROOT,
        "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n", cls, x1, y1, x2, y2,
        stroke);
  }

  private static String text(double x, double y, String anchor, String extra, String content) {
    return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" %s>%s</text>%n", x, y,
        ATTR.escape(anchor), extra, XML.escape(content));
  }

  /** Up to three significant digits, no exponent: 0.0123, 1.5, 250, 12000. */
  static String format(double v) {
    if (v == 0) {
      return "0";
    }
    double magnitude = Math.floor(Math.log10(Math.abs(v)));
    int decimals = (int) Math.max(0, 2 - magnitude);
    String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
    if (s.contains(".")) {
      s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
    return s;
  }

  /** Maps data values to pixels, linearly or by log10. */
  private static final class Axis {
    final double min;
    final double max;
    final double from;
    final double to;
    final boolean log;

    private Axis(double min, double max, double from, double to, boolean log) {
      this.min = min;
      this.max = max;
      this.from = from;
      this.to = to;
      this.log = log;
    }

    static Axis of(double[] values, double from, double to, boolean zeroBased) {
      double lo = Double.POSITIVE_INFINITY;
      double hi = Double.NEGATIVE_INFINITY;
      for (double v : values) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      if (lo > 0 && hi / lo > LOG_SPAN) {
        return new Axis(Math.pow(10, Math.floor(Math.log10(lo))), Math.pow(10, Math.ceil(Math.log10(hi))), from, to,
            true);
      }
      double start = zeroBased || lo == hi ? 0 : lo;
      if (hi == start) {
        hi = start == 0 ? 1 : start * 2;
      }
      double step = niceStep((hi - start) / 5);
      double niceMin = Math.floor(start / step) * step;
      double niceMax = Math.ceil(hi / step) * step;
      if (niceMax == hi) {
        niceMax += step; // keep the largest point off the frame
      }
      return new Axis(niceMin, niceMax, from, to, false);
    }

    double position(double value) {
      double fraction = log
          ? (Math.log10(value) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))
          : (value - min) / (max - min);
      return from + fraction * (to - from);
    }

    ImmutableList<Double> ticks() {
      ImmutableList.Builder<Double> ticks = ImmutableList.builder();
      if (log) {
        for (double t = min; t <= max * 1.0001; t *= 10) {
          ticks.add(t);
        }
      } else {
        double step = niceStep((max - min) / 5);
        for (int i = 0; min + i * step <= max + step * 1e-9; i++) {
          ticks.add(min + i * step);
        }
      }
      return ticks.build();
    }

    private static double niceStep(double rough) {
      double power = Math.pow(10, Math.floor(Math.log10(rough)));
      double f = rough / power;
      double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
      return nice * power;
    }
  }
}
