package io.github.gpusizer.core.sizing;

import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.PriceQuote;
import io.github.gpusizer.core.cost.PricingMode;
import java.time.Duration;

/**
 * One priced candidate that fits in memory: an offering rented as {@code instances} machines in one pricing mode,
 * runs placed on it, with its wall time and cost. Deadline and budget are checked afterwards.
 *
 * @param index the offering's position in the catalog (a stable tie-breaker)
 * @param runGpus GPUs one run uses
 * @param concurrent runs at the same time
 * @param fit the layout search result of one run
 * @param wall the expected wall time of all runs
 * @param priced the price in the offering's currency
 * @param quote the price in the ranking currency, marked if converted
 */
record Candidate(
    int index,
    Offering offering,
    PricingMode mode,
    int instances,
    int runGpus,
    int concurrent,
    Outcome.Fit fit,
    Duration wall,
    CostStep.Priced priced,
    PriceQuote quote) {

  /** The price in the ranking currency. */
  Money cost() {
    return quote.amount();
  }

  int gpus() {
    return instances * offering.gpuCount();
  }
}
