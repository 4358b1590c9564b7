package io.github.gpusizer.core.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The sourced default spot interruption rates (issue #15). */
class SpotInterruptionRatesTest {

  @Test
  void aws_default_is_a_fifth_of_capacity_reclaimed_in_a_730_hour_month() {
    // GIVEN the AWS Spot Instance Advisor's worst band, >20 % a month, as a constant hazard
    double rate = SpotInterruptionRates.bundled().rate("aws").orElseThrow().perHour();

    // THEN 1 - exp(-rate x 730 h) is 20 %
    assertThat(1 - Math.exp(-rate * 730)).isCloseTo(0.20, within(1e-12));
    assertThat(rate).isCloseTo(3.057e-4, within(1e-7));
  }

  @Test
  void azure_default_is_a_fifth_evicted_in_28_days() {
    double rate = SpotInterruptionRates.bundled().rate("azure").orElseThrow().perHour();
    assertThat(1 - Math.exp(-rate * 28 * 24)).isCloseTo(0.20, within(1e-12));
  }

  @Test
  void gcp_default_is_one_preemption_per_24_hours_the_preemptible_bound() {
    assertThat(SpotInterruptionRates.bundled().rate("gcp").orElseThrow().perHour()).isEqualTo(1.0 / 24);
  }

  @Test
  void providers_without_spot_or_without_a_published_figure_have_no_default() {
    assertThat(SpotInterruptionRates.bundled().rate("lambda")).isEmpty();
    assertThat(SpotInterruptionRates.bundled().rate("vast")).isEmpty();
    assertThat(SpotInterruptionRates.none().rate("aws")).isEmpty();
  }

  @Test
  void provider_names_ignore_case_and_every_default_names_its_basis() {
    assertThat(SpotInterruptionRates.bundled().rate("AWS")).isEqualTo(SpotInterruptionRates.bundled().rate("aws"));
    assertThat(SpotInterruptionRates.bundled().rate("aws").orElseThrow().basis()).contains("Spot Instance Advisor");
    assertThat(SpotInterruptionRates.bundled().rate("gcp").orElseThrow().basis()).contains("24 h");
  }

  @Test
  void a_caller_sets_a_provider_default_without_changing_the_bundled_one() {
    SpotInterruptionRates.Rate measured = new SpotInterruptionRates.Rate(0.01, "measured on our fleet");
    SpotInterruptionRates rates = SpotInterruptionRates.bundled().with("Vast", measured);

    assertThat(rates.rate("vast")).contains(measured);
    assertThat(rates.rate("aws")).isEqualTo(SpotInterruptionRates.bundled().rate("aws"));
    assertThat(SpotInterruptionRates.bundled().rate("vast")).isEmpty();
  }

  @Test
  void a_fraction_reclaimed_converts_to_a_constant_hourly_rate() {
    assertThat(SpotInterruptionRates.perHour(0, Duration.ofHours(10))).isZero();
    assertThat(SpotInterruptionRates.perHour(1 - Math.exp(-1), Duration.ofHours(10))).isCloseTo(0.1, within(1e-12));
    assertThatIllegalArgumentException().isThrownBy(() -> SpotInterruptionRates.perHour(1, Duration.ofHours(1)))
        .withMessage("fraction reclaimed must be in [0, 1), was 1.0");
    assertThatIllegalArgumentException().isThrownBy(() -> SpotInterruptionRates.perHour(0.1, Duration.ZERO))
        .withMessage("period must be > 0, was PT0S");
    assertThatIllegalArgumentException().isThrownBy(() -> new SpotInterruptionRates.Rate(-1, "x"))
        .withMessage("interruptions per hour must be finite and >= 0, was -1.0");
  }
}
