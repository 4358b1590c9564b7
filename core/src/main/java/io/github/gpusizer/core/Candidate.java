package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.PriceQuote;
import io.github.gpusizer.core.cost.PricingMode;
import java.time.Duration;

/**
 * One priced candidate that fits in memory: an offering rented as {@code instances} machines in one pricing mode,
 * runs placed on it, with its wall time and cost. Deadline and budget are checked afterwards.
 *
 * <p>The exact price ({@link #priced()}, {@link #quote()}, {@link #cost()}) is worked out on first use, once
 * (thread-safe); until then {@link #costKey()} is the cost in {@code double}, within a relative {@link #MARGIN} of
 * the exact cost, so {@link #compareCost} decides in {@code double} unless two costs are that close. Candidates
 * priced exactly from the start (the reference path, spot with interruptions) are compared exactly with each
 * other.
 */
final class Candidate {
  /**
   * Relative error bound of {@link #costKey()}: a few {@code double} roundings of price, rate and {@code n ×
   * billed seconds ÷ 3600} (each below 1.2 × 10^-16) and the exact cost's rounding to 34 digits, far below it.
   */
  static final double MARGIN = 1e-9;

  /** The exact price of a candidate, worked out on demand. */
  interface Pricing {
    CostStep.Priced priced();

    PriceQuote quote(CostStep.Priced priced);

    /**
     * Instances × billed seconds, by which the exact costs of one offering's candidates in one pricing mode are
     * ordered (one price, one rate: the cost is the price times it, divided by the mode's unit); -1 where that does
     * not hold ({@link Screen#ordersByUnits}: a zero price, or one whose rounding could tie).
     */
    long billedSeconds();
  }

  private record Exact(CostStep.Priced priced, PriceQuote quote) {}

  private final int index;
  private final Offering offering;
  private final PricingMode mode;
  private final int instances;
  private final int runGpus;
  private final int concurrent;
  private final Outcome.Fit fit;
  private final Duration wall;
  private final Duration startup;
  private final Duration checkpoints;
  private final double costKey;
  private final Pricing pricing;
  private volatile Exact exact;

  /**
   * A candidate priced exactly.
   *
   * @param index the offering's position in the catalog (a stable tie-breaker)
   * @param runGpus GPUs one run uses
   * @param concurrent runs at the same time
   * @param fit the layout search result of one run
   * @param wall the expected wall time of all runs
   * @param startup the start-up of the runs, within {@code wall}
   * @param checkpoints the checkpoint writes of all runs, within {@code wall}
   * @param priced the price in the offering's currency
   * @param quote the price in the ranking currency, marked if converted
   */
  Candidate(int index, Offering offering, PricingMode mode, int instances, int runGpus, int concurrent,
      Outcome.Fit fit, Duration wall, Duration startup, Duration checkpoints, CostStep.Priced priced,
      PriceQuote quote) {
    this(index, offering, mode, instances, runGpus, concurrent, fit, wall, startup, checkpoints,
        quote.amount().amount().doubleValue(), null);
    this.exact = new Exact(checkNotNull(priced, "priced"), quote);
  }

  /** A candidate whose exact price {@code pricing} works out on first use; {@code costKey} as documented. */
  Candidate(int index, Offering offering, PricingMode mode, int instances, int runGpus, int concurrent,
      Outcome.Fit fit, Duration wall, Duration startup, Duration checkpoints, double costKey, Pricing pricing) {
    this.index = index;
    this.offering = checkNotNull(offering, "offering");
    this.mode = checkNotNull(mode, "mode");
    this.instances = instances;
    this.runGpus = runGpus;
    this.concurrent = concurrent;
    this.fit = checkNotNull(fit, "fit");
    this.wall = checkNotNull(wall, "wall");
    this.startup = checkNotNull(startup, "startup");
    this.checkpoints = checkNotNull(checkpoints, "checkpoints");
    this.costKey = costKey;
    this.pricing = pricing;
  }

  /** The offering's position in the catalog (a stable tie-breaker). */
  int index() {
    return index;
  }

  Offering offering() {
    return offering;
  }

  PricingMode mode() {
    return mode;
  }

  int instances() {
    return instances;
  }

  /** GPUs one run uses. */
  int runGpus() {
    return runGpus;
  }

  /** Runs at the same time. */
  int concurrent() {
    return concurrent;
  }

  /** The layout search result of one run. */
  Outcome.Fit fit() {
    return fit;
  }

  /** The expected wall time of all runs. */
  Duration wall() {
    return wall;
  }

  /** The start-up of the runs (within {@link #wall}). */
  Duration startup() {
    return startup;
  }

  /** The checkpoint writes of all runs (within {@link #wall}). */
  Duration checkpoints() {
    return checkpoints;
  }

  /** The cost in the ranking currency as a {@code double}, within a relative {@link #MARGIN} of {@link #cost()}. */
  double costKey() {
    return costKey;
  }

  /** The price in the offering's currency. */
  CostStep.Priced priced() {
    return exact().priced();
  }

  /** The price in the ranking currency, marked if converted. */
  PriceQuote quote() {
    return exact().quote();
  }

  /** The price in the ranking currency. */
  Money cost() {
    return exact().quote().amount();
  }

  int gpus() {
    return instances * offering.gpuCount();
  }

  private Exact exact() {
    Exact e = exact;
    if (e == null) {
      CostStep.Priced p = pricing.priced();
      e = new Exact(p, pricing.quote(p));
      exact = e; // the same value whichever thread works it out
    }
    return e;
  }

  /** The candidates' costs compared: in {@code double} where they differ by more than the margin, else exactly. */
  static int compareCost(Candidate a, Candidate b) {
    if (a.pricing == null && b.pricing == null) {
      return a.cost().compareTo(b.cost()); // both priced exactly already (and always so on the reference path)
    }
    double ka = a.costKey;
    double kb = b.costKey;
    if (Math.abs(ka - kb) > MARGIN * Math.max(Math.abs(ka), Math.abs(kb))) {
      return ka < kb ? -1 : 1;
    }
    if (a.offering == b.offering && a.mode == b.mode && a.pricing != null && b.pricing != null) {
      // counts of one offering whose costs tie in double (hourly billing: n x hours alike): no BigDecimal needed
      long sa = a.pricing.billedSeconds();
      long sb = b.pricing.billedSeconds();
      if (sa >= 0 && sb >= 0) {
        return Long.compare(sa, sb);
      }
    }
    return a.cost().compareTo(b.cost());
  }

  /** Whether the candidate costs at most {@code budget}: in {@code double} away from it, exactly near it. */
  boolean costsAtMost(Money budget, double budgetKey) {
    if (pricing == null) {
      return cost().compareTo(budget) <= 0;
    }
    if (Math.abs(costKey - budgetKey) > MARGIN * Math.max(Math.abs(costKey), Math.abs(budgetKey))) {
      return costKey < budgetKey;
    }
    return cost().compareTo(budget) <= 0;
  }

  @Override
  public String toString() {
    return "Candidate[" + offering.key() + ", " + mode + ", " + instances + " instances, " + wall + "]";
  }
}
