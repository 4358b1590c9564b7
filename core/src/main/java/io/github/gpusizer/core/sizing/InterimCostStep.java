package io.github.gpusizer.core.sizing;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.PricingMode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;

/**
 * Pricing until the cost model lands: used time rounded up to the billing unit, times the hourly price of every
 * instance; spot at the spot price with no interruption model; a subscription as whole months or years.
 */
public final class InterimCostStep implements CostStep {
  /** Hours in a billing month: 8,760 h per year / 12, the convention cloud price lists use (AWS: 730 h). */
  private static final long MONTH_SECONDS = 730L * 3600;
  /** Hours in a (non-leap) year: 365 × 24. */
  private static final long YEAR_SECONDS = 8760L * 3600;

  @Override
  public Optional<Priced> price(Offering offering, PricingMode mode, int instances, Duration wall) {
    switch (mode) {
      case ON_DEMAND:
        return Optional.of(perUse(offering.onDemandPerHour(), offering, instances, wall, ImmutableList.of()));
      case SPOT:
        return offering.spotPerHour().map(p -> perUse(p, offering, instances, wall,
            ImmutableList.of("spot capacity can be reclaimed at any time; checkpoint often")));
      case SUBSCRIPTION:
        return subscription(offering, instances, wall);
      default:
        throw new AssertionError(mode);
    }
  }

  private static Priced perUse(Money perHour, Offering offering, int instances, Duration wall,
      ImmutableList<String> notes) {
    long unit;
    switch (offering.billing()) {
      case PER_SECOND:
        unit = 1;
        break;
      case PER_MINUTE:
        unit = 60;
        break;
      case PER_HOUR:
        unit = 3600;
        break;
      default:
        throw new AssertionError(offering.billing());
    }
    long seconds = ceilSeconds(wall);
    long billedSeconds = Math.max(unit, (seconds + unit - 1) / unit * unit);
    Money cost = perHour.times(BigDecimal.valueOf(billedSeconds).multiply(BigDecimal.valueOf(instances)))
        .dividedBy(BigDecimal.valueOf(3600), perHour.amount().scale() + 4);
    return new Priced(cost, Duration.ofSeconds(billedSeconds), wall, notes);
  }

  private static Optional<Priced> subscription(Offering offering, int instances, Duration wall) {
    long seconds = ceilSeconds(wall);
    Optional<Priced> monthly = offering.monthly().map(m -> {
      long months = Math.max(1, (seconds + MONTH_SECONDS - 1) / MONTH_SECONDS);
      return new Priced(m.times(months * instances), Duration.ofSeconds(months * MONTH_SECONDS), wall,
          ImmutableList.of(months + (months == 1 ? " month" : " months") + " of subscription"));
    });
    Optional<Priced> yearly = offering.yearly().map(y -> {
      long years = Math.max(1, (seconds + YEAR_SECONDS - 1) / YEAR_SECONDS);
      return new Priced(y.times(years * instances), Duration.ofSeconds(years * YEAR_SECONDS), wall,
          ImmutableList.of(years + (years == 1 ? " year" : " years") + " of subscription"));
    });
    if (monthly.isPresent() && yearly.isPresent()) {
      return monthly.get().cost().compareTo(yearly.get().cost()) <= 0 ? monthly : yearly;
    }
    return monthly.isPresent() ? monthly : yearly;
  }

  private static long ceilSeconds(Duration wall) {
    return wall.getSeconds() + (wall.getNano() > 0 ? 1 : 0);
  }

}
