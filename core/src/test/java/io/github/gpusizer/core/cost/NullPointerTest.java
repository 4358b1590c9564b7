package io.github.gpusizer.core.cost;

import com.google.common.testing.NullPointerTester;
import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Currency;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NullPointerTest {

  private final Offering offering = Fixtures.onDemand("o", Money.of("1", "USD"));

  private NullPointerTester tester() {
    return new NullPointerTester()
        .setDefault(Money.class, Money.of("1", "USD"))
        .setDefault(Currency.class, Money.currency("USD"))
        .setDefault(Offering.class, offering)
        .setDefault(Gpu.class, Fixtures.gpu("g", 300, Optional.of(Money.of("1000", "USD"))))
        .setDefault(DataSize.class, DataSize.ofGB(1))
        .setDefault(Duration.class, Duration.ofHours(1))
        .setDefault(BigDecimal.class, BigDecimal.ONE)
        .setDefault(String.class, "USD")
        .setDefault(BillingMode.class, BillingMode.PER_SECOND)
        .setDefault(PricingMode.class, PricingMode.ON_DEMAND)
        .setDefault(Interruptions.class, Interruptions.of(0.01, Duration.ofHours(1), Duration.ZERO))
        .setDefault(List.class, List.of(RentalOption.of(offering, Duration.ofHours(1))))
        .setDefault(PriceQuote.class, PriceQuote.of(Money.of("1", "USD")));
  }

  @Test
  void public_entry_points_reject_nulls() {
    NullPointerTester t = tester();
    t.testAllPublicStaticMethods(CostModel.class);
    t.testAllPublicInstanceMethods(CostModel.defaults());
    t.testAllPublicStaticMethods(ExchangeRates.class);
    t.testAllPublicInstanceMethods(ExchangeRates.bundled());
    t.testAllPublicStaticMethods(RentalComparison.class);
    t.testAllPublicStaticMethods(RentalOption.class);
    t.testAllPublicInstanceMethods(RentalOption.of(offering, Duration.ofHours(1)));
    t.testAllPublicStaticMethods(Interruptions.class);
    t.testAllPublicStaticMethods(Ownership.class);
    t.testAllPublicInstanceMethods(Ownership.of(Money.of("1000", "USD"), 3, 300, Money.of("0.1", "USD")));
    t.testAllPublicStaticMethods(PriceQuote.class);
  }
}
