package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.Money;
import java.time.Duration;

/**
 * When a subscription beats paying on demand: the hours of use per subscription period at which both cost the
 * same. From {@link CostModel#subscriptionBreakEven}.
 *
 * <pre>{@code
 * BreakEven b = CostModel.defaults().subscriptionBreakEven(offering, PricingMode.MONTHLY);
 * b.hoursPerPeriod();        // e.g. PT400H: use it more than 400 h a month and the subscription is cheaper
 * b.basis();                 // LISTED, or ESTIMATED_FROM_PURCHASE_PRICE when the offering lists no price
 * }</pre>
 *
 * @param period {@link PricingMode#MONTHLY} or {@link PricingMode#YEARLY}
 * @param subscriptionPrice the price of one instance for one period, in the on-demand price's currency
 * @param onDemandPerHour the on-demand price of one instance per hour
 * @param hoursPerPeriod hours of use per period at which both cost the same
 * @param basis whether the subscription price is listed or estimated
 * @param explanation how the subscription price was obtained, in words
 */
public record BreakEven(
    PricingMode period,
    PriceQuote subscriptionPrice,
    Money onDemandPerHour,
    Duration hoursPerPeriod,
    Basis basis,
    String explanation) {

  /** Where the subscription price comes from. */
  public enum Basis {
    /** The offering's own monthly or yearly price. */
    LISTED,
    /**
     * The seeds' rule of thumb, "全款/3年+少量的费用=年租" (a year's rent ≈ the full purchase price / 3 years plus
     * a small fee, seed 002): one year ≈ the GPUs' purchase price ÷ 3, one month ≈ that ÷ 12. The "small fee" is
     * not quantified, and the host server is not counted, so the estimate is a lower bound.
     */
    ESTIMATED_FROM_PURCHASE_PRICE
  }

  public BreakEven {
    checkNotNull(period, "period");
    checkArgument(period == PricingMode.MONTHLY || period == PricingMode.YEARLY,
        "break-even period must be MONTHLY or YEARLY, was %s", period);
    checkNotNull(subscriptionPrice, "subscriptionPrice");
    checkNotNull(onDemandPerHour, "onDemandPerHour");
    checkNotNull(hoursPerPeriod, "hoursPerPeriod");
    checkNotNull(basis, "basis");
    checkNotNull(explanation, "explanation");
  }

  /** The length of one period: {@link CostModel#MONTH} or {@link CostModel#YEAR}. */
  public Duration periodLength() {
    return period == PricingMode.MONTHLY ? CostModel.MONTH : CostModel.YEAR;
  }

  /** Break-even hours as a fraction of the period; above 1 the subscription never pays off. */
  public double utilisation() {
    return Decimals.seconds(hoursPerPeriod).doubleValue() / Decimals.seconds(periodLength()).doubleValue();
  }

  /** Whether some use within one period makes the subscription cheaper than on demand. */
  public boolean paysOffWithinPeriod() {
    return hoursPerPeriod.compareTo(periodLength()) < 0;
  }

  /** Whether subscribing is cheaper than on demand for {@code usePerPeriod} hours of use each period. */
  public boolean subscriptionCheaperFor(Duration usePerPeriod) {
    checkNotNull(usePerPeriod, "usePerPeriod");
    return usePerPeriod.compareTo(hoursPerPeriod) > 0;
  }
}
