package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Currency;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MoneyTest {
  private static final Currency USD = Currency.getInstance("USD");

  @Test
  void seed_cost_example_divides_by_the_speedup() {
    // GIVEN a V100 at 1/h that needs 20 h, and an A100 at 2/h that is 2x as fast (seed document's example)
    BigDecimal referenceHours = new BigDecimal("20");
    BigDecimal speedup = new BigDecimal("2");
    Money v100PerHour = Money.of("1", "CNY");
    Money a100PerHour = Money.of("2", "CNY");

    // WHEN cost = price per hour x reference hours / speedup
    Money v100 = v100PerHour.times(referenceHours);
    Money a100 = a100PerHour.times(referenceHours).dividedBy(speedup, 2);

    // THEN both cost 20, not 40 (the seed multiplies by the speedup instead of dividing)
    assertThat(a100.isEqualTo(Money.of("20", "CNY"))).isTrue();
    assertThat(a100.isEqualTo(v100)).isTrue();
    assertThat(a100).hasToString("20.00 CNY");
  }

  @Test
  void arithmetic_across_currencies_fails_naming_both() {
    assertThatThrownBy(() -> Money.of("1", "USD").plus(Money.of("1", "CNY")))
        .isInstanceOfSatisfying(CurrencyMismatchException.class, e -> {
          assertThat(e.first()).isEqualTo(USD);
          assertThat(e.second()).isEqualTo(Currency.getInstance("CNY"));
        })
        .hasMessage("cannot combine USD with CNY: convert one with an explicit exchange rate first");
    assertThatThrownBy(() -> Money.of("1", "USD").minus(Money.of("1", "EUR")))
        .isInstanceOf(CurrencyMismatchException.class);
    assertThatThrownBy(() -> Money.of("1", "USD").compareTo(Money.of("1", "EUR")))
        .isInstanceOf(CurrencyMismatchException.class);
  }

  @Test
  void conversion_uses_the_callers_rate() {
    Money usd = Money.of("100", "CNY").convertTo(USD, new BigDecimal("0.14"));
    assertThat(usd.isEqualTo(Money.of("14", "USD"))).isTrue();
  }

  @Test
  void conversion_rejects_a_rate_that_is_not_positive() {
    assertThatThrownBy(() -> Money.of("100", "CNY").convertTo(USD, BigDecimal.ZERO))
        .hasMessage("exchange rate CNY->USD must be > 0, was 0");
  }

  @ParameterizedTest(name = "{0} {1} rounds to {2}")
  @CsvSource({
      "2.345, USD, 2.34",
      "2.355, USD, 2.36",
      "2.3449, USD, 2.34",
      "-2.345, USD, -2.34",
      "1.5, JPY, 2",
      "2.5, JPY, 2",
      "2.09, CNY, 2.09",
  })
  void rounds_half_even_to_the_minor_unit(String amount, String currency, String expected) {
    assertThat(Money.of(amount, currency).rounded().amount()).isEqualTo(new BigDecimal(expected));
  }

  @Test
  void division_keeps_the_scale_asked_for() {
    assertThat(Money.of("10", "USD").dividedBy(new BigDecimal("3"), 4).amount()).isEqualTo(new BigDecimal("3.3333"));
    assertThatThrownBy(() -> Money.of("10", "USD").dividedBy(BigDecimal.ZERO, 2))
        .hasMessage("cannot divide 10 USD by zero");
  }

  @Test
  void parsing_rejects_bad_amounts_and_unknown_currencies() {
    assertThatThrownBy(() -> Money.of("abc", "USD"))
        .hasMessage("amount must be a decimal number such as 2.09, was 'abc'");
    assertThatThrownBy(() -> Money.of("1", "XYZ"))
        .hasMessage("currency must be an ISO 4217 code such as USD, CNY or EUR, was 'XYZ'");
    assertThat(Money.currency(" cny ")).isEqualTo(Currency.getInstance("CNY"));
  }

  @Test
  void equality_of_value_ignores_scale_but_record_equality_does_not() {
    assertThat(Money.of("2.0", "CNY").isEqualTo(Money.of("2.00", "CNY"))).isTrue();
    assertThat(Money.of("2.0", "CNY")).isNotEqualTo(Money.of("2.00", "CNY"));
    assertThat(Money.of("2.0", "CNY").isEqualTo(Money.of("2.0", "USD"))).isFalse();
  }

  @Test
  void sign_queries_and_display() {
    assertThat(Money.of("-0.01", "USD").isNegative()).isTrue();
    assertThat(Money.zero(USD).isZero()).isTrue();
    assertThat(Money.of("2.09", "CNY")).hasToString("2.09 CNY");
    assertThat(Money.of("1E+3", "USD")).hasToString("1000 USD");
  }
}
