package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OfferingFilterTest {
  private final Catalog catalog = Fixtures.gpusAndOfferings();

  private java.util.List<String> keys(OfferingFilter filter) {
    return catalog.offerings(filter).stream().map(Offering::key).toList();
  }

  @Test
  void any_filter_lists_every_offering() {
    assertThat(catalog.offerings(OfferingFilter.any())).isEqualTo(catalog.offerings());
  }

  @Test
  void filters_by_gpu_name_or_alias() {
    assertThat(keys(OfferingFilter.builder().gpu("a100 80gb").build())).containsExactly("aws/p4de.24xlarge/us-east-1");
    assertThat(keys(OfferingFilter.builder().gpu("NVIDIA A100-SXM4-40GB").build()))
        .containsExactly("aws/p4d.24xlarge/us-east-1");
  }

  @Test
  void unknown_gpu_in_a_filter_fails_with_suggestions() {
    assertThatThrownBy(() -> catalog.offerings(OfferingFilter.builder().gpu("A10O").build()))
        .isInstanceOf(UnknownGpuException.class);
  }

  @Test
  void filters_by_provider_and_region_ignoring_case() {
    assertThat(keys(OfferingFilter.builder().provider("AWS").region("US-WEST-2").build()))
        .containsExactly("aws/p5.48xlarge/us-west-2");
  }

  @Test
  void filters_by_gpu_count_range() {
    assertThat(keys(OfferingFilter.builder().minGpuCount(2).maxGpuCount(8).provider("aws").build()))
        .containsExactly("aws/p4d.24xlarge/us-east-1", "aws/p4de.24xlarge/us-east-1", "aws/p5.48xlarge/us-west-2");
    assertThat(keys(OfferingFilter.builder().gpuCount(1).provider("aws").build()))
        .containsExactly("aws/g4dn.xlarge/us-east-1");
  }

  @Test
  void max_price_matches_offerings_in_its_currency_at_or_below_it() {
    // 32.7726 USD is below 40, 40.9657 above; the CNY offering cannot compare with a USD limit
    assertThat(keys(OfferingFilter.builder().gpu("a100").maxPricePerHour(Money.of("40", "USD")).build()))
        .containsExactly("aws/p4d.24xlarge/us-east-1");
    assertThat(keys(OfferingFilter.builder().maxPricePerHour(Money.of("32.7726", "USD")).build()))
        .containsExactly("aws/p4d.24xlarge/us-east-1", "aws/g4dn.xlarge/us-east-1", "gcp/g2-standard-4/us-central1");
    assertThat(keys(OfferingFilter.builder().maxPricePerHour(Money.of("2", "CNY")).build()))
        .containsExactly("autodl/rtx4090-1x/cn-beijing");
  }

  @Test
  void combines_criteria_as_in_the_example() {
    OfferingFilter filter = OfferingFilter.builder().gpu("a100-80gb").provider("aws")
        .maxPricePerHour(Money.of("40", "USD")).build();
    assertThat(catalog.offerings(filter)).isEmpty(); // p4de costs 40.9657
  }

  @Test
  void a_criterion_cannot_be_set_twice() {
    OfferingFilter.Builder builder = OfferingFilter.builder().provider("aws");
    assertThatThrownBy(() -> builder.provider("gcp"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("provider was already set to aws");
  }

  @Test
  void minimum_above_maximum_is_rejected_at_build() {
    OfferingFilter.Builder builder = OfferingFilter.builder().minGpuCount(8).maxGpuCount(4);
    assertThatThrownBy(builder::build).hasMessage("minimum GPU count 8 exceeds maximum 4");
  }

  @Test
  void bad_single_values_are_rejected_at_once() {
    assertThatThrownBy(() -> OfferingFilter.builder().minGpuCount(0))
        .hasMessage("minimum GPU count must be >= 1, was 0");
    assertThatThrownBy(() -> OfferingFilter.builder().maxPricePerHour(Money.of("-1", "USD")))
        .hasMessage("maximum price per hour must be >= 0, was -1 USD");
    assertThatThrownBy(() -> OfferingFilter.builder().provider(" "))
        .hasMessage("provider must not be blank");
  }
}
