package io.github.gpusizer.core.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.gpusizer.catalog.CurrencyMismatchException;
import io.github.gpusizer.catalog.Money;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OwnershipTest {

  // one RTX 4090: 1599 USD launch price, 450 W, 0.15 USD/kWh, written off over 3 years, PUE 1.58
  private final Ownership rig = Ownership.of(Money.of("1599", "USD"), 3, 450, Money.of("0.15", "USD"));

  @Test
  void fixed_cost_is_the_purchase_price_spread_over_the_years_plus_hosting() {
    assertThat(rig.fixedPerYear().isEqualTo(Money.of("533", "USD"))).isTrue();
    assertThat(rig.withHostingPerMonth(Money.of("10", "USD")).fixedPerYear().isEqualTo(Money.of("653", "USD"))).isTrue();
  }

  @Test
  void energy_per_hour_is_power_times_draw_times_pue_times_price() {
    // 0.45 kW × 1.0 × 1.58 × 0.15 USD/kWh = 0.10665 USD/h
    assertThat(rig.energyPerHourOfUse().isEqualTo(Money.of("0.10665", "USD"))).isTrue();
    // at half draw in a PUE-1.1 room: 0.45 × 0.5 × 1.1 × 0.15 = 0.037125
    assertThat(rig.withPowerDraw(0.5).withPue(1.1).energyPerHourOfUse().isEqualTo(Money.of("0.037125", "USD"))).isTrue();
  }

  @Test
  void cost_per_year_adds_energy_for_the_hours_used() {
    assertThat(rig.costPerYear(Duration.ofHours(2000)).isEqualTo(Money.of("746.30", "USD"))).isTrue();
  }

  @Test
  void break_even_is_fixed_cost_over_the_hourly_margin() {
    // WHEN renting the same card costs 0.50 USD/h
    BuyVsRent b = rig.versus(Money.of("0.50", "USD"));

    // THEN 533 / (0.50 - 0.10665) = 1355.03 h a year, 15.5 % of the year
    double hours = 533 / (0.50 - 0.10665);
    assertThat(Decimals.hours(b.breakEvenPerYear().orElseThrow()).doubleValue()).isCloseTo(hours, within(1e-6));
    assertThat(b.breakEvenUtilisation().getAsDouble()).isCloseTo(hours / 8760, within(1e-9));
    assertThat(b.ownsCheaperAt(Duration.ofHours(2000))).isTrue();
    assertThat(b.ownsCheaperAt(Duration.ofHours(1000))).isFalse();
    assertThat(b.verdict()).contains("owning pays off above 1355 h");
  }

  @Test
  void owning_never_pays_off_when_rent_is_below_the_electricity() {
    BuyVsRent b = rig.versus(Money.of("0.10", "USD"));

    assertThat(b.breakEvenPerYear()).isEmpty();
    assertThat(b.breakEvenUtilisation()).isEmpty();
    assertThat(b.verdict()).contains("never pays off");
  }

  @Test
  void owning_never_pays_off_within_a_year_when_the_break_even_exceeds_8760_hours() {
    BuyVsRent b = rig.versus(Money.of("0.11", "USD"));   // margin 0.00335 USD/h: 159,104 h

    assertThat(b.breakEvenPerYear()).isEmpty();
    assertThat(b.verdict()).contains("8760 h");
  }

  @Test
  void amounts_in_different_currencies_do_not_mix() {
    assertThatThrownBy(() -> Ownership.of(Money.of("1599", "USD"), 3, 450, Money.of("0.6", "CNY")))
        .isInstanceOf(CurrencyMismatchException.class).hasMessageContaining("USD").hasMessageContaining("CNY");
    assertThatThrownBy(() -> rig.versus(Money.of("3.5", "CNY")))
        .isInstanceOf(CurrencyMismatchException.class);
  }

  @Test
  void rejects_impossible_inputs_naming_the_field() {
    Money usd = Money.of("1", "USD");
    assertThatThrownBy(() -> Ownership.of(usd, 0, 450, usd)).hasMessageContaining("years").hasMessageContaining("0");
    assertThatThrownBy(() -> Ownership.of(usd, 3, 0, usd)).hasMessageContaining("power must be > 0 W");
    assertThatThrownBy(() -> rig.withPue(0.9)).hasMessageContaining("PUE must be >= 1").hasMessageContaining("0.9");
    assertThatThrownBy(() -> rig.withPowerDraw(1.5)).hasMessageContaining("(0, 1]").hasMessageContaining("1.5");
    assertThatThrownBy(() -> rig.costPerYear(Duration.ofHours(9000))).hasMessageContaining("8760");
    assertThatThrownBy(() -> Ownership.of(Money.of(BigDecimal.ZERO, Money.currency("USD")), 3, 1, usd))
        .hasMessageContaining("purchase price must be > 0");
  }
}
