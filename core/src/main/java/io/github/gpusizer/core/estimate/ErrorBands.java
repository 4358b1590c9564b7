package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.core.task.Framework;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The error band of every workload class and quantity, as {@code error-bands.tsv} holds them. The file is derived,
 * not typed in: {@code CalibrationTest} recomputes it with {@link #derive} from the calibration cases and fails when
 * it is stale. The rule: per class and quantity, the 10th and 90th percentiles of {@code ln(predicted / measured)}
 * at the plotting positions {@code p(n + 1)} (Hyndman and Fan 1996 type 6, Weibull's), written as ratios rounded
 * outwards to four decimals; a class with fewer than {@link #MIN_CASES} cases takes the band of all cases of its
 * quantity (pooled). A task whose framework is named gets the band of its framework's {@link Framework.Stack}
 * joined with its class's where that stack has at least {@link #MIN_CASES} cases of the quantity (lines
 * {@code STACK_*}; band {@code class} where it has fewer, and the workload class's band applies); a task whose
 * framework was assumed gets its class's band, which spans every stack, and says so.
 *
 * <p>Why type 6: the band must cover the next job's error, not estimate the quantiles of the errors already seen.
 * A new case exchangeable with {@code n} calibration cases falls below the {@code i}-th smallest of them with
 * probability {@code i / (n + 1)} (the order-statistic prediction interval, Wilks 1941; split conformal prediction,
 * Lei et al. 2018, JASA 113:1094), so the interval between positions {@code 0.1(n + 1)} and {@code 0.9(n + 1)}
 * covers it with probability 0.8. Type 7 ({@code 1 + p(n − 1)}, NumPy's default) puts those positions inside the
 * extreme cases, which with 5–13 cases per class covered only two new cases in three (leave-one-out, CALIBRATION.md).
 */
final class ErrorBands {
  static final String RESOURCE = "error-bands.tsv";
  /**
   * Fewest cases a class needs for a band of its own: the smallest {@code n} whose p10 position {@code 0.1(n + 1)}
   * is at least the first order statistic, so that the band lies within the cases and needs no extrapolation.
   */
  static final int MIN_CASES = 9;
  static final double LOW_QUANTILE = 0.10;
  static final double HIGH_QUANTILE = 0.90;
  private static final String POOLED = "ALL";
  private static final String STACK = "STACK_";
  private static final String HEADER = "quantity\tclass\tcases\tp10_ratio\tp90_ratio\tband\tcase_ids";

  /** What a band describes: a speed (rates, and times as their inverse) or the memory per GPU. */
  enum Quantity {
    SPEED("speed"),
    MEMORY("memory");

    private final String label;

    Quantity(String label) {
      this.label = label;
    }
  }

  /** One calibration case: its prediction over its measurement, and the stack it ran on where known. */
  record Residual(Quantity quantity, WorkloadClass workloadClass, Optional<Framework.Stack> stack, String caseId,
                  double ratio) {
    Residual(Quantity quantity, WorkloadClass workloadClass, String caseId, double ratio) {
      this(quantity, workloadClass, Optional.empty(), caseId, ratio);
    }

    Residual {
      checkNotNull(quantity, "quantity");
      checkNotNull(workloadClass, "workloadClass");
      checkNotNull(stack, "stack");
      checkArgument(!caseId.isBlank() && !caseId.contains("\t") && !caseId.contains(","),
          "case id must be non-blank, without tabs or commas, was '%s'", caseId);
      checkArgument(ratio > 0 && Double.isFinite(ratio), "ratio must be finite and > 0, was %s", ratio);
    }
  }

  /** One line of the file: a band and the cases it was derived from. */
  private record Line(Quantity quantity, String cls, List<String> caseIds, double low, double high, boolean pooled) {}

  private final ImmutableList<Line> lines;
  /** By quantity ordinal, then workload class ordinal: looked up for every estimate, so arrays, not maps. */
  private final ErrorBand[][] bands;
  /**
   * By quantity, workload class and stack ordinal: the band of a task whose framework is named (its stack's, or its
   * class's with the reason), and by quantity and class the band of one whose framework was assumed.
   */
  private final ErrorBand[][][] named;
  private final ErrorBand[][] assumed;

  private ErrorBands(List<Line> lines) {
    this.lines = ImmutableList.copyOf(lines);
    this.bands = new ErrorBand[Quantity.values().length][WorkloadClass.values().length];
    this.named = new ErrorBand[Quantity.values().length][WorkloadClass.values().length]
        [Framework.Stack.values().length];
    this.assumed = new ErrorBand[Quantity.values().length][WorkloadClass.values().length];
    for (Quantity q : Quantity.values()) {
      Line all = find(q, POOLED);
      for (WorkloadClass c : WorkloadClass.values()) {
        Line own = find(q, c.name());
        String basis = own.pooled
            ? "p10–p90 of predicted/measured over all " + all.caseIds.size() + " " + q.label
                + " calibration cases (pooled: " + c.label() + " has " + own.caseIds.size() + ", fewer than "
                + MIN_CASES + ")"
            : "p10–p90 of predicted/measured over " + own.caseIds.size() + " " + q.label + " calibration cases of "
                + c.label();
        ErrorBand classBand = new ErrorBand(own.low, own.high, basis);
        bands[q.ordinal()][c.ordinal()] = classBand;
        assumed[q.ordinal()][c.ordinal()] = new ErrorBand(own.low, own.high,
            basis + "; the framework was assumed, so the band spans every stack in the table");
        for (Framework.Stack stack : Framework.Stack.values()) {
          Optional<Line> line = lines.stream().filter(l -> l.quantity == q && l.cls.equals(STACK + stack.name()))
              .findFirst();
          // a stack's own cases may err more than its class's, never less: a source unlike the table's errs with
          // its whole stack, so the band is the wider of the two (held out by source, the stack's band alone
          // covered fewer of the cases it was not derived from than the class's)
          named[q.ordinal()][c.ordinal()][stack.ordinal()] = line.filter(l -> !l.pooled)
              .map(l -> new ErrorBand(Math.min(l.low, own.low), Math.max(l.high, own.high),
                  "p10–p90 of predicted/measured over " + l.caseIds.size() + " " + q.label
                      + " calibration cases run on " + stack.label() + " stacks, widened to " + basis))
              .orElse(new ErrorBand(own.low, own.high, basis + "; " + stack.label() + " stacks have "
                  + line.map(l -> l.caseIds.size()).orElse(0) + " " + q.label + " cases, fewer than " + MIN_CASES
                  + " for a band of their own"));
        }
      }
    }
  }

  /**
   * The band of a speed of a task of class {@code c} on {@code framework}: its stack's where the framework was named
   * and the stack has enough cases, else the class's, saying why.
   */
  ErrorBand speed(WorkloadClass c, Framework framework, boolean frameworkAssumed) {
    return band(Quantity.SPEED, c, framework, frameworkAssumed);
  }

  /** As {@link #speed(WorkloadClass, Framework, boolean)}, for the memory per GPU. */
  ErrorBand memory(WorkloadClass c, Framework framework, boolean frameworkAssumed) {
    return band(Quantity.MEMORY, c, framework, frameworkAssumed);
  }

  private ErrorBand band(Quantity q, WorkloadClass c, Framework framework, boolean frameworkAssumed) {
    return frameworkAssumed ? assumed[q.ordinal()][c.ordinal()]
        : named[q.ordinal()][c.ordinal()][framework.stack().ordinal()];
  }

  private Line find(Quantity q, String cls) {
    return lines.stream().filter(l -> l.quantity == q && l.cls.equals(cls)).findFirst()
        .orElseThrow(() -> new IllegalStateException(RESOURCE + " has no line for " + q + " " + cls));
  }

  /** The bands bundled on the class path, loaded once. */
  static ErrorBands bundled() {
    return Bundled.BANDS;
  }

  /** The band of speeds (rates, and times as their inverse) of a class. */
  ErrorBand speed(WorkloadClass c) {
    return bands[Quantity.SPEED.ordinal()][checkNotNull(c, "class").ordinal()];
  }

  /** The band of the memory per GPU of a class. */
  ErrorBand memory(WorkloadClass c) {
    return bands[Quantity.MEMORY.ordinal()][checkNotNull(c, "class").ordinal()];
  }

  /**
   * Derives the bands from calibration cases by the rule in the class comment.
   *
   * @throws IllegalArgumentException if a quantity has fewer than {@link #MIN_CASES} cases in all
   */
  static ErrorBands derive(List<Residual> residuals) {
    List<Line> out = new ArrayList<>();
    for (Quantity q : Quantity.values()) {
      List<Residual> all = residuals.stream().filter(r -> r.quantity() == q).toList();
      checkArgument(all.size() >= MIN_CASES, "%s needs at least %s cases for a pooled band, has %s", q, MIN_CASES,
          all.size());
      double[] pooled = band(all);
      out.add(new Line(q, POOLED, ids(all), pooled[0], pooled[1], false));
      for (WorkloadClass c : WorkloadClass.values()) {
        List<Residual> own = all.stream().filter(r -> r.workloadClass() == c).toList();
        boolean pooledBand = own.size() < MIN_CASES;
        double[] b = pooledBand ? pooled : band(own);
        out.add(new Line(q, c.name(), ids(own), b[0], b[1], pooledBand));
      }
      for (Framework.Stack stack : Framework.Stack.values()) {
        List<Residual> own = all.stream().filter(r -> r.stack().equals(Optional.of(stack))).toList();
        boolean tooFew = own.size() < MIN_CASES;
        double[] b = tooFew ? pooled : band(own);
        out.add(new Line(q, STACK + stack.name(), ids(own), b[0], b[1], tooFew));
      }
    }
    return new ErrorBands(out);
  }

  private static List<String> ids(List<Residual> residuals) {
    return residuals.stream().map(Residual::caseId).toList();
  }

  /** The p10 and p90 of predicted/measured, rounded outwards to four decimals. */
  private static double[] band(List<Residual> residuals) {
    double[] logs = residuals.stream().mapToDouble(r -> Math.log(r.ratio())).sorted().toArray();
    return new double[] {round(Math.exp(quantile(logs, LOW_QUANTILE)), RoundingMode.FLOOR),
        round(Math.exp(quantile(logs, HIGH_QUANTILE)), RoundingMode.CEILING)};
  }

  /**
   * Hyndman and Fan's type 6: the 1-based position {@code h = (n + 1)p}, linear between the order statistics around
   * {@code h}, and the smallest or largest value where {@code h} falls outside {@code [1, n]}.
   */
  static double quantile(double[] sorted, double p) {
    checkArgument(sorted.length > 0, "no values");
    double h = (sorted.length + 1) * p - 1;
    if (h <= 0) {
      return sorted[0];
    }
    if (h >= sorted.length - 1) {
      return sorted[sorted.length - 1];
    }
    int below = (int) Math.floor(h);
    return sorted[below] + (h - below) * (sorted[below + 1] - sorted[below]);
  }

  private static double round(double value, RoundingMode mode) {
    return BigDecimal.valueOf(value).setScale(4, mode).doubleValue();
  }

  /** The file's text: a comment saying how it was made, the header, one line per quantity and class. */
  String toTsv() {
    StringBuilder s = new StringBuilder();
    s.append("# Error bands of GpuSizer's estimators by workload class. DERIVED, do not edit: CalibrationTest\n")
        .append("# (core/src/test/java/io/github/gpusizer/core/estimate) recomputes this file from its calibration\n")
        .append("# cases (core/src/test/resources/calibration.tsv and measurements/h200.tsv) and prints it when it\n")
        .append("# is stale. ratio = predicted / measured; p10_ratio and p90_ratio are exp of the 10th and 90th\n")
        .append("# percentiles of ln(ratio) at positions p(n + 1) (Hyndman and Fan 1996 type 6: a prediction\n")
        .append("# interval for the next case), rounded outwards to 4 decimals. A class with fewer than ")
        .append(MIN_CASES)
        .append(" cases takes its quantity's ALL band\n")
        .append("# (band = pooled). speed: throughput, FLOP/s and time; memory: GB per GPU. See core/CALIBRATION.md.\n")
        .append(HEADER).append('\n');
    for (Line l : lines) {
      s.append(l.quantity.label).append('\t').append(l.cls).append('\t').append(l.caseIds.size()).append('\t')
          .append(fixed4(l.low)).append('\t').append(fixed4(l.high)).append('\t')
          .append(l.cls.equals(POOLED) ? "all" : l.pooled ? (l.cls.startsWith(STACK) ? "class" : "pooled") : "own")
          .append('\t')
          .append(l.caseIds.isEmpty() ? "-" : String.join(",", l.caseIds)).append('\n');
    }
    return s.toString();
  }

  private static String fixed4(double value) {
    return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_UP).toPlainString();
  }

  /**
   * Reads the file's text strictly: every line but comments must parse, every quantity and class appear once.
   *
   * @throws IllegalStateException naming the line that is malformed, duplicated or missing
   */
  static ErrorBands parse(List<String> text, String name) {
    List<Line> out = new ArrayList<>();
    boolean header = false;
    for (int i = 0; i < text.size(); i++) {
      String raw = text.get(i);
      int number = i + 1;
      if (raw.startsWith("#") || raw.isBlank()) {
        continue;
      }
      if (!header) {
        if (!raw.equals(HEADER)) {
          throw new IllegalStateException(name + " line " + number + ": expected the header '" + HEADER
              + "', was '" + raw + "'");
        }
        header = true;
        continue;
      }
      String[] cells = raw.split("\t", -1);
      if (cells.length != 7) {
        throw new IllegalStateException(name + " line " + number + ": expected 7 tab-separated columns, found "
            + cells.length);
      }
      try {
        Quantity q = quantity(cells[0]);
        String cls = cells[1];
        boolean stackLine = cls.startsWith(STACK);
        if (stackLine) {
          Framework.Stack.valueOf(cls.substring(STACK.length()));
        } else if (!cls.equals(POOLED)) {
          WorkloadClass.valueOf(cls);
        }
        int cases = Integer.parseInt(cells[2]);
        double low = Double.parseDouble(cells[3]);
        double high = Double.parseDouble(cells[4]);
        String tooFew = stackLine ? "class" : "pooled";
        checkArgument(cells[5].equals(cls.equals(POOLED) ? "all" : cells[5].equals(tooFew) ? tooFew : "own"),
            "band must be all on the ALL line, own or pooled on a class's line and own or class on a stack's, was "
                + "'%s'", cells[5]);
        List<String> ids = cells[6].equals("-") ? List.of() : List.of(cells[6].split(",", -1));
        checkArgument(ids.size() == cases, "cases says %s but %s case ids follow", cases, ids.size());
        checkArgument(low > 0 && low <= high && Double.isFinite(high),
            "ratios must satisfy 0 < p10 <= p90, were %s, %s", low, high);
        boolean pooled = cells[5].equals(tooFew);
        checkArgument(pooled == (!cls.equals(POOLED) && cases < MIN_CASES),
            "band must be pooled exactly when a class has fewer than %s cases, was %s with %s", MIN_CASES,
            cells[5], cases);
        for (Line l : out) {
          checkArgument(l.quantity != q || !l.cls.equals(cls), "%s %s appears twice", cells[0], cls);
        }
        out.add(new Line(q, cls, ids, low, high, pooled));
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(name + " line " + number + ": " + e.getMessage(), e);
      }
    }
    if (!header) {
      throw new IllegalStateException(name + " has no header line '" + HEADER + "'");
    }
    ErrorBands bands = new ErrorBands(out);
    for (Line l : bands.lines) {
      Line all = bands.find(l.quantity, POOLED);
      if (l.pooled && !l.cls.startsWith(STACK) && (l.low != all.low || l.high != all.high)) {
        throw new IllegalStateException(name + ": the pooled band of " + l.quantity.label + " " + l.cls
            + " differs from its ALL line");
      }
    }
    return bands;
  }

  private static Quantity quantity(String label) {
    for (Quantity q : Quantity.values()) {
      if (q.label.equals(label)) {
        return q;
      }
    }
    throw new IllegalArgumentException("quantity must be speed or memory, was '" + label + "'");
  }

  /** Loads the bundled file once, on first use. */
  private static final class Bundled {
    static final ErrorBands BANDS = load();

    private static ErrorBands load() {
      InputStream in = ErrorBands.class.getResourceAsStream(RESOURCE);
      if (in == null) {
        throw new IllegalStateException("bundled error bands missing from the class path: "
            + ErrorBands.class.getPackageName().replace('.', '/') + "/" + RESOURCE);
      }
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        return parse(reader.lines().toList(), RESOURCE);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + RESOURCE, e);
      }
    }
  }
}
