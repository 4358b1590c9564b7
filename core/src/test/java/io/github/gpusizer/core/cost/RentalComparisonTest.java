package io.github.gpusizer.core.cost;

import static io.github.gpusizer.core.cost.Fixtures.gpu;
import static io.github.gpusizer.core.cost.Fixtures.onDemand;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RentalComparisonTest {

  private final Offering a100 = onDemand("a100", gpu("a100"), 1, Money.of("2", "CNY"), BillingMode.PER_SECOND);
  private final Offering v100 = onDemand("v100", gpu("v100"), 1, Money.of("1", "CNY"), BillingMode.PER_SECOND);

  @Test
  void seed_example_short_high_end_and_long_mid_range_cost_the_same() {
    // GIVEN the seed's job: 20 h on a V100 at 1 CNY/h; an A100 twice as fast at 2 CNY/h
    List<RentalOption> options = List.of(
        RentalOption.fromReference(v100, Duration.ofHours(20), 1.0),
        RentalOption.fromReference(a100, Duration.ofHours(20), 2.0));

    // WHEN
    RentalComparison c = RentalComparison.of(options);

    // THEN both cost 20 CNY (not 40 against 20, as seed 001 computes); the A100 finishes first
    assertThat(c.rows()).extracting(r -> r.option().offering()).containsExactly(a100, v100);
    assertThat(c.rows()).allSatisfy(r -> assertThat(r.cost().amount().isEqualTo(Money.of("20", "CNY"))).isTrue());
    assertThat(c.rows()).extracting(RentalComparison.Row::relativeToCheapest).containsExactly(1.0, 1.0);
    assertThat(c.rows().get(0).billed()).isEqualTo(Duration.ofHours(10));
    assertThat(c.rows().get(1).verdict()).isEqualTo("cheapest, takes 2.0x as long (20 h)");
    assertThat(c.verdict()).isEqualTo("test a100 and test v100 cost the same (20.00 CNY); test a100 finishes first, "
        + "in 10 h against 20 h.");
  }

  @Test
  void short_rental_of_the_fast_card_can_be_cheapest_and_fastest() {
    // the A100 is 3x as fast here: 2 CNY/h × 20/3 h = 13.33 CNY against 20 CNY
    RentalComparison c = RentalComparison.of(List.of(
        RentalOption.fromReference(v100, Duration.ofHours(20), 1.0),
        RentalOption.fromReference(a100, Duration.ofHours(20), 3.0)));

    assertThat(c.cheapest().option().offering()).isEqualTo(a100);
    assertThat(c.fastest()).isEqualTo(c.cheapest());
    assertThat(c.rows().get(1).relativeToCheapest()).isEqualTo(1.5);
    assertThat(c.rows().get(1).verdict()).isEqualTo("costs 1.50x the cheapest (+6.67 CNY), takes 3.0x as long (20 h)");
    assertThat(c.verdict()).startsWith("test a100 is cheapest: 13.33 CNY for 6 h 40 min.")
        .endsWith("It is also the fastest.");
  }

  @Test
  void the_fastest_option_is_named_when_it_is_not_the_cheapest() {
    // the A100 only 1.5x as fast: 2 × 13.33 h = 26.67 CNY
    RentalComparison c = RentalComparison.of(List.of(
        RentalOption.fromReference(a100, Duration.ofHours(20), 1.5),
        RentalOption.fromReference(v100, Duration.ofHours(20), 1.0)));

    assertThat(c.cheapest().option().offering()).isEqualTo(v100);
    assertThat(c.fastest().option().offering()).isEqualTo(a100);
    assertThat(c.verdict()).isEqualTo("test v100 is cheapest: 20.00 CNY for 20 h. The fastest, test a100, takes "
        + "13 h 20 min and costs 1.33x the cheapest (+6.67 CNY).");
  }

  @Test
  void billing_rounding_and_instances_count() {
    Offering hourly = onDemand("hourly", gpu("t4"), 1, Money.of("1", "USD"), BillingMode.PER_HOUR);

    RentalComparison c = RentalComparison.of(List.of(
        RentalOption.of(hourly, Duration.ofMinutes(61)).withInstances(3)));

    assertThat(c.cheapest().billed()).isEqualTo(Duration.ofHours(2));
    assertThat(c.cheapest().cost().amount().isEqualTo(Money.of("6", "USD"))).isTrue();
    assertThat(c.cheapest().option().label()).isEqualTo("test hourly x3");
  }

  @Test
  void options_in_other_currencies_are_converted_and_marked() {
    Offering usd = onDemand("us", gpu("a100"), 1, Money.of("1", "USD"), BillingMode.PER_SECOND);
    CostModel model = CostModel.defaults().withExchangeRates(ExchangeRates.bundled().with("USD", "CNY", "7"));

    RentalComparison c = model.compare(List.of(RentalOption.of(v100, Duration.ofHours(10)),
        RentalOption.of(usd, Duration.ofHours(10))));

    assertThat(c.currency()).isEqualTo(Money.currency("CNY"));
    RentalComparison.Row converted = c.rows().get(1);
    assertThat(converted.option().offering()).isEqualTo(usd);
    assertThat(converted.cost().converted()).isTrue();
    assertThat(converted.cost().amount().isEqualTo(Money.of("70", "CNY"))).isTrue();
    assertThat(c.rows().get(0).cost().converted()).isFalse();
    assertThat(c.verdict()).contains("Converted to CNY with reference exchange rates: test us (from USD)");
  }

  @Test
  void storage_is_added_for_the_wall_time() {
    CostModel model = CostModel.defaults().withStoragePrice(Money.of("0.73", "CNY"), DataSize.ofGB(1));

    RentalComparison c = model.compare(List.of(RentalOption.of(v100, Duration.ofHours(10))
        .withStorage(DataSize.ofGB(100))));

    // 10 CNY compute + 100 GB × 0.73 CNY × 10/730 month = 1 CNY
    assertThat(c.cheapest().cost().amount().isEqualTo(Money.of("11", "CNY"))).isTrue();
  }

  @Test
  void spot_and_subscription_options_use_their_prices() {
    Offering spot = Fixtures.withSpot(v100, Money.of("0.3", "CNY"));

    RentalComparison c = RentalComparison.of(List.of(RentalOption.of(spot, Duration.ofHours(10))
        .withMode(PricingMode.SPOT)));

    assertThat(c.cheapest().cost().amount().isEqualTo(Money.of("3", "CNY"))).isTrue();
    assertThat(c.cheapest().option().label()).isEqualTo("test v100 spot");
  }

  @Test
  void rejects_no_options_and_bad_options() {
    assertThatThrownBy(() -> RentalComparison.of(List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
    assertThatThrownBy(() -> RentalOption.of(v100, Duration.ofHours(1)).withInstances(0))
        .hasMessageContaining("instances must be >= 1, was 0");
    assertThatThrownBy(() -> RentalOption.fromReference(v100, Duration.ofHours(1), -2))
        .hasMessageContaining("speedup").hasMessageContaining("-2.0");
  }

  @Test
  void prints_a_table_and_the_verdict() {
    RentalComparison c = RentalComparison.of(List.of(RentalOption.of(v100, Duration.ofHours(20)),
        RentalOption.of(a100, Duration.ofHours(10)).withLabel("A100 short")));

    assertThat(c.toString()).contains("A100 short").contains("20.00 CNY").contains("cost the same");
  }
}
