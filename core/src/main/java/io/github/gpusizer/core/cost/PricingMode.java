package io.github.gpusizer.core.cost;

/**
 * How an instance is paid for.
 *
 * <pre>{@code
 * Money cost = CostModel.defaults().cost(offering, 1, Duration.ofHours(20), PricingMode.SPOT);
 * }</pre>
 */
public enum PricingMode {
  /** Pay per use at the on-demand price, with the offering's {@link io.github.gpusizer.catalog.BillingMode}. */
  ON_DEMAND,
  /**
   * Pay per use at the spot (pre-emptible) price. {@link CostModel#cost} charges the wall time given;
   * {@link CostModel#spot} adds the expected cost of interruptions.
   */
  SPOT,
  /** Whole months of {@link CostModel#MONTH} paid in advance at the offering's monthly price. */
  MONTHLY,
  /** Whole years of {@link CostModel#YEAR} paid in advance at the offering's yearly price. */
  YEARLY
}
