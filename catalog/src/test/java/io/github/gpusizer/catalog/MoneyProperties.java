package io.github.gpusizer.catalog;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.math.BigDecimal;
import java.util.Currency;
import org.junit.jupiter.api.Test;

class MoneyProperties {
  private static final Currency CNY = Currency.getInstance("CNY");

  private static Money cents(long cents) {
    return Money.of(BigDecimal.valueOf(cents, 2), CNY);
  }

  @Test
  void adding_then_subtracting_gives_the_amount_back() {
    qt().forAll(longs().between(-1_000_000_000_000L, 1_000_000_000_000L),
            longs().between(-1_000_000_000_000L, 1_000_000_000_000L))
        .check((a, b) -> cents(a).plus(cents(b)).minus(cents(b)).isEqualTo(cents(a)));
  }

  @Test
  void cost_divided_by_a_speedup_times_the_speedup_is_the_reference_cost() {
    // price x hours / speedup, for speedups that divide a power of ten, is exact at enough decimal places
    int[] speedups = {1, 2, 4, 5, 8, 10, 16, 20, 25};
    qt().forAll(longs().between(0, 100_000_000L), integers().between(1, 10_000), integers().between(0, 8))
        .check((priceCents, hours, i) -> {
          BigDecimal speedup = BigDecimal.valueOf(speedups[i]);
          Money reference = cents(priceCents).times(hours);
          Money faster = reference.dividedBy(speedup, 8);
          return faster.times(speedup).isEqualTo(reference);
        });
  }

  @Test
  void rounding_moves_an_amount_by_at_most_half_a_minor_unit_and_is_idempotent() {
    BigDecimal halfCent = new BigDecimal("0.005");
    qt().forAll(longs().between(-1_000_000_000_000L, 1_000_000_000_000L), integers().between(0, 6))
        .check((units, scale) -> {
          Money money = Money.of(BigDecimal.valueOf(units, scale), CNY);
          Money rounded = money.rounded();
          return rounded.amount().subtract(money.amount()).abs().compareTo(halfCent) <= 0
              && rounded.rounded().equals(rounded)
              && rounded.amount().scale() == 2;
        });
  }
}
