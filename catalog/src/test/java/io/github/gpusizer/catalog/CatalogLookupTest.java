package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CatalogLookupTest {
  private final Catalog catalog = Fixtures.gpus();

  @ParameterizedTest(name = "''{0}'' is {1}")
  @CsvSource({
      "a100-sxm4-80gb, a100-sxm4-80gb",
      "a100 80gb, a100-sxm4-80gb",
      "A100-SXM4-80GB, a100-sxm4-80gb",
      "NVIDIA A100-SXM4-80GB, a100-sxm4-80gb",
      "a100_80gb, a100-sxm4-80gb",
      "A100-80GB, a100-sxm4-80gb",
      "NVIDIA H100 SXM, h100-sxm5-80gb",
      "h100, h100-sxm5-80gb",
      "Tesla T4, t4",
      "nvidia-tesla-t4, t4",
      "GeForce RTX 4090, rtx-4090",
      "rtx4090, rtx-4090",
      "A100, a100-sxm4-40gb",
  })
  void resolves_ids_names_and_aliases_forgiving_case_separators_and_brands(String query, String id) {
    // GIVEN the test GPUs  WHEN looking a spelling up  THEN it names the GPU
    assertThat(catalog.gpu(query).id()).isEqualTo(id);
    assertThat(catalog.findGpu(query)).map(Gpu::id).contains(id);
  }

  @Test
  void unknown_name_suggests_the_closest_ids() {
    // WHEN a misspelt name is looked up
    // THEN the exception names it and lists the GPUs one edit away, best first
    assertThatThrownBy(() -> catalog.gpu("A10O"))
        .isInstanceOfSatisfying(UnknownGpuException.class, e -> {
          assertThat(e.name()).isEqualTo("A10O");
          assertThat(e.suggestions()).containsExactly("a10", "a100-sxm4-40gb");
        })
        .hasMessage("unknown GPU 'A10O'; did you mean: a10, a100-sxm4-40gb?");
  }

  @Test
  void unknown_name_far_from_everything_says_so() {
    assertThatThrownBy(() -> catalog.gpu("quantum annealer"))
        .isInstanceOfSatisfying(UnknownGpuException.class, e -> assertThat(e.suggestions()).isEmpty())
        .hasMessage("unknown GPU 'quantum annealer'; no similar name among the catalog's 9 GPUs");
  }

  @Test
  void find_gpu_is_empty_for_an_unknown_name() {
    assertThat(catalog.findGpu("A10O")).isEmpty();
  }

  @Test
  void a_family_name_no_gpu_declares_fails_and_lists_the_variants() {
    // GIVEN a catalog whose A100s do not declare the bare alias "A100"
    List<Gpu> gpus = catalog.gpus().stream()
        .map(g -> g.aliases().contains("A100") ? withAliases(g, "A100 SXM4 40GB") : g)
        .collect(Collectors.toList());
    Catalog noDefault = Catalog.of(gpus, List.of());

    // WHEN "a100" is looked up  THEN it is unknown and the three A100 variants come first among the suggestions
    assertThatThrownBy(() -> noDefault.gpu("a100"))
        .isInstanceOfSatisfying(UnknownGpuException.class, e -> assertThat(e.suggestions().subList(0, 3))
            .containsExactlyInAnyOrder("a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie-40gb"));
  }

  @Test
  void a_family_name_declared_as_alias_resolves_to_that_default() {
    // The test data, like SkyPilot, declares "A100" as an alias of the 40 GB SXM4 card.
    assertThat(catalog.gpu("a100").id()).isEqualTo("a100-sxm4-40gb");
  }

  @Test
  void two_gpus_may_not_share_a_normalised_alias() {
    // GIVEN two GPUs that both answer to "a100 80gb" once spelling is normalised
    Gpu first = catalog.gpu("a100-sxm4-80gb");
    Gpu second = withAliases(catalog.gpu("a100-pcie-40gb"), "A100_80GB");

    // WHEN a catalog of both is built  THEN it fails naming both GPUs and the alias
    assertThatThrownBy(() -> Catalog.of(List.of(first, second), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("GPU a100-pcie-40gb: name 'A100_80GB' already names GPU a100-sxm4-80gb");
  }

  @Test
  void normalisation_drops_brand_words_and_separators() {
    assertThat(NameIndex.normalize("NVIDIA GeForce RTX 4090")).isEqualTo("rtx4090");
    assertThat(NameIndex.normalize("AMD Instinct MI300X")).isEqualTo("mi300x");
    assertThat(NameIndex.normalize("Google TPU v5e")).isEqualTo("tpuv5e");
    assertThat(NameIndex.normalize("A100_SXM4-80GB (NVLink)")).isEqualTo("a100sxm480gbnvlink");
    assertThat(NameIndex.normalize("nvidia")).isEqualTo("nvidia");
  }

  @Test
  void levenshtein_counts_single_character_edits() {
    assertThat(EditDistance.between("kitten", "sitting")).isEqualTo(3);
    assertThat(EditDistance.between("a10o", "a100")).isEqualTo(1);
    assertThat(EditDistance.between("", "abc")).isEqualTo(3);
    assertThat(EditDistance.between("same", "same")).isZero();
  }

  static Gpu withAliases(Gpu g, String... aliases) {
    return new Gpu(g.id(), g.name(), ImmutableList.copyOf(aliases), g.vendor(), g.architecture(),
        g.computeCapability(), g.releaseYear(), g.memory(), g.memoryType(), g.memoryBandwidthGBps(), g.denseTflops(),
        g.fp16AccumulateTflops(), g.tensorCores(), g.formFactor(), g.nvlinkGBps(), g.pcieGeneration(), g.tdpWatts(),
        g.smCount(), g.minCuda(), g.purchasePrice(), g.source(), g.unconfirmed());
  }
}
