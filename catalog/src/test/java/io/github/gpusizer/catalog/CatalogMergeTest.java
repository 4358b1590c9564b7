package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class CatalogMergeTest {
  private final Catalog catalog = Fixtures.gpusAndOfferings();

  private static Offering offering(Gpu gpu, String instance, String price) {
    return new Offering("aws", instance, "us-east-1", gpu, 1, 8, DataSize.ofGiB(32), DataSize.ZERO,
        Money.of(price, "USD"), Optional.empty(), BillingMode.PER_SECOND, Optional.empty(), Optional.empty(),
        OptionalDouble.empty(), Fabric.ETHERNET, LocalDate.of(2025, 2, 1), "newer price list");
  }

  private static Gpu withTdp(Gpu g, int tdp) {
    return new Gpu(g.id(), g.name(), g.aliases(), g.vendor(), g.architecture(), g.computeCapability(),
        g.releaseYear(), g.memory(), g.memoryType(), g.memoryBandwidthGBps(), g.denseTflops(),
        g.fp16AccumulateTflops(), g.tensorCores(), g.formFactor(), g.nvlinkGBps(), g.pcieGeneration(), tdp,
        g.smCount(), g.minCuda(), g.purchasePrice(), g.source(), g.unconfirmed());
  }

  @Test
  void merge_lets_the_arguments_offering_win_by_key_and_keeps_the_others() {
    // GIVEN a newer price for g4dn.xlarge and a new instance type
    Gpu t4 = catalog.gpu("t4");
    Catalog newer = Catalog.of(List.of(t4), List.of(offering(t4, "g4dn.xlarge", "0.5"), offering(t4, "g4dn.2xlarge", "0.75")));

    // WHEN merged
    Catalog merged = catalog.merge(newer);

    // THEN the newer price replaces the old one in place, the new offering is appended, the rest stay
    assertThat(merged.offerings()).hasSize(catalog.offerings().size() + 1);
    assertThat(merged.offerings().get(2).key()).isEqualTo("aws/g4dn.xlarge/us-east-1");
    assertThat(merged.offerings().get(2).onDemandPerHour()).isEqualTo(Money.of("0.5", "USD"));
    assertThat(merged.offerings().get(6).key()).isEqualTo("aws/g4dn.2xlarge/us-east-1");
    assertThat(merged.gpus()).isEqualTo(catalog.gpus());
  }

  @Test
  void merge_lets_the_arguments_gpu_win_by_id_and_relinks_the_receivers_offerings() {
    // GIVEN another definition of the T4 (a different TDP)
    Gpu redefined = withTdp(catalog.gpu("t4"), 75);
    Catalog other = Catalog.of(List.of(redefined), List.of());

    // WHEN merged
    Catalog merged = catalog.merge(other);

    // THEN the T4 keeps its place with the new definition, and the receiver's T4 offering carries it
    assertThat(merged.gpus().indexOf(merged.gpu("t4"))).isEqualTo(4);
    assertThat(merged.gpu("t4").tdpWatts()).isEqualTo(75);
    Offering g4dn = merged.offerings().get(2);
    assertThat(g4dn.gpu()).isSameAs(merged.gpu("t4"));
    assertThat(g4dn.onDemandPerHour()).isEqualTo(catalog.offerings().get(2).onDemandPerHour());
  }

  @Test
  void merge_fails_when_an_alias_would_name_two_gpus() {
    Gpu clone = CatalogLookupTest.withAliases(
        new Gpu("my-t4", "My T4", ImmutableList.of(), Vendor.NVIDIA, "Turing", catalog.gpu("t4").computeCapability(),
            2018, DataSize.ofGiB(16), MemoryType.GDDR6, 320, catalog.gpu("t4").denseTflops(),
            OptionalDouble.empty(), true, FormFactor.PCIE, 0, catalog.gpu("t4").pcieGeneration(), 70,
            catalog.gpu("t4").smCount(), Optional.empty(), Optional.empty(), "test", com.google.common.collect.ImmutableSet.of()),
        "T4");
    Catalog other = Catalog.of(List.of(clone), List.of());
    assertThatThrownBy(() -> catalog.merge(other))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cannot merge the catalogs: GPU my-t4: name 'T4' already names GPU t4");
  }

  @Test
  void merge_joins_load_reports() {
    Catalog aws = CatalogFiles.loadSkyPilot(Fixtures.gpus(), Fixtures.resource("skypilot/aws/vms.csv"),
        SkyPilotOptions.builder().priceDate(LocalDate.of(2025, 1, 6)).build());
    Catalog gcp = CatalogFiles.loadSkyPilot(Fixtures.gpus(), Fixtures.resource("skypilot/gcp/vms.csv"),
        SkyPilotOptions.builder().priceDate(LocalDate.of(2025, 1, 6)).build());
    Catalog merged = aws.merge(gcp);
    assertThat(merged.loadReport().skipped()).hasSize(aws.loadReport().skipped().size() + gcp.loadReport().skipped().size());
    assertThat(merged.offerings()).hasSize(aws.offerings().size() + gcp.offerings().size());
  }

  @Test
  void with_offerings_replaces_all_offerings_in_one_call() {
    Gpu t4 = catalog.gpu("t4");
    Catalog fresh = catalog.withOfferings(List.of(offering(t4, "g4dn.xlarge", "0.49")));
    assertThat(fresh.offerings()).extracting(Offering::key).containsExactly("aws/g4dn.xlarge/us-east-1");
    assertThat(fresh.gpus()).isEqualTo(catalog.gpus());
    assertThat(catalog.offerings()).hasSize(6); // the original is unchanged
  }

  @Test
  void without_offerings_keeps_the_gpus() {
    Catalog bare = catalog.withoutOfferings();
    assertThat(bare.offerings()).isEmpty();
    assertThat(bare.gpus()).isEqualTo(catalog.gpus());
    assertThat(bare.gpu("A100").id()).isEqualTo("a100-sxm4-40gb");
  }

  @Test
  void offerings_must_carry_a_gpu_of_the_catalog() {
    // GIVEN a catalog without the T4
    List<Gpu> noT4 = catalog.gpus().stream().filter(g -> !g.id().equals("t4")).toList();
    Catalog withoutT4 = Catalog.of(noT4, List.of());
    // WHEN an offering of a T4 is added  THEN it fails, naming the GPU
    assertThatThrownBy(() -> withoutT4.withOfferings(List.of(offering(catalog.gpu("t4"), "g4dn.xlarge", "0.5"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offering aws/g4dn.xlarge/us-east-1 carries GPU 't4', which the catalog lacks; did you mean: l4?");
  }

  @Test
  void offerings_must_carry_the_catalogs_definition_of_their_gpu() {
    Gpu stale = withTdp(catalog.gpu("t4"), 75);
    assertThatThrownBy(() -> catalog.withOfferings(List.of(offering(stale, "g4dn.xlarge", "0.5"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("carries a definition of GPU 't4' that differs from the catalog's");
  }

  @Test
  void of_rejects_duplicate_ids_and_offering_keys() {
    Gpu t4 = catalog.gpu("t4");
    assertThatThrownBy(() -> Catalog.of(List.of(t4, t4), List.of()))
        .hasMessage("duplicate GPU id 't4'");
    assertThatThrownBy(() -> Catalog.of(List.of(t4), List.of(offering(t4, "x", "1"), offering(t4, "x", "2"))))
        .hasMessage("duplicate offering aws/x/us-east-1 (provider/instanceType/region, case aside)");
  }

  @Test
  void catalogs_built_by_of_have_an_empty_report() {
    assertThat(Catalog.of(List.of(), List.of()).loadReport().isEmpty()).isTrue();
    assertThat(catalog.toString()).isEqualTo("Catalog{9 GPUs, 6 offerings}");
  }
}
