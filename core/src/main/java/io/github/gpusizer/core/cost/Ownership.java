package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.CurrencyMismatchException;
import io.github.gpusizer.catalog.Money;
import java.math.BigDecimal;
import java.time.Duration;

/**
 * What owning hardware costs: the purchase price written off evenly over {@code years}, hosting per month, and
 * electricity while it works ({@code watts × powerDraw × PUE × price per kWh}). Idle power and resale value are
 * left out. All amounts must be in one currency; {@link CostModel#ownership} converts a GPU's purchase price first.
 *
 * <pre>{@code
 * Ownership rig = Ownership.of(Money.of("1599", "USD"), 3, 450, Money.of("0.15", "USD"));   // one RTX 4090
 * rig.costPerYear(Duration.ofHours(2000));
 * BuyVsRent verdict = rig.versus(Money.of("0.50", "USD"));       // rent the same card at 0.50 USD/h?
 * verdict.breakEvenPerYear();                                    // hours of use a year above which owning wins
 * }</pre>
 *
 * @param purchasePrice what the hardware costs to buy, > 0 (converted if it was listed in another currency)
 * @param years years to write it off over, >= 1
 * @param watts rated power (the sum of the cards' TDP, or the server's), > 0
 * @param powerDraw average draw while working as a fraction of {@code watts}, in (0, 1]; 1 (the default) takes
 *     TDP, the board power limit, so it is the upper bound
 * @param electricityPerKWh the price of one kWh, >= 0
 * @param pue power usage effectiveness of the room (total facility power ÷ IT power), >= 1
 * @param hostingPerMonth rack space, cooling contracts, network: whatever is paid per month regardless of use, >= 0
 */
public record Ownership(
    PriceQuote purchasePrice,
    int years,
    int watts,
    double powerDraw,
    Money electricityPerKWh,
    double pue,
    Money hostingPerMonth) {

  /**
   * The industry-average PUE of 1.58 from the Uptime Institute Global Data Center Survey 2023 (flat at 1.55–1.59
   * since about 2020); large modern facilities do better (hyperscalers report about 1.1–1.2), a desk under an
   * office air conditioner worse. The default of {@link #of}.
   */
  public static final double TYPICAL_PUE = 1.58;

  private static final BigDecimal WATTS_PER_KILOWATT = BigDecimal.valueOf(1000);
  private static final BigDecimal MONTHS_PER_YEAR = BigDecimal.valueOf(12);

  public Ownership {
    checkNotNull(purchasePrice, "purchasePrice");
    checkNotNull(electricityPerKWh, "electricityPerKWh");
    checkNotNull(hostingPerMonth, "hostingPerMonth");
    checkArgument(purchasePrice.amount().amount().signum() > 0, "purchase price must be > 0, was %s", purchasePrice);
    checkArgument(years >= 1, "years to write the purchase off over must be >= 1, was %s", years);
    checkArgument(watts > 0, "power must be > 0 W, was %s", watts);
    checkArgument(Double.isFinite(powerDraw) && powerDraw > 0 && powerDraw <= 1,
        "power draw must be a fraction of the rated power in (0, 1], was %s", powerDraw);
    checkArgument(!electricityPerKWh.isNegative(), "electricity price must be >= 0, was %s", electricityPerKWh);
    checkArgument(Double.isFinite(pue) && pue >= 1, "PUE must be >= 1 (total power over IT power), was %s", pue);
    checkArgument(!hostingPerMonth.isNegative(), "hosting per month must be >= 0, was %s", hostingPerMonth);
    if (!electricityPerKWh.currency().equals(purchasePrice.amount().currency())) {
      throw new CurrencyMismatchException(purchasePrice.amount().currency(), electricityPerKWh.currency());
    }
    if (!hostingPerMonth.currency().equals(purchasePrice.amount().currency())) {
      throw new CurrencyMismatchException(purchasePrice.amount().currency(), hostingPerMonth.currency());
    }
  }

  /**
   * Hardware bought for {@code purchasePrice}, drawing its full rated power while working, in a room of
   * {@link #TYPICAL_PUE}, with no hosting fee.
   *
   * @throws io.github.gpusizer.catalog.CurrencyMismatchException if the two amounts differ in currency
   */
  public static Ownership of(Money purchasePrice, int years, int watts, Money electricityPerKWh) {
    checkNotNull(purchasePrice, "purchasePrice");
    checkNotNull(electricityPerKWh, "electricityPerKWh");
    return new Ownership(PriceQuote.of(purchasePrice), years, watts, 1.0, electricityPerKWh, TYPICAL_PUE,
        Money.zero(purchasePrice.currency()));
  }

  public Ownership withPue(double pue) {
    return new Ownership(purchasePrice, years, watts, powerDraw, electricityPerKWh, pue, hostingPerMonth);
  }

  public Ownership withPowerDraw(double powerDraw) {
    return new Ownership(purchasePrice, years, watts, powerDraw, electricityPerKWh, pue, hostingPerMonth);
  }

  public Ownership withHostingPerMonth(Money hostingPerMonth) {
    return new Ownership(purchasePrice, years, watts, powerDraw, electricityPerKWh, pue, hostingPerMonth);
  }

  /** Paid every year whether the hardware works or not: purchase price ÷ years + 12 × hosting. */
  public Money fixedPerYear() {
    Money purchase = purchasePrice.amount();
    return Money.of(purchase.amount().divide(BigDecimal.valueOf(years), Decimals.MATH), purchase.currency())
        .plus(hostingPerMonth.times(MONTHS_PER_YEAR));
  }

  /** Electricity for one hour of work: {@code watts / 1000 × powerDraw × PUE × price per kWh}. */
  public Money energyPerHourOfUse() {
    BigDecimal kilowatts = BigDecimal.valueOf(watts).divide(WATTS_PER_KILOWATT, Decimals.MATH)
        .multiply(BigDecimal.valueOf(powerDraw)).multiply(BigDecimal.valueOf(pue));
    return electricityPerKWh.times(kilowatts);
  }

  /**
   * The cost of one year with {@code usePerYear} hours of work.
   *
   * @throws IllegalArgumentException if the use is negative or longer than {@link CostModel#YEAR}
   */
  public Money costPerYear(Duration usePerYear) {
    checkNotNull(usePerYear, "usePerYear");
    checkArgument(!usePerYear.isNegative() && usePerYear.compareTo(CostModel.YEAR) <= 0,
        "use per year must be between 0 and %s h, was %s", CostModel.YEAR.toHours(), usePerYear);
    return fixedPerYear().plus(energyPerHourOfUse().times(Decimals.hours(usePerYear)));
  }

  /**
   * Compares owning with renting the same hardware at {@code rentPerHour}.
   *
   * @throws io.github.gpusizer.catalog.CurrencyMismatchException if the rent is in another currency
   */
  public BuyVsRent versus(Money rentPerHour) {
    checkNotNull(rentPerHour, "rentPerHour");
    checkArgument(!rentPerHour.isNegative(), "rent per hour must be >= 0, was %s", rentPerHour);
    return BuyVsRent.of(fixedPerYear(), energyPerHourOfUse(), rentPerHour);
  }
}
