package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class OfferingCsvTest {
  private final Catalog catalog = Fixtures.gpusAndOfferings();

  @Test
  void maps_every_column_of_a_row() {
    // GIVEN the first row of testdata/offerings.csv  WHEN loaded
    Offering p4d = catalog.offerings().get(0);

    // THEN each column lands in its field, with its unit
    assertThat(p4d.provider()).isEqualTo("aws");
    assertThat(p4d.instanceType()).isEqualTo("p4d.24xlarge");
    assertThat(p4d.region()).isEqualTo("us-east-1");
    assertThat(p4d.gpu()).isSameAs(catalog.gpu("a100-sxm4-40gb"));
    assertThat(p4d.gpuCount()).isEqualTo(8);
    assertThat(p4d.vcpus()).isEqualTo(96);
    assertThat(p4d.ram()).isEqualTo(DataSize.ofGiB(1152));
    assertThat(p4d.localDisk()).isEqualTo(DataSize.ofBytes(8_000_000_000_000L));
    assertThat(p4d.onDemandPerHour()).isEqualTo(Money.of("32.7726", "USD"));
    assertThat(p4d.spotPerHour()).contains(Money.of("13.5", "USD"));
    assertThat(p4d.billing()).isEqualTo(BillingMode.PER_SECOND);
    assertThat(p4d.monthly()).isEmpty();
    assertThat(p4d.yearly()).isEmpty();
    assertThat(p4d.networkGbps()).hasValue(400.0);
    assertThat(p4d.priceDate()).isEqualTo(LocalDate.of(2025, 1, 6));
    // the file has no fabric column: the p4d family default fills it, and the source says so
    assertThat(p4d.fabric()).isEqualTo(Fabric.CLUSTER);
    assertThat(p4d.source()).startsWith("test fixture; network: fabric by default for aws p4d.24xlarge* (");
  }

  @Test
  void gpu_column_accepts_any_alias_or_name() {
    assertThat(catalog.offerings()).extracting(o -> o.gpu().id()).containsExactly(
        "a100-sxm4-40gb", "a100-sxm4-80gb", "t4", "h100-sxm5-80gb", "l4", "rtx-4090");
  }

  @Test
  void subscription_prices_and_quoted_cells_are_read() {
    Offering autodl = catalog.offerings().get(5);
    assertThat(autodl.onDemandPerHour().currency().getCurrencyCode()).isEqualTo("CNY");
    assertThat(autodl.monthly()).contains(Money.of(new BigDecimal("1200"), Money.currency("CNY")));
    assertThat(autodl.yearly()).contains(Money.of(new BigDecimal("12000"), Money.currency("CNY")));
    assertThat(autodl.networkGbps()).isEmpty();
    assertThat(autodl.source()).startsWith("test fixture, \"quoted\" source; network: ");
  }
}
