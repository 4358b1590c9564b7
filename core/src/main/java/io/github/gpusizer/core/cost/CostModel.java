package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.Maps;
import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.catalog.PurchasePrice;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Collection;
import java.util.Currency;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * What renting, subscribing to or owning GPUs costs. Immutable and thread-safe; each {@code with...} returns a
 * changed copy.
 *
 * <pre>{@code
 * CostModel model = CostModel.defaults();
 * // the core rule: total cost = price per hour × reference hours ÷ speedup
 * Money a100 = CostModel.totalCost(Money.of("2", "CNY"), Duration.ofHours(20), 2.0);   // 20 CNY
 * Money v100 = CostModel.totalCost(Money.of("1", "CNY"), Duration.ofHours(20), 1.0);   // 20 CNY
 * // what a cloud bills: time rounded up per its billing mode, with a minimum charge, times instances
 * Money bill = model.cost(offering, 2, Duration.ofMinutes(90), PricingMode.ON_DEMAND);
 * }</pre>
 *
 * <p>Money is never a {@code double}: amounts stay {@link BigDecimal} with their currency; every division rounds
 * once to 34 significant digits ({@link java.math.MathContext#DECIMAL128}, half-even), and nothing is rounded to
 * cents until {@link Money#rounded()}. Ratios such as a speedup are {@code double}s, turned into decimals with
 * {@link BigDecimal#valueOf(double)}. Currencies never mix: where prices in two currencies meet, the model's
 * {@link ExchangeRates} convert one explicitly and the result is a {@link PriceQuote} marked as converted.
 */
public final class CostModel {

  /**
   * One month of a subscription: 730 h, the average month of a 365-day year (365 × 24 h ÷ 12), as the AWS Pricing
   * Calculator assumes (https://aws.amazon.com/calculator/calculator-assumptions). Providers that bill calendar
   * months differ by up to 2%.
   */
  public static final Duration MONTH = Duration.ofHours(730);

  /** One year of a subscription: 365 days, 8760 h. */
  public static final Duration YEAR = Duration.ofDays(365);

  /**
   * The minimum charge of per-second billing by default: 60 s, as on Amazon EC2 ("billed on one second
   * increments, with a minimum of 60 seconds", AWS announcement "Announcing Amazon EC2 per second billing",
   * 2 Oct 2017, and the AWS re:Post article "How am I billed for my EC2 instances?"). Per-minute and per-hour
   * billing default to a minimum of one billing unit, which rounding up already implies.
   */
  public static final Duration AWS_PER_SECOND_MINIMUM = Duration.ofSeconds(60);

  private static final BigDecimal THREE_YEARS = BigDecimal.valueOf(3);
  private static final BigDecimal MONTHS_PER_YEAR = BigDecimal.valueOf(12);

  private final Map<BillingMode, Duration> minimumCharge;
  private final Optional<Money> storagePerMonth;
  private final DataSize storageUnit;
  private final ExchangeRates rates;

  private CostModel(Map<BillingMode, Duration> minimumCharge, Optional<Money> storagePerMonth, DataSize storageUnit,
      ExchangeRates rates) {
    this.minimumCharge = Maps.immutableEnumMap(minimumCharge);
    this.storagePerMonth = storagePerMonth;
    this.storageUnit = storageUnit;
    this.rates = rates;
  }

  /**
   * Minimum charges of {@link #AWS_PER_SECOND_MINIMUM} for per-second billing and one unit otherwise, no storage
   * price, and the {@link ExchangeRates#bundled() bundled} exchange rates.
   */
  public static CostModel defaults() {
    Map<BillingMode, Duration> minimum = new EnumMap<>(BillingMode.class);
    minimum.put(BillingMode.PER_SECOND, AWS_PER_SECOND_MINIMUM);
    minimum.put(BillingMode.PER_MINUTE, Duration.ofMinutes(1));
    minimum.put(BillingMode.PER_HOUR, Duration.ofHours(1));
    return new CostModel(minimum, Optional.empty(), DataSize.ofGB(1), ExchangeRates.bundled());
  }

  /**
   * A copy that bills at least {@code minimum} for each run of an instance billed in {@code mode}.
   *
   * @throws IllegalArgumentException if {@code minimum} is negative
   */
  public CostModel withMinimumCharge(BillingMode mode, Duration minimum) {
    checkNotNull(mode, "mode");
    checkNotNull(minimum, "minimum");
    checkArgument(!minimum.isNegative(), "minimum charge for %s must be >= 0, was %s", mode, minimum);
    Map<BillingMode, Duration> copy = new EnumMap<>(minimumCharge);
    copy.put(mode, minimum);
    return new CostModel(copy, storagePerMonth, storageUnit, rates);
  }

  /**
   * A copy that prices storage at {@code pricePerMonth} for every {@code per} of capacity, prorated by time:
   * {@code withStoragePrice(Money.of("0.08", "USD"), DataSize.ofGB(1))} is 0.08 USD per GB-month.
   *
   * @throws IllegalArgumentException if the price is negative or {@code per} is zero
   */
  public CostModel withStoragePrice(Money pricePerMonth, DataSize per) {
    checkNotNull(pricePerMonth, "pricePerMonth");
    checkNotNull(per, "per");
    checkArgument(!pricePerMonth.isNegative(), "storage price must be >= 0, was %s", pricePerMonth);
    checkArgument(per.bytes() > 0, "storage price must be per a size > 0 bytes, was %s", per);
    return new CostModel(minimumCharge, Optional.of(pricePerMonth), per, rates);
  }

  /** A copy that converts between currencies with {@code rates}. */
  public CostModel withExchangeRates(ExchangeRates rates) {
    checkNotNull(rates, "rates");
    return new CostModel(minimumCharge, storagePerMonth, storageUnit, rates);
  }

  public Duration minimumCharge(BillingMode mode) {
    return minimumCharge.get(checkNotNull(mode, "mode"));
  }

  public ExchangeRates exchangeRates() {
    return rates;
  }

  /**
   * The core rule of the seeds, done right: total cost = price per hour × reference hours ÷ speedup, where the
   * reference hours are measured (or estimated) on a reference GPU and the speedup is the candidate's over it.
   * No billing rounding; see {@link #cost} for that.
   *
   * <pre>{@code
   * CostModel.totalCost(Money.of("2", "CNY"), Duration.ofHours(20), 2.0);   // A100, 2x a V100: 20 CNY
   * }</pre>
   *
   * @throws IllegalArgumentException if the price or time is negative, or the speedup not finite and > 0
   */
  public static Money totalCost(Money pricePerHour, Duration referenceTime, double speedup) {
    checkNotNull(pricePerHour, "pricePerHour");
    checkNotNull(referenceTime, "referenceTime");
    checkArgument(!pricePerHour.isNegative(), "price per hour must be >= 0, was %s", pricePerHour);
    checkArgument(!referenceTime.isNegative(), "reference time must be >= 0, was %s", referenceTime);
    BigDecimal factor = Decimals.positiveRatio(speedup, "speedup").multiply(Decimals.SECONDS_PER_HOUR);
    BigDecimal amount = pricePerHour.amount().multiply(Decimals.seconds(referenceTime)).divide(factor, Decimals.MATH);
    return Money.of(amount, pricePerHour.currency());
  }

  /**
   * The time a provider bills for one run of {@code wall}: zero for zero, otherwise
   * {@code max(wall, minimum charge)} rounded up to a whole second, minute or hour.
   *
   * @throws IllegalArgumentException if {@code wall} is negative
   */
  public Duration billed(Duration wall, BillingMode mode) {
    checkNotNull(wall, "wall");
    checkNotNull(mode, "mode");
    checkArgument(!wall.isNegative(), "wall time must be >= 0, was %s", wall);
    if (wall.isZero()) {
      return Duration.ZERO;
    }
    Duration atLeast = wall.compareTo(minimumCharge(mode)) >= 0 ? wall : minimumCharge(mode);
    long unit = switch (mode) {
      case PER_SECOND -> 1;
      case PER_MINUTE -> 60;
      case PER_HOUR -> 3600;
    };
    long seconds = atLeast.getSeconds() + (atLeast.getNano() > 0 ? 1 : 0);
    return Duration.ofSeconds(Math.multiplyExact(Math.floorDiv(seconds + unit - 1, unit), unit));
  }

  /**
   * The time {@code wall} is paid for under {@code mode}: {@link #billed(Duration, BillingMode)} with the
   * offering's billing mode for on-demand and spot, whole {@link #MONTH}s or {@link #YEAR}s for subscriptions.
   */
  public Duration billed(Duration wall, Offering offering, PricingMode mode) {
    checkNotNull(offering, "offering");
    checkNotNull(mode, "mode");
    return switch (mode) {
      case ON_DEMAND, SPOT -> billed(wall, offering.billing());
      case MONTHLY -> MONTH.multipliedBy(periods(wall, MONTH));
      case YEARLY -> YEAR.multipliedBy(periods(wall, YEAR));
    };
  }

  private static long periods(Duration wall, Duration period) {
    checkNotNull(wall, "wall");
    checkArgument(!wall.isNegative(), "wall time must be >= 0, was %s", wall);
    long whole = wall.dividedBy(period);
    return period.multipliedBy(whole).equals(wall) ? whole : whole + 1;
  }

  /**
   * What {@code instances} instances of {@code offering} running for {@code wall} cost under {@code mode}: the
   * hourly price × {@link #billed(Duration, Offering, PricingMode) billed} hours × instances for on-demand and spot
   * (spot without interruptions; see {@link #spot}), the period price × whole periods × instances for
   * subscriptions. In the offering's currency.
   *
   * @throws IllegalArgumentException if {@code instances < 1}, {@code wall} is negative, or the offering has no
   *     price for {@code mode}
   */
  public Money cost(Offering offering, int instances, Duration wall, PricingMode mode) {
    checkNotNull(offering, "offering");
    checkNotNull(wall, "wall");
    checkNotNull(mode, "mode");
    checkArgument(instances >= 1, "instances must be >= 1, was %s", instances);
    Duration billed = billed(wall, offering, mode);
    return switch (mode) {
      case ON_DEMAND -> hourly(offering.onDemandPerHour(), instances, billed);
      case SPOT -> hourly(spotPrice(offering), instances, billed);
      case MONTHLY -> listedSubscription(offering, mode).times(instances * periods(wall, MONTH));
      case YEARLY -> listedSubscription(offering, mode).times(instances * periods(wall, YEAR));
    };
  }

  /** price × instances × seconds ÷ 3600, with the single division rounded to 34 digits. */
  static Money hourly(Money pricePerHour, int instances, Duration time) {
    BigDecimal amount = pricePerHour.amount().multiply(BigDecimal.valueOf(instances))
        .multiply(Decimals.seconds(time)).divide(Decimals.SECONDS_PER_HOUR, Decimals.MATH);
    return Money.of(amount, pricePerHour.currency());
  }

  private static Money spotPrice(Offering offering) {
    return PricingMode.SPOT.price(offering).orElseThrow(() -> new IllegalArgumentException(
        offering.key() + " has no spot price; price it ON_DEMAND or give an offering sold as spot"));
  }

  private static Money listedSubscription(Offering offering, PricingMode mode) {
    return mode.price(offering).orElseThrow(() -> new IllegalArgumentException(offering.key() + " lists no "
        + mode.label() + " price; subscriptionBreakEven(offering, " + mode
        + ") estimates one from the GPU's purchase price"));
  }

  /**
   * What storing {@code size} for {@code period} costs at the {@link #withStoragePrice storage price}, prorated:
   * price × (size ÷ unit) × (period ÷ {@link #MONTH}).
   *
   * @throws IllegalStateException if no storage price was set
   */
  public Money storageCost(DataSize size, Duration period) {
    checkNotNull(size, "size");
    checkNotNull(period, "period");
    checkArgument(!period.isNegative(), "storage period must be >= 0, was %s", period);
    Money price = storagePerMonth.orElseThrow(() -> new IllegalStateException(
        "no storage price set: call withStoragePrice(pricePerMonth, per) first"));
    BigDecimal numerator = price.amount().multiply(BigDecimal.valueOf(size.bytes())).multiply(Decimals.seconds(period));
    BigDecimal denominator = BigDecimal.valueOf(storageUnit.bytes()).multiply(Decimals.seconds(MONTH));
    return Money.of(numerator.divide(denominator, Decimals.MATH), price.currency());
  }

  /**
   * The expected wall time and cost of {@code work} on {@code instances} spot instances that get interrupted, with
   * the on-demand cost of the same work beside it. Young's first-order model (see {@link Interruptions}): a
   * synchronous job stops when any of its instances is interrupted, so interruptions arrive at
   * {@code λ = instances × perHour}; the work grows by checkpoint writes to {@code W·(1 + δ/c)}, and each
   * interruption adds {@code c/2 + R}, so the expected wall time is {@code T = W·(1 + δ/c) / (1 − λ·(c/2 + R))}
   * and the expected number of interruptions {@code λ·T}. The expected cost is the spot price × billed {@code T};
   * the minimum charge of each restarted instance is not added.
   *
   * @throws IllegalArgumentException if the offering has no spot price, {@code instances < 1}, or
   *     {@code λ·(c/2 + R) >= 1} (the job would lose work faster than it makes it)
   */
  public SpotEstimate spot(Offering offering, int instances, Duration work, Interruptions interruptions) {
    checkNotNull(offering, "offering");
    checkNotNull(work, "work");
    checkNotNull(interruptions, "interruptions");
    checkArgument(instances >= 1, "instances must be >= 1, was %s", instances);
    checkArgument(!work.isNegative(), "work must be >= 0, was %s", work);
    Money spotPrice = spotPrice(offering);
    double lambda = interruptions.perHour() * instances;
    double c = Decimals.hours(interruptions.checkpointInterval()).doubleValue();
    double delta = Decimals.hours(interruptions.checkpointWrite()).doubleValue();
    double restart = Decimals.hours(interruptions.restart()).doubleValue();
    double lostPerHour = lambda * (c / 2 + restart);
    checkArgument(lostPerHour < 1, "interruptions (%s per hour over %s instances) lose %s h per hour with a %s h "
            + "checkpoint interval and %s h restarts: the job never finishes; checkpoint more often",
        interruptions.perHour(), instances, lostPerHour, c, restart);
    double workHours = Decimals.hours(work).doubleValue();
    double wallHours = workHours * (1 + delta / c) / (1 - lostPerHour);
    Duration wall = Decimals.ofHours(BigDecimal.valueOf(wallHours));
    Money expected = hourly(spotPrice, instances, billed(wall, offering.billing()));
    Money onDemand = hourly(offering.onDemandPerHour(), instances, billed(work, offering.billing()));
    return new SpotEstimate(work, wall, lambda * wallHours, expected, onDemand, interruptions);
  }

  /**
   * The hours of use per month (or year) above which subscribing to one instance of {@code offering} is cheaper
   * than paying on demand: subscription price ÷ on-demand price per hour. Uses the offering's listed price; where
   * it lists none, estimates one from the GPU's purchase price with the seeds' rule of thumb
   * ({@link BreakEven.Basis#ESTIMATED_FROM_PURCHASE_PRICE}, labelled as such). A price in another currency than
   * the on-demand price is converted with the model's exchange rates and marked.
   *
   * @throws IllegalArgumentException if {@code period} is not MONTHLY or YEARLY, the on-demand price is zero, or
   *     there is neither a listed price nor a GPU purchase price
   */
  public BreakEven subscriptionBreakEven(Offering offering, PricingMode period) {
    checkNotNull(offering, "offering");
    checkNotNull(period, "period");
    checkArgument(period == PricingMode.MONTHLY || period == PricingMode.YEARLY,
        "break-even period must be MONTHLY or YEARLY, was %s", period);
    Money onDemand = offering.onDemandPerHour();
    checkArgument(onDemand.amount().signum() > 0, "%s: on-demand price must be > 0 for a break-even, was %s",
        offering.key(), onDemand);
    String periodName = period == PricingMode.MONTHLY ? "monthly" : "yearly";
    Optional<Money> listed = period == PricingMode.MONTHLY ? offering.monthly() : offering.yearly();
    PriceQuote price;
    BreakEven.Basis basis;
    String explanation;
    if (listed.isPresent()) {
      price = rates.convert(listed.get(), onDemand.currency());
      basis = BreakEven.Basis.LISTED;
      explanation = "listed " + periodName + " price of " + offering.key();
    } else {
      PurchasePrice purchase = offering.gpu().purchasePrice().orElseThrow(() -> new IllegalArgumentException(
          offering.key() + " lists no " + periodName + " price and " + offering.gpu().id()
              + " has no purchase price to estimate one from"));
      BigDecimal divisor = period == PricingMode.MONTHLY ? THREE_YEARS.multiply(MONTHS_PER_YEAR) : THREE_YEARS;
      Money cards = purchase.price().times(offering.gpuCount());
      Money estimate = Money.of(cards.amount().divide(divisor, Decimals.MATH), cards.currency());
      price = rates.convert(estimate, onDemand.currency());
      basis = BreakEven.Basis.ESTIMATED_FROM_PURCHASE_PRICE;
      explanation = "estimated, not listed: " + offering.gpuCount() + " x " + offering.gpu().id() + " at "
          + purchase.price() + " (" + purchase.kind() + " " + purchase.date() + ") / 3 years"
          + (period == PricingMode.MONTHLY ? " / 12 months" : "")
          + ", the seeds' rule of thumb (a year's rent = purchase price / 3 + a small fee); a lower bound: "
          + "neither the fee nor the host server is counted";
    }
    BigDecimal hours = price.amount().amount().divide(onDemand.amount(), Decimals.MATH);
    return new BreakEven(period, price, onDemand, Decimals.ofHours(hours), basis, explanation);
  }

  /**
   * Owning {@code cards} of {@code gpu}: their purchase price (converted to the electricity price's currency with
   * the model's exchange rates, and marked if so), written off over {@code years}, drawing {@code cards × TDP}
   * while working, in a room of {@link Ownership#TYPICAL_PUE}, without hosting fees. The host server is not
   * counted; use {@link Ownership#of} with a server's price for that.
   *
   * @throws IllegalArgumentException if the GPU has no purchase price, {@code cards < 1} or {@code years < 1}
   */
  public Ownership ownership(Gpu gpu, int cards, int years, Money electricityPerKWh) {
    checkNotNull(gpu, "gpu");
    checkNotNull(electricityPerKWh, "electricityPerKWh");
    checkArgument(cards >= 1, "cards must be >= 1, was %s", cards);
    PurchasePrice purchase = gpu.purchasePrice().orElseThrow(() -> new IllegalArgumentException(
        gpu.id() + " has no purchase price; use Ownership.of(price, years, watts, electricity)"));
    PriceQuote price = rates.convert(purchase.price().times(cards), electricityPerKWh.currency());
    return new Ownership(price, years, Math.multiplyExact(gpu.tdpWatts(), cards), 1.0, electricityPerKWh,
        Ownership.TYPICAL_PUE, Money.zero(electricityPerKWh.currency()));
  }

  /**
   * Ranks offerings by throughput per unit of rent, best first: samples/s of one GPU × GPUs per instance × 3600 ÷
   * the on-demand price per hour in {@code currency} = samples per unit of money. Assumes the GPUs of one instance
   * scale linearly; give per-instance figures through a function of the GPU if they do not.
   *
   * @param samplesPerSecond samples/s of one GPU of the given model, as the caller measured or estimated it
   * @throws IllegalArgumentException if a throughput is not finite and > 0 or a price is zero
   * @throws UnknownExchangeRateException if a price cannot be converted to {@code currency}
   */
  public List<Efficiency> rankByRent(Collection<Offering> offerings, ToDoubleFunction<Gpu> samplesPerSecond,
      Currency currency) {
    checkNotNull(offerings, "offerings");
    checkNotNull(samplesPerSecond, "samplesPerSecond");
    checkNotNull(currency, "currency");
    ImmutableList.Builder<Efficiency> rows = ImmutableList.builder();
    for (Offering o : offerings) {
      double perGpu = throughput(samplesPerSecond, o.gpu());
      PriceQuote price = rates.convert(o.onDemandPerHour(), currency);
      double perMoney = perGpu * o.gpuCount() * 3600 / positive(price, o.key());
      rows.add(new Efficiency(Efficiency.Kind.RENT_PER_HOUR, o.gpu(), Optional.of(o), perGpu * o.gpuCount(), price,
          perMoney, 1.0));
    }
    return Efficiency.ranked(rows.build());
  }

  /** As {@link #rankByRent(Collection, ToDoubleFunction, Currency)}, with throughputs from a map that must hold every GPU. */
  public List<Efficiency> rankByRent(Collection<Offering> offerings, Map<Gpu, Double> samplesPerSecond,
      Currency currency) {
    checkNotNull(samplesPerSecond, "samplesPerSecond");
    return rankByRent(offerings, gpu -> fromMap(samplesPerSecond, gpu), currency);
  }

  /**
   * Ranks GPU models by throughput per unit of purchase price, best first: samples/s ÷ the price of one card in
   * {@code currency}.
   *
   * @throws IllegalArgumentException if a GPU has no purchase price or a throughput is not finite and > 0
   * @throws UnknownExchangeRateException if a price cannot be converted to {@code currency}
   */
  public List<Efficiency> rankByPurchasePrice(Collection<Gpu> gpus, ToDoubleFunction<Gpu> samplesPerSecond,
      Currency currency) {
    checkNotNull(gpus, "gpus");
    checkNotNull(samplesPerSecond, "samplesPerSecond");
    checkNotNull(currency, "currency");
    ImmutableList.Builder<Efficiency> rows = ImmutableList.builder();
    for (Gpu gpu : gpus) {
      PurchasePrice purchase = gpu.purchasePrice().orElseThrow(() -> new IllegalArgumentException(
          gpu.id() + " has no purchase price to rank by; leave it out or give it one"));
      double perGpu = throughput(samplesPerSecond, gpu);
      PriceQuote price = rates.convert(purchase.price(), currency);
      rows.add(new Efficiency(Efficiency.Kind.PURCHASE_PRICE, gpu, Optional.empty(), perGpu, price,
          perGpu / positive(price, gpu.id()), 1.0));
    }
    return Efficiency.ranked(rows.build());
  }

  /** As {@link #rankByPurchasePrice(Collection, ToDoubleFunction, Currency)}, with throughputs from a map that must hold every GPU. */
  public List<Efficiency> rankByPurchasePrice(Collection<Gpu> gpus, Map<Gpu, Double> samplesPerSecond,
      Currency currency) {
    checkNotNull(samplesPerSecond, "samplesPerSecond");
    return rankByPurchasePrice(gpus, gpu -> fromMap(samplesPerSecond, gpu), currency);
  }

  private static double fromMap(Map<Gpu, Double> map, Gpu gpu) {
    Double value = map.get(gpu);
    checkArgument(value != null, "no throughput given for %s", gpu.id());
    return value;
  }

  private static double throughput(ToDoubleFunction<Gpu> samplesPerSecond, Gpu gpu) {
    double value = samplesPerSecond.applyAsDouble(gpu);
    checkArgument(Double.isFinite(value) && value > 0, "throughput of %s must be finite and > 0 samples/s, was %s",
        gpu.id(), value);
    return value;
  }

  private static double positive(PriceQuote price, String what) {
    checkArgument(price.amount().amount().signum() > 0, "%s: price must be > 0 to rank by it, was %s", what, price);
    return price.amount().amount().doubleValue();
  }

  /**
   * Compares rental options side by side in the currency of the first option; see {@link RentalComparison}.
   *
   * @throws IllegalArgumentException if {@code options} is empty
   */
  public RentalComparison compare(List<RentalOption> options) {
    checkNotNull(options, "options");
    checkArgument(!options.isEmpty(), "need at least one rental option to compare");
    return compare(options, options.get(0).offering().onDemandPerHour().currency());
  }

  /** Compares rental options side by side in {@code currency}; see {@link RentalComparison}. */
  public RentalComparison compare(List<RentalOption> options, Currency currency) {
    return RentalComparison.of(options, this, currency);
  }

  @Override
  public String toString() {
    return "CostModel[minimumCharge=" + minimumCharge + ", storage=" + storagePerMonth.map(p -> p + " per " + storageUnit
        + "-month").orElse("none") + ", rates=" + rates.currencies().size() + " currencies]";
  }
}
