package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.LocalDate;
import java.time.Period;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class OfferingStalenessTest {
  private static final LocalDate READ = LocalDate.of(2025, 1, 6);

  private static Offering readOn(LocalDate date) {
    Gpu a100 = Catalog.bundled().gpu("a100-sxm4-40gb");
    return new Offering("aws", "p4d.24xlarge", "us-east-1", a100, 8, 96, DataSize.ofGiB(1152), DataSize.ZERO,
        Money.of("32.77", "USD"), Optional.empty(), BillingMode.PER_SECOND, Optional.empty(), Optional.empty(),
        OptionalDouble.of(400), Fabric.CLUSTER, date, "test");
  }

  @Test
  void a_price_older_than_the_threshold_carries_a_warning_naming_its_date_and_age() {
    Optional<String> warning = readOn(READ).stalenessWarning(LocalDate.of(2026, 11, 30), Offering.STALE_AFTER);
    assertThat(warning).contains("the price of aws p4d.24xlarge (us-east-1) was read on 2025-01-06, 693 days before "
        + "2026-11-30 (older than 180 days): check the provider's current price");
  }

  @Test
  void a_price_exactly_at_the_threshold_is_not_stale_one_day_later_it_is() {
    LocalDate edge = READ.plusDays(180);
    assertThat(readOn(READ).stalenessWarning(edge, Offering.STALE_AFTER)).isEmpty();
    assertThat(readOn(READ).stalenessWarning(edge.plusDays(1), Offering.STALE_AFTER)).isPresent();
  }

  @Test
  void the_threshold_is_the_callers_to_choose() {
    LocalDate today = READ.plusDays(40);
    assertThat(readOn(READ).stalenessWarning(today, Period.ofDays(30))).get().asString().contains("older than 30 days");
    assertThat(readOn(READ).stalenessWarning(today, Period.ofDays(90))).isEmpty();
    assertThat(readOn(READ).stalenessWarning(today, Period.ofYears(1))).isEmpty();
  }

  @Test
  void price_age_counts_whole_days_and_a_future_date_is_not_stale() {
    assertThat(readOn(READ).priceAgeDays(LocalDate.of(2025, 2, 5))).isEqualTo(30);
    assertThat(readOn(READ).priceAgeDays(LocalDate.of(2025, 1, 1))).isEqualTo(-5);
    assertThat(readOn(READ).stalenessWarning(LocalDate.of(2025, 1, 1), Offering.STALE_AFTER)).isEmpty();
  }

  @Test
  void a_negative_threshold_is_rejected_with_its_value() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> readOn(READ).stalenessWarning(READ, Period.ofDays(-1)))
        .withMessage("staleAfter must be >= 0, was P-1D");
  }
}
