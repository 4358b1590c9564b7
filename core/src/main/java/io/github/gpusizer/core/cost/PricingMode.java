package io.github.gpusizer.core.cost;

import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import java.util.Locale;
import java.util.Optional;

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
  YEARLY;

  /**
   * The offering's price in this mode (per hour for on-demand and spot, per period for subscriptions); empty if the
   * offering is not sold this way. The one place that maps a mode to an offering's price.
   */
  public Optional<Money> price(Offering offering) {
    return switch (this) {
      case ON_DEMAND -> Optional.of(offering.onDemandPerHour());
      case SPOT -> offering.spotPerHour();
      case MONTHLY -> offering.monthly();
      case YEARLY -> offering.yearly();
    };
  }

  /** {@code "on-demand"}, {@code "spot"}, {@code "monthly"}, {@code "yearly"}: the mode in the library's texts. */
  public String label() {
    return this == ON_DEMAND ? "on-demand" : name().toLowerCase(Locale.ROOT);
  }
}
