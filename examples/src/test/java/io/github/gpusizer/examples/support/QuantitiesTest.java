package io.github.gpusizer.examples.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.gpusizer.catalog.Money;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Currency;
import org.junit.jupiter.api.Test;

class QuantitiesTest {
  private static final Currency USD = Currency.getInstance("USD");

  @Test
  void reads_si_suffixes_and_exponents() {
    assertThat(Quantities.number("--tokens", "7e9")).isEqualTo(7e9);
    assertThat(Quantities.count("--params", "7B")).isEqualTo(7_000_000_000L);
    assertThat(Quantities.count("--params", "7b")).isEqualTo(7_000_000_000L);
    assertThat(Quantities.count("--tokens", "1.5T")).isEqualTo(1_500_000_000_000L);
    assertThat(Quantities.count("--tokens", "50M")).isEqualTo(50_000_000L);
    assertThat(Quantities.count("--seq", "2k")).isEqualTo(2_000L);
    assertThat(Quantities.count("--seq", "4Ki")).isEqualTo(4_096L);
    assertThat(Quantities.count("--params", "6_738_415_616")).isEqualTo(6_738_415_616L);
  }

  @Test
  void plain_integers_are_exact_beyond_double_precision() {
    assertThat(Quantities.count("--params", "123456789012345678")).isEqualTo(123456789012345678L);
  }

  @Test
  void every_long_written_plainly_reads_back_unchanged() {
    qt().forAll(longs().between(0, Long.MAX_VALUE / 10)).check(n -> Quantities.count("n", Long.toString(n)) == n);
  }

  @Test
  void every_whole_number_of_millions_reads_back_with_suffix() {
    qt().forAll(integers().between(0, 1_000_000)).check(n -> Quantities.count("n", n + "M") == n * 1_000_000L);
  }

  @Test
  void rejects_unknown_suffix_naming_field_and_accepted_suffixes() {
    assertThatThrownBy(() -> Quantities.number("--tokens", "5X"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--tokens").hasMessageContaining("'X'").hasMessageContaining("k, M, B");
  }

  @Test
  void rejects_text_and_negative_numbers() {
    assertThatThrownBy(() -> Quantities.number("--tokens", "lots"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--tokens must be a number such as 7e9");
    assertThatThrownBy(() -> Quantities.number("--tokens", "-5"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(">= 0");
  }

  @Test
  void rejects_fractional_counts() {
    assertThatThrownBy(() -> Quantities.integer("--micro-batch", "1.5", 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole number");
    assertThatThrownBy(() -> Quantities.integer("--micro-batch", "0", 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..");
  }

  @Test
  void reads_durations_in_several_forms() {
    assertThat(Quantities.duration("--deadline", "24h")).isEqualTo(Duration.ofHours(24));
    assertThat(Quantities.duration("--deadline", "90m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Quantities.duration("--deadline", "90min")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Quantities.duration("--deadline", "1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Quantities.duration("--deadline", "1d12h")).isEqualTo(Duration.ofHours(36));
    assertThat(Quantities.duration("--deadline", "1w")).isEqualTo(Duration.ofDays(7));
    assertThat(Quantities.duration("--deadline", "3600s")).isEqualTo(Duration.ofHours(1));
    assertThat(Quantities.duration("--deadline", "PT36H")).isEqualTo(Duration.ofHours(36));
  }

  @Test
  void rejects_durations_without_unit_or_zero() {
    assertThatThrownBy(() -> Quantities.duration("--deadline", "24"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--deadline must be a duration such as 24h");
    assertThatThrownBy(() -> Quantities.duration("--deadline", "0h"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("> 0");
    assertThatThrownBy(() -> Quantities.duration("--deadline", "24hours"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reads_money_with_currency_before_after_or_from_default() {
    assertThat(Quantities.money("--budget", "2000CNY", USD).isEqualTo(Money.of("2000", "CNY"))).isTrue();
    assertThat(Quantities.money("--budget", "2000 cny", USD).isEqualTo(Money.of("2000", "CNY"))).isTrue();
    assertThat(Quantities.money("--budget", "EUR 12.5", USD).isEqualTo(Money.of("12.5", "EUR"))).isTrue();
    assertThat(Quantities.money("--budget", "300", USD).isEqualTo(Money.of("300", "USD"))).isTrue();
  }

  @Test
  void rejects_unknown_currency_naming_field() {
    assertThatThrownBy(() -> Quantities.money("--budget", "2000XYZ", USD))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--budget").hasMessageContaining("XYZ");
  }

  @Test
  void reads_exchange_rate() {
    Quantities.Rate rate = Quantities.rate("--rate", "CNY:USD=0.14");
    assertThat(rate.from().getCurrencyCode()).isEqualTo("CNY");
    assertThat(rate.to().getCurrencyCode()).isEqualTo("USD");
    assertThat(rate.rate()).isEqualByComparingTo(new BigDecimal("0.14"));
  }

  @Test
  void rejects_malformed_or_non_positive_rate() {
    assertThatThrownBy(() -> Quantities.rate("--rate", "CNY=0.14"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("FROM:TO=RATE");
    assertThatThrownBy(() -> Quantities.rate("--rate", "CNY:USD=0"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("> 0");
  }

  @Test
  void formatted_durations_read_back_rounded_up() {
    assertThat(Quantities.format(Duration.ofMinutes(53).plusSeconds(10))).isEqualTo("54m");
    assertThat(Quantities.format(Duration.ofSeconds(45))).isEqualTo("45s");
    assertThat(Quantities.format(Duration.ofHours(26).plusMinutes(5))).isEqualTo("1d2h5m");
    qt().forAll(longs().between(1, 10_000_000)).check(s -> {
      Duration d = Duration.ofSeconds(s);
      Duration back = Quantities.duration("d", Quantities.format(d));
      return back.compareTo(d) >= 0 && back.minus(d).getSeconds() < 60;
    });
  }

  @Test
  void a_duration_past_a_century_is_refused_where_it_is_read_whatever_its_spelling() {
    // 9.3e9 s and ISO P100000000000D once passed the parse and overflowed the engine's nanoseconds (292 years)
    for (String text : new String[] {"9300000000s", "P100000000000D", "36526d", "PT876625H"}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> Quantities.duration("--deadline", text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--deadline must be at most 100 years");
    }
    org.assertj.core.api.Assertions.assertThat(Quantities.duration("--deadline", "36525d"))
        .isEqualTo(Quantities.MAX_DURATION);
  }
}
