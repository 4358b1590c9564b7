package io.github.gpusizer.core.cost;

import static io.github.gpusizer.core.cost.Fixtures.gpu;
import static io.github.gpusizer.core.cost.Fixtures.onDemand;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Currency;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

class CostModelProperties {

  private static final CostModel MODEL = CostModel.defaults();
  private static final BigDecimal RELATIVE_ULP = new BigDecimal("1e-32");

  /** Wall times from 0 to about 4 months, with nanoseconds. */
  private static Gen<Duration> walls() {
    return longs().between(0, 10_000_000).zip(integers().between(0, 999_999_999), Duration::ofSeconds);
  }

  private static Gen<BillingMode> modes() {
    return Generate.enumValues(BillingMode.class);
  }

  /** Prices from 0.0001 to 100,000.0000 with four decimals. */
  private static Gen<Money> prices() {
    return longs().between(1, 1_000_000_000).map(u -> Money.of(BigDecimal.valueOf(u, 4), Money.currency("USD")));
  }

  @Test
  void billed_time_is_never_less_than_wall_time() {
    qt().forAll(walls(), modes()).checkAssert((wall, mode) ->
        assertThat(MODEL.billed(wall, mode)).isGreaterThanOrEqualTo(wall));
  }

  @Test
  void rounding_up_is_idempotent() {
    qt().forAll(walls(), modes()).checkAssert((wall, mode) -> {
      Duration once = MODEL.billed(wall, mode);
      assertThat(MODEL.billed(once, mode)).isEqualTo(once);
    });
  }

  @Test
  void hourly_billing_costs_exactly_price_times_billed_hours_times_instances() {
    qt().forAll(prices(), walls(), integers().between(1, 64)).checkAssert((price, wall, instances) -> {
      Offering o = onDemand("p", gpu("g"), 1, price, BillingMode.PER_HOUR);
      BigDecimal billedHours = BigDecimal.valueOf(MODEL.billed(wall, BillingMode.PER_HOUR).toHours());

      Money cost = MODEL.cost(o, instances, wall, PricingMode.ON_DEMAND);

      assertThat(cost.amount()).isEqualByComparingTo(
          price.amount().multiply(billedHours).multiply(BigDecimal.valueOf(instances)));
    });
  }

  @Test
  void every_billing_mode_costs_price_times_billed_hours_within_one_rounding() {
    // seconds ÷ 3600 rarely terminates in decimal; the model rounds once, to 34 significant digits
    qt().forAll(prices(), walls(), modes(), integers().between(1, 64)).checkAssert((price, wall, mode, instances) -> {
      Offering o = onDemand("p", gpu("g"), 1, price, mode);
      BigDecimal exact = price.amount().multiply(Decimals.seconds(MODEL.billed(wall, mode)))
          .multiply(BigDecimal.valueOf(instances));

      BigDecimal costTimes3600 = MODEL.cost(o, instances, wall, PricingMode.ON_DEMAND).amount()
          .multiply(Decimals.SECONDS_PER_HOUR);

      assertThat(costTimes3600.subtract(exact).abs()).isLessThanOrEqualTo(exact.multiply(RELATIVE_ULP));
    });
  }

  @Test
  void cost_never_falls_when_the_job_runs_longer() {
    qt().forAll(prices(), walls(), walls(), modes()).checkAssert((price, a, b, mode) -> {
      Offering o = onDemand("p", gpu("g"), 1, price, mode);
      Duration shorter = a.compareTo(b) <= 0 ? a : b;
      Duration longer = a.compareTo(b) <= 0 ? b : a;

      assertThat(MODEL.cost(o, 1, shorter, PricingMode.ON_DEMAND))
          .isLessThanOrEqualTo(MODEL.cost(o, 1, longer, PricingMode.ON_DEMAND));
    });
  }

  @Test
  void total_cost_is_price_times_hours_divided_by_speedup_exactly() {
    // speedups whose decimal inverse terminates, so the exact quotient exists
    List<Double> speedups = List.of(0.25, 0.5, 0.8, 1.0, 1.25, 1.6, 2.0, 2.5, 4.0, 5.0, 8.0, 12.5);
    qt().forAll(prices(), integers().between(0, 100_000), Generate.pick(speedups))
        .checkAssert((price, hours, speedup) -> {
          Money cost = CostModel.totalCost(price, Duration.ofHours(hours), speedup);

          BigDecimal expected = price.amount().multiply(BigDecimal.valueOf(hours)).divide(BigDecimal.valueOf(speedup));
          assertThat(cost.amount()).isEqualByComparingTo(expected);
        });
  }

  @Test
  void converting_there_and_back_returns_the_amount_within_rounding() {
    ExchangeRates rates = ExchangeRates.bundled();
    List<Currency> currencies = List.copyOf(rates.currencies());
    qt().forAll(longs().between(1, 100_000_000_000L), Generate.pick(currencies), Generate.pick(currencies))
        .assuming((minorUnits, from, to) -> !from.equals(to))
        .checkAssert((minorUnits, from, to) -> {
          Money original = Money.of(BigDecimal.valueOf(minorUnits, from.getDefaultFractionDigits()), from);

          Money back = rates.convert(rates.convert(original, to).amount(), from).amount();

          assertThat(back.currency()).isEqualTo(from);
          assertThat(back.amount().subtract(original.amount()).abs())
              .isLessThanOrEqualTo(original.amount().multiply(new BigDecimal("1e-30")));
          assertThat(back.rounded().isEqualTo(original)).isTrue();
        });
  }

  @Test
  void youngs_interval_minimises_checkpoint_and_lost_work_overhead() {
    qt().forAll(integers().between(1, 3600), integers().between(1, 1000), integers().between(1, 400))
        .checkAssert((writeSeconds, perThousandHours, percentOfOptimum) -> {
          double lambda = perThousandHours / 1000.0;
          Duration best = Interruptions.youngInterval(Duration.ofSeconds(writeSeconds), lambda);
          double optimum = best.toMillis() / 3_600_000.0;
          double other = optimum * percentOfOptimum / 100.0;
          double delta = writeSeconds / 3600.0;

          // time lost per hour of work: δ/c for writing, λ·c/2 for redoing
          double atOptimum = delta / optimum + lambda * optimum / 2;
          double atOther = delta / other + lambda * other / 2;
          assertThat(atOptimum).isLessThanOrEqualTo(atOther * (1 + 1e-9));
        });
  }

  @Test
  void subscription_and_on_demand_cost_the_same_at_the_break_even() {
    qt().forAll(prices(), longs().between(1, 100_000_000)).checkAssert((perHour, monthlyCents) -> {
      Money monthly = Money.of(BigDecimal.valueOf(monthlyCents, 2), perHour.currency());
      Offering o = Fixtures.withSubscriptions(onDemand("p", gpu("g"), 1, perHour, BillingMode.PER_SECOND),
          java.util.Optional.of(monthly), java.util.Optional.empty());

      BreakEven b = MODEL.subscriptionBreakEven(o, PricingMode.MONTHLY);

      BigDecimal onDemandAtBreakEven = perHour.amount().multiply(Decimals.seconds(b.hoursPerPeriod()))
          .divide(Decimals.SECONDS_PER_HOUR, Decimals.MATH);
      // the break-even is rounded to the nanosecond
      assertThat(onDemandAtBreakEven.subtract(monthly.amount()).abs())
          .isLessThanOrEqualTo(perHour.amount().multiply(new BigDecimal("1e-12")));
    });
  }
}
