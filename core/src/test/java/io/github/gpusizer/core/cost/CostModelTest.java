package io.github.gpusizer.core.cost;

import static io.github.gpusizer.core.cost.Fixtures.gpu;
import static io.github.gpusizer.core.cost.Fixtures.onDemand;
import static io.github.gpusizer.core.cost.Fixtures.withSpot;
import static io.github.gpusizer.core.cost.Fixtures.withSubscriptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CostModelTest {

  private final CostModel model = CostModel.defaults();

  // Seed 001 writes "总成本 = 实例价格 × 训练时长 × 加速比" and works "A100: 2 × 10 × 2 = 40 元, V100: 1 × 20 = 20 元".
  // That multiplies by the speedup twice over: the 10 h already contain it. Total cost is price × reference hours
  // ÷ speedup, and both cards cost 20 元.
  @Test
  void seed_example_costs_the_same_on_both_cards_not_40_against_20() {
    // GIVEN the seed's V100 (1 CNY/h, 20 h) and an A100 twice as fast at 2 CNY/h
    Duration v100Hours = Duration.ofHours(20);

    // WHEN
    Money a100 = CostModel.totalCost(Money.of("2", "CNY"), v100Hours, 2.0);
    Money v100 = CostModel.totalCost(Money.of("1", "CNY"), v100Hours, 1.0);

    // THEN
    assertThat(a100.isEqualTo(Money.of("20", "CNY"))).as("A100 cost %s", a100).isTrue();
    assertThat(v100.isEqualTo(Money.of("20", "CNY"))).as("V100 cost %s", v100).isTrue();
  }

  @Test
  void seed_example_billed_on_demand_agrees_with_the_formula() {
    Offering a100 = onDemand("a100", Money.of("2", "CNY"));
    Offering v100 = onDemand("v100", Money.of("1", "CNY"));

    Money a100Cost = model.cost(a100, 1, Duration.ofHours(10), PricingMode.ON_DEMAND);
    Money v100Cost = model.cost(v100, 1, Duration.ofHours(20), PricingMode.ON_DEMAND);

    assertThat(a100Cost.isEqualTo(Money.of("20", "CNY"))).isTrue();
    assertThat(v100Cost.isEqualTo(Money.of("20", "CNY"))).isTrue();
  }

  @Test
  void total_cost_rejects_a_speedup_that_is_not_positive() {
    assertThatThrownBy(() -> CostModel.totalCost(Money.of("1", "CNY"), Duration.ofHours(1), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("speedup").hasMessageContaining("0.0");
    assertThatThrownBy(() -> CostModel.totalCost(Money.of("1", "CNY"), Duration.ofHours(1), Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("speedup");
  }

  @Test
  void per_second_billing_rounds_up_a_fraction_of_a_second() {
    assertThat(model.billed(Duration.ofMillis(90_200), BillingMode.PER_SECOND)).isEqualTo(Duration.ofSeconds(91));
  }

  @Test
  void per_second_billing_charges_at_least_60_seconds_by_default() {
    assertThat(model.minimumCharge(BillingMode.PER_SECOND)).isEqualTo(Duration.ofSeconds(60));
    assertThat(model.billed(Duration.ofSeconds(10), BillingMode.PER_SECOND)).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void per_minute_billing_rounds_up_to_whole_minutes() {
    assertThat(model.billed(Duration.ofSeconds(61), BillingMode.PER_MINUTE)).isEqualTo(Duration.ofMinutes(2));
    assertThat(model.billed(Duration.ofSeconds(1), BillingMode.PER_MINUTE)).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void per_hour_billing_rounds_up_to_whole_hours() {
    assertThat(model.billed(Duration.ofMinutes(61), BillingMode.PER_HOUR)).isEqualTo(Duration.ofHours(2));
    assertThat(model.billed(Duration.ofHours(3), BillingMode.PER_HOUR)).isEqualTo(Duration.ofHours(3));
  }

  @Test
  void nothing_run_is_nothing_billed() {
    assertThat(model.billed(Duration.ZERO, BillingMode.PER_HOUR)).isEqualTo(Duration.ZERO);
  }

  @Test
  void minimum_charge_is_a_parameter() {
    CostModel noMinimum = model.withMinimumCharge(BillingMode.PER_SECOND, Duration.ZERO);
    CostModel ninetySeconds = model.withMinimumCharge(BillingMode.PER_MINUTE, Duration.ofSeconds(90));

    assertThat(noMinimum.billed(Duration.ofSeconds(10), BillingMode.PER_SECOND)).isEqualTo(Duration.ofSeconds(10));
    // the minimum is applied before rounding, so the result is still whole minutes
    assertThat(ninetySeconds.billed(Duration.ofSeconds(10), BillingMode.PER_MINUTE)).isEqualTo(Duration.ofMinutes(2));
    assertThat(model.billed(Duration.ofSeconds(10), BillingMode.PER_SECOND)).as("original unchanged")
        .isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void rejects_a_negative_minimum_charge_or_wall_time() {
    assertThatThrownBy(() -> model.withMinimumCharge(BillingMode.PER_HOUR, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minimum charge").hasMessageContaining("PT-1S");
    assertThatThrownBy(() -> model.billed(Duration.ofSeconds(-5), BillingMode.PER_HOUR))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wall time").hasMessageContaining("PT-5S");
  }

  @Test
  void on_demand_cost_is_price_times_billed_hours_times_instances() {
    Offering o = onDemand("p", gpu("g"), 4, Money.of("3.00", "USD"), BillingMode.PER_MINUTE);

    Money cost = model.cost(o, 2, Duration.ofSeconds(89 * 60 + 1), PricingMode.ON_DEMAND);   // billed 90 min

    assertThat(cost.isEqualTo(Money.of("9.00", "USD"))).as("cost %s", cost).isTrue();
  }

  @Test
  void spot_cost_uses_the_spot_price_and_fails_clearly_without_one() {
    Offering plain = onDemand("g5", Money.of("1.00", "USD"));
    Offering spot = withSpot(plain, Money.of("0.30", "USD"));

    assertThat(model.cost(spot, 1, Duration.ofHours(10), PricingMode.SPOT).isEqualTo(Money.of("3", "USD"))).isTrue();
    assertThatThrownBy(() -> model.cost(plain, 1, Duration.ofHours(10), PricingMode.SPOT))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("test/g5/r1").hasMessageContaining("no spot price");
  }

  @Test
  void subscriptions_charge_whole_periods() {
    Offering o = withSubscriptions(onDemand("m", Money.of("2.09", "CNY")), Optional.of(Money.of("1000", "CNY")),
        Optional.of(Money.of("10000", "CNY")));

    assertThat(model.cost(o, 1, Duration.ofHours(730), PricingMode.MONTHLY).isEqualTo(Money.of("1000", "CNY"))).isTrue();
    assertThat(model.cost(o, 1, Duration.ofHours(731), PricingMode.MONTHLY).isEqualTo(Money.of("2000", "CNY"))).isTrue();
    assertThat(model.cost(o, 3, Duration.ofHours(100), PricingMode.YEARLY).isEqualTo(Money.of("30000", "CNY"))).isTrue();
    assertThat(model.billed(Duration.ofHours(731), o, PricingMode.MONTHLY)).isEqualTo(Duration.ofHours(1460));
  }

  @Test
  void subscription_cost_needs_a_listed_price() {
    Offering o = onDemand("m", Money.of("2.09", "CNY"));

    assertThatThrownBy(() -> model.cost(o, 1, Duration.ofHours(1), PricingMode.MONTHLY))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lists no monthly price");
  }

  @Test
  void storage_is_priced_per_size_month_and_prorated() {
    CostModel priced = model.withStoragePrice(Money.of("0.08", "USD"), DataSize.ofGB(1));

    assertThat(priced.storageCost(DataSize.ofGB(500), CostModel.MONTH).isEqualTo(Money.of("40", "USD"))).isTrue();
    assertThat(priced.storageCost(DataSize.ofGB(500), Duration.ofHours(365)).isEqualTo(Money.of("20", "USD"))).isTrue();
  }

  @Test
  void storage_cost_without_a_price_is_a_clear_error() {
    assertThatThrownBy(() -> model.storageCost(DataSize.ofGB(1), Duration.ofHours(1)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("withStoragePrice");
  }

  @Test
  void spot_estimate_adds_lost_work_and_restarts() {
    // GIVEN 10 h of work, 0.1 interruptions/h, a checkpoint every hour, 6 min to restart
    Offering o = withSpot(onDemand("g5", Money.of("1.00", "USD")), Money.of("0.30", "USD"));
    Interruptions i = Interruptions.of(0.1, Duration.ofHours(1), Duration.ofMinutes(6));

    // WHEN
    SpotEstimate s = model.spot(o, 1, Duration.ofHours(10), i);

    // THEN each interruption costs 0.5 h + 0.1 h, so T = 10 / (1 - 0.1 * 0.6) = 10.638 h
    double wallHours = 10 / 0.94;
    assertThat(s.expectedWall().toMillis() / 3_600_000.0).isCloseTo(wallHours, within(1e-6));
    assertThat(s.expectedInterruptions()).isCloseTo(0.1 * wallHours, within(1e-9));
    assertThat(s.expectedCost().amount().doubleValue()).isCloseTo(0.30 * wallHours, within(0.001));
    assertThat(s.onDemandCost().isEqualTo(Money.of("10", "USD"))).isTrue();
    assertThat(s.cheaperThanOnDemand()).isTrue();
    assertThat(s.expectedSavings().amount().doubleValue()).isCloseTo(10 - 0.30 * wallHours, within(0.001));
  }

  @Test
  void spot_interruptions_scale_with_the_number_of_instances() {
    Offering o = withSpot(onDemand("g5", Money.of("1.00", "USD")), Money.of("0.30", "USD"));
    Interruptions i = Interruptions.of(0.1, Duration.ofHours(1), Duration.ZERO);

    SpotEstimate one = model.spot(o, 1, Duration.ofHours(10), i);
    SpotEstimate four = model.spot(o, 4, Duration.ofHours(10), i);

    // one instance loses 0.05 h per hour; four lose 0.2 h per hour
    assertThat(Decimals.hours(one.expectedWall()).doubleValue()).isCloseTo(10 / 0.95, within(1e-6));
    assertThat(Decimals.hours(four.expectedWall()).doubleValue()).isCloseTo(10 / 0.8, within(1e-6));
  }

  @Test
  void spot_checkpoint_writes_lengthen_the_job() {
    Offering o = withSpot(onDemand("g5", Money.of("1.00", "USD")), Money.of("0.30", "USD"));
    Interruptions i = new Interruptions(0, Duration.ofMinutes(30), Duration.ofMinutes(3), Duration.ZERO);

    SpotEstimate s = model.spot(o, 1, Duration.ofHours(10), i);

    assertThat(s.expectedWall()).isEqualTo(Duration.ofHours(11));   // 10 h × (1 + 3/30)
    assertThat(s.expectedInterruptions()).isZero();
  }

  @Test
  void spot_rejects_interruptions_that_outrun_the_work() {
    Offering o = withSpot(onDemand("g5", Money.of("1.00", "USD")), Money.of("0.30", "USD"));
    Interruptions tooMany = Interruptions.of(1.0, Duration.ofHours(2), Duration.ofMinutes(10));

    assertThatThrownBy(() -> model.spot(o, 1, Duration.ofHours(10), tooMany))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never finishes");
  }

  @Test
  void young_interval_is_the_square_root_of_twice_write_time_times_mtbf() {
    // 1 min to write, one interruption per 20 h: sqrt(2 × 60 s × 72000 s) = 2939.39 s
    Duration c = Interruptions.youngInterval(Duration.ofMinutes(1), 0.05);

    assertThat(c.toMillis()).isEqualTo(Math.round(Math.sqrt(2 * 60.0 * 72_000) * 1000));
    assertThat(Interruptions.young(0.05, Duration.ofMinutes(1), Duration.ZERO).checkpointInterval()).isEqualTo(c);
  }

  @Test
  void young_interval_needs_interruptions_and_a_write_time() {
    assertThatThrownBy(() -> Interruptions.youngInterval(Duration.ofMinutes(1), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("interruptions per hour > 0");
    assertThatThrownBy(() -> Interruptions.youngInterval(Duration.ZERO, 0.1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("write time > 0");
  }

  @Test
  void subscription_break_even_from_a_listed_price() {
    // 2.09 CNY/h on demand (the seeds' AIStudio RTX 4090), a hypothetical 1000 CNY a month
    Offering o = withSubscriptions(onDemand("m", Money.of("2.09", "CNY")), Optional.of(Money.of("1000", "CNY")),
        Optional.empty());

    BreakEven b = model.subscriptionBreakEven(o, PricingMode.MONTHLY);

    // 1000 / 2.09 = 478.469 h
    assertThat(Decimals.hours(b.hoursPerPeriod()).doubleValue()).isCloseTo(1000 / 2.09, within(1e-9));
    assertThat(b.basis()).isEqualTo(BreakEven.Basis.LISTED);
    assertThat(b.subscriptionPrice().converted()).isFalse();
    assertThat(b.paysOffWithinPeriod()).isTrue();
    assertThat(b.utilisation()).isCloseTo(1000 / 2.09 / 730, within(1e-9));
    assertThat(b.subscriptionCheaperFor(Duration.ofHours(500))).isTrue();
    assertThat(b.subscriptionCheaperFor(Duration.ofHours(400))).isFalse();
  }

  @Test
  void subscription_break_even_estimated_from_purchase_price_is_labelled() {
    // GIVEN a card bought for 1599 USD, rented at 0.50 USD/h, with no listed subscription
    Gpu card = gpu("rtx4090", 450, Optional.of(Money.of("1599", "USD")));
    Offering o = onDemand("r", card, 1, Money.of("0.50", "USD"), BillingMode.PER_SECOND);

    // WHEN
    BreakEven yearly = model.subscriptionBreakEven(o, PricingMode.YEARLY);
    BreakEven monthly = model.subscriptionBreakEven(o, PricingMode.MONTHLY);

    // THEN a year's rent ≈ 1599 / 3 = 533 USD, worth 1066 h on demand; a month 44.42 USD, 88.83 h
    assertThat(yearly.subscriptionPrice().amount().isEqualTo(Money.of("533", "USD"))).isTrue();
    assertThat(yearly.hoursPerPeriod()).isEqualTo(Duration.ofHours(1066));
    assertThat(Decimals.hours(monthly.hoursPerPeriod()).doubleValue()).isCloseTo(1599.0 / 36 / 0.5, within(1e-9));
    assertThat(yearly.basis()).isEqualTo(BreakEven.Basis.ESTIMATED_FROM_PURCHASE_PRICE);
    assertThat(yearly.explanation()).contains("estimated").contains("rule of thumb").contains("lower bound");
  }

  @Test
  void estimated_subscription_in_another_currency_is_converted_and_marked() {
    Gpu card = gpu("rtx4090", 450, Optional.of(Money.of("1599", "USD")));
    Offering o = onDemand("r", card, 1, Money.of("2.09", "CNY"), BillingMode.PER_SECOND);
    CostModel fixedRate = model.withExchangeRates(ExchangeRates.empty().with("USD", "CNY", "7"));

    BreakEven yearly = fixedRate.subscriptionBreakEven(o, PricingMode.YEARLY);

    assertThat(yearly.subscriptionPrice().converted()).isTrue();
    assertThat(yearly.subscriptionPrice().amount().isEqualTo(Money.of("3731", "CNY"))).isTrue();   // 533 × 7
  }

  @Test
  void break_even_without_listed_or_purchase_price_is_a_clear_error() {
    Offering o = onDemand("m", Money.of("2.09", "CNY"));

    assertThatThrownBy(() -> model.subscriptionBreakEven(o, PricingMode.YEARLY))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no yearly price")
        .hasMessageContaining("no purchase price");
    assertThatThrownBy(() -> model.subscriptionBreakEven(o, PricingMode.SPOT))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MONTHLY or YEARLY");
  }

  @Test
  void ownership_of_catalog_cards_converts_the_purchase_price_and_says_so() {
    Gpu card = gpu("rtx4090", 450, Optional.of(Money.of("1599", "USD")));
    CostModel fixedRate = model.withExchangeRates(ExchangeRates.empty().with("USD", "CNY", "7"));

    Ownership rig = fixedRate.ownership(card, 2, 3, Money.of("0.6", "CNY"));

    assertThat(rig.purchasePrice().converted()).isTrue();
    assertThat(rig.purchasePrice().amount().isEqualTo(Money.of("22386", "CNY"))).isTrue();   // 2 × 1599 × 7
    assertThat(rig.watts()).isEqualTo(900);
    assertThat(rig.pue()).isEqualTo(Ownership.TYPICAL_PUE);
  }

  @Test
  void ownership_needs_a_purchase_price() {
    assertThatThrownBy(() -> model.ownership(gpu("x"), 1, 3, Money.of("0.1", "USD")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x has no purchase price");
  }

  @Test
  void rank_by_rent_puts_the_cheap_card_first() {
    // GIVEN a cheap card at 0.20 USD/h doing 100 samples/s, and a V100 at 3.06 USD/h doing 250 samples/s
    Gpu cheap = gpu("rtx2060");
    Gpu v100 = gpu("v100");
    Offering cheapOffer = onDemand("small", cheap, 1, Money.of("0.20", "USD"), BillingMode.PER_SECOND);
    Offering v100Offer = onDemand("p3.2xlarge", v100, 1, Money.of("3.06", "USD"), BillingMode.PER_SECOND);

    // WHEN
    List<Efficiency> ranking = model.rankByRent(List.of(v100Offer, cheapOffer), Map.of(cheap, 100.0, v100, 250.0),
        Money.currency("USD"));

    // THEN 1.8 M samples per dollar against 294 k: more than five times as many
    assertThat(ranking).extracting(Efficiency::gpu).containsExactly(cheap, v100);
    assertThat(ranking.get(0).samplesPerMoney()).isCloseTo(100 * 3600 / 0.20, within(1e-6));
    assertThat(ranking.get(0).relativeToBest()).isEqualTo(1.0);
    assertThat(1 / ranking.get(1).relativeToBest()).isCloseTo((100 / 0.20) / (250 / 3.06), within(1e-9))
        .isGreaterThan(5);
  }

  @Test
  void rank_by_rent_counts_every_gpu_of_an_instance_and_converts_prices() {
    Gpu g = gpu("a100");
    Offering eight = onDemand("x8", g, 8, Money.of("40", "CNY"), BillingMode.PER_SECOND);
    CostModel fixedRate = model.withExchangeRates(ExchangeRates.empty().with("USD", "CNY", "8"));

    Efficiency row = fixedRate.rankByRent(List.of(eight), gpu -> 10.0, Money.currency("USD")).get(0);

    assertThat(row.samplesPerSecond()).isEqualTo(80.0);
    assertThat(row.price().converted()).isTrue();
    assertThat(row.samplesPerMoney()).isCloseTo(80.0 * 3600 / 5, within(1e-9));
  }

  @Test
  void rank_rejects_missing_or_bad_throughput_and_missing_purchase_price() {
    Gpu g = gpu("t4");
    Offering o = onDemand("t", g, 1, Money.of("1", "USD"), BillingMode.PER_SECOND);

    assertThatThrownBy(() -> model.rankByRent(List.of(o), Map.of(), Money.currency("USD")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no throughput given for t4");
    assertThatThrownBy(() -> model.rankByRent(List.of(o), gpu -> -1, Money.currency("USD")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("throughput of t4").hasMessageContaining("-1");
    assertThatThrownBy(() -> model.rankByPurchasePrice(List.of(g), gpu -> 1, Money.currency("USD")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("t4 has no purchase price");
  }

  @Test
  void rank_by_purchase_price_divides_throughput_by_card_price() {
    Gpu cheap = gpu("rtx3060", 170, Optional.of(Money.of("329", "USD")));
    Gpu dear = gpu("rtx4090", 450, Optional.of(Money.of("1599", "USD")));

    List<Efficiency> ranking = model.rankByPurchasePrice(List.of(dear, cheap), Map.of(cheap, 100.0, dear, 300.0),
        Money.currency("USD"));

    assertThat(ranking).extracting(Efficiency::gpu).containsExactly(cheap, dear);
    assertThat(ranking.get(1).samplesPerMoney()).isCloseTo(300 / 1599.0, within(1e-12));
    assertThat(ranking.get(1).offering()).isEmpty();
  }

  @Test
  void cost_rejects_fewer_than_one_instance() {
    Offering o = onDemand("m", Money.of("1", "USD"));

    assertThatThrownBy(() -> model.cost(o, 0, Duration.ofHours(1), PricingMode.ON_DEMAND))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("instances must be >= 1, was 0");
  }

  @Test
  void default_exchange_rates_are_the_bundled_ones() {
    assertThat(model.exchangeRates()).isSameAs(ExchangeRates.bundled());
    assertThat(model.withExchangeRates(ExchangeRates.empty()).exchangeRates().rates()).isEmpty();
  }
}
