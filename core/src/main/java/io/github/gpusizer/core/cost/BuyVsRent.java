package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.Money;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Owning against renting, per year: owning costs {@code fixedPerYear + ownedPerHourOfUse × h}, renting
 * {@code rentPerHour × h}; they cost the same at {@code h = fixedPerYear / (rentPerHour − ownedPerHourOfUse)}.
 * From {@link Ownership#versus}.
 *
 * <pre>{@code
 * BuyVsRent b = Ownership.of(Money.of("1599", "USD"), 3, 450, Money.of("0.15", "USD")).versus(Money.of("0.50", "USD"));
 * b.breakEvenPerYear();      // Optional[PT1355H...]: owning wins above about 1355 h of use a year
 * b.verdict();
 * }</pre>
 *
 * @param fixedPerYear what owning costs a year without any use
 * @param ownedPerHourOfUse what an hour of use adds when owned (electricity)
 * @param rentPerHour what an hour costs rented
 * @param breakEvenPerYear hours of use per year above which owning is cheaper; empty when it never is within a
 *     year (renting an hour costs no more than the electricity of an hour, or the break-even exceeds 8760 h)
 */
public record BuyVsRent(
    Money fixedPerYear, Money ownedPerHourOfUse, Money rentPerHour, Optional<Duration> breakEvenPerYear) {

  public BuyVsRent {
    checkNotNull(fixedPerYear, "fixedPerYear");
    checkNotNull(ownedPerHourOfUse, "ownedPerHourOfUse");
    checkNotNull(rentPerHour, "rentPerHour");
    checkNotNull(breakEvenPerYear, "breakEvenPerYear");
  }

  static BuyVsRent of(Money fixedPerYear, Money ownedPerHour, Money rentPerHour) {
    Money margin = rentPerHour.minus(ownedPerHour);   // throws CurrencyMismatchException
    Optional<Duration> breakEven = Optional.empty();
    if (margin.amount().signum() > 0) {
      BigDecimal hours = fixedPerYear.amount().divide(margin.amount(), Decimals.MATH);
      Duration d = Decimals.ofHours(hours);
      if (d.compareTo(CostModel.YEAR) <= 0) {
        breakEven = Optional.of(d);
      }
    }
    return new BuyVsRent(fixedPerYear, ownedPerHour, rentPerHour, breakEven);
  }

  /** Break-even hours as a fraction of the 8760 hours of a year. */
  public OptionalDouble breakEvenUtilisation() {
    return breakEvenPerYear.map(d -> OptionalDouble.of(
            Decimals.seconds(d).doubleValue() / Decimals.seconds(CostModel.YEAR).doubleValue()))
        .orElse(OptionalDouble.empty());
  }

  /** Whether owning costs less than renting for {@code usePerYear} hours of use a year. */
  public boolean ownsCheaperAt(Duration usePerYear) {
    checkNotNull(usePerYear, "usePerYear");
    Money owning = fixedPerYear.plus(ownedPerHourOfUse.times(Decimals.hours(usePerYear)));
    Money renting = rentPerHour.times(Decimals.hours(usePerYear));
    return owning.compareTo(renting) < 0;
  }

  /** One sentence for people: when owning pays off, or that it does not. */
  public String verdict() {
    if (breakEvenPerYear.isEmpty()) {
      return rentPerHour.compareTo(ownedPerHourOfUse) <= 0
          ? "renting (" + rentPerHour.rounded() + "/h) costs no more than the electricity of owning ("
              + ownedPerHourOfUse.rounded() + "/h): owning never pays off"
          : "owning costs " + fixedPerYear.rounded() + " a year before any use; renting stays cheaper even at "
              + "8760 h of use a year";
    }
    return String.format(java.util.Locale.ROOT,
        "owning pays off above %s of use a year (%.0f%% of the year); below that, renting at %s/h is cheaper",
        Durations.describe(breakEvenPerYear.get()), 100 * breakEvenUtilisation().getAsDouble(), rentPerHour.rounded());
  }
}
