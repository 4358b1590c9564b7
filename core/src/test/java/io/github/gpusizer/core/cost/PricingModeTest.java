package io.github.gpusizer.core.cost;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PricingModeTest {
  private static final Offering PLAIN = Fixtures.onDemand("x1", Money.of("2.50", "USD"));

  @Test
  void each_mode_reads_its_own_price_and_is_empty_where_the_offering_is_not_sold_that_way() {
    Offering all = Fixtures.withSubscriptions(Fixtures.withSpot(PLAIN, Money.of("0.90", "USD")),
        Optional.of(Money.of("1200", "USD")), Optional.of(Money.of("12000", "USD")));
    assertThat(PricingMode.ON_DEMAND.price(all)).contains(Money.of("2.50", "USD"));
    assertThat(PricingMode.SPOT.price(all)).contains(Money.of("0.90", "USD"));
    assertThat(PricingMode.MONTHLY.price(all)).contains(Money.of("1200", "USD"));
    assertThat(PricingMode.YEARLY.price(all)).contains(Money.of("12000", "USD"));
    assertThat(PricingMode.SPOT.price(PLAIN)).isEmpty();
    assertThat(PricingMode.MONTHLY.price(PLAIN)).isEmpty();
  }

  @Test
  void labels_are_the_words_the_texts_use() {
    assertThat(PricingMode.ON_DEMAND.label()).isEqualTo("on-demand");
    assertThat(PricingMode.SPOT.label()).isEqualTo("spot");
    assertThat(PricingMode.MONTHLY.label()).isEqualTo("monthly");
    assertThat(PricingMode.YEARLY.label()).isEqualTo("yearly");
  }
}
