package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class FabricDefaultsTest {
  private static final String HEADER = "provider,instance_prefix,fabric,network_gbps,source";

  private static FabricDefaults table(String... rows) {
    return FabricDefaults.read(CsvTable.parse("fabrics.csv", HEADER + "\n" + String.join("\n", rows) + "\n"));
  }

  @Test
  void every_bundled_row_parses_and_names_its_source() {
    // GIVEN the bundled table  WHEN loaded strictly  THEN every row is there, each with a source
    FabricDefaults bundled = FabricDefaults.bundled();
    assertThat(bundled.families()).hasSizeGreaterThan(40);
    assertThat(bundled.families()).allSatisfy(f -> assertThat(f.source()).isNotBlank());
    assertThat(bundled.families()).filteredOn(f -> f.fabric() == Fabric.CLUSTER)
        .allSatisfy(f -> assertThat(f.networkGbps()).isPresent());
  }

  @Test
  void longest_prefix_wins() {
    // GIVEN a family default and a size of that family with its own row
    FabricDefaults t = table("aws,g5.,ethernet,,family", "aws,g5.48xlarge,efa,100,size");

    // THEN the size row wins for that size and the family row for the others
    assertThat(t.family("aws", "g5.48xlarge")).hasValueSatisfying(f -> assertThat(f.source()).isEqualTo("size"));
    assertThat(t.family("aws", "g5.2xlarge")).hasValueSatisfying(f -> assertThat(f.source()).isEqualTo("family"));
    assertThat(t.family("gcp", "g5.48xlarge")).isEmpty();
  }

  @Test
  void bundled_table_resolves_longest_prefix_for_real_families() {
    FabricDefaults bundled = FabricDefaults.bundled();
    assertThat(bundled.family("aws", "g5.48xlarge")).hasValueSatisfying(f -> {
      assertThat(f.fabric()).isEqualTo(Fabric.CLUSTER);
      assertThat(f.networkGbps()).hasValue(100.0);
    });
    assertThat(bundled.family("aws", "g5.2xlarge")).hasValueSatisfying(f -> {
      assertThat(f.prefix()).isEqualTo("g5.");
      assertThat(f.fabric()).isEqualTo(Fabric.ETHERNET);
      assertThat(f.networkGbps()).isEmpty();
    });
  }

  @Test
  void a_star_row_stands_for_every_instance_type_of_its_provider_that_no_prefix_names() {
    FabricDefaults t =
        table("runpod,*,standalone,,every", "runpod,8x_H100,cluster,3200,eight", "vast,1x,ethernet,,one");
    assertThat(t.family("RunPod", "1x_A100-80GB_SECURE"))
        .hasValueSatisfying(f -> assertThat(f.source()).isEqualTo("every"));
    assertThat(t.family("runpod", "8x_H100_SECURE")).hasValueSatisfying(f -> assertThat(f.source()).isEqualTo("eight"));
    assertThat(t.family("vast", "8x-H200")).isEmpty();
    assertThat(t.family("aws", "p5.48xlarge")).isEmpty();
    FabricDefaults.Network n = t.resolve("runpod", "2x_A40_COMMUNITY", Optional.empty(), OptionalDouble.empty());
    assertThat(n.fabric()).isEqualTo(Fabric.STANDALONE);
    assertThat(n.note())
        .isEqualTo("; network: fabric by default for every runpod instance type (fabrics.csv line 2: every)");
  }

  @Test
  void provider_and_prefix_match_ignoring_case() {
    assertThat(table("azure,Standard_ND96asr_v4,cluster,1600,doc").family("Azure", "standard_nd96asr_v4"))
        .isPresent();
  }

  @Test
  void unknown_family_is_ethernet_without_bandwidth_and_says_it_was_assumed() {
    FabricDefaults.Network n = table("aws,p5.,cluster,3200,doc")
        .resolve("aws", "x9.large", Optional.empty(), OptionalDouble.empty());
    assertThat(n.fabric()).isEqualTo(Fabric.ETHERNET);
    assertThat(n.networkGbps()).isEmpty();
    assertThat(n.note()).contains("ordinary Ethernet assumed");
  }

  @Test
  void missing_fabric_and_bandwidth_come_from_the_family_with_its_source() {
    FabricDefaults.Network n = table("aws,p5.,cluster,3200,AWS P5 documentation")
        .resolve("aws", "p5.48xlarge", Optional.empty(), OptionalDouble.empty());
    assertThat(n.fabric()).isEqualTo(Fabric.CLUSTER);
    assertThat(n.networkGbps()).hasValue(3200.0);
    assertThat(n.note()).isEqualTo(
        "; network: fabric and bandwidth by default for aws p5.* (fabrics.csv line 2: AWS P5 documentation)");
  }

  @Test
  void a_stated_fabric_other_than_the_familys_takes_no_bandwidth_from_it() {
    FabricDefaults.Network n = table("aws,p5.,cluster,3200,doc")
        .resolve("aws", "p5.48xlarge", Optional.of(Fabric.ETHERNET), OptionalDouble.empty());
    assertThat(n.fabric()).isEqualTo(Fabric.ETHERNET);
    assertThat(n.networkGbps()).isEmpty();
    assertThat(n.note()).isEmpty();
  }

  @Test
  void stated_values_are_kept_as_they_are() {
    FabricDefaults.Network n = table("aws,p5.,cluster,3200,doc")
        .resolve("aws", "p5.48xlarge", Optional.of(Fabric.CLUSTER), OptionalDouble.of(800));
    assertThat(n.networkGbps()).hasValue(800.0);
    assertThat(n.note()).isEmpty();
  }

  @Test
  void bad_fabric_in_the_table_names_line_column_and_allowed_values() {
    CatalogException e = catchThrowableOfType(CatalogException.class,
        () -> table("aws,p5.,cluster,3200,doc", "aws,p4d.,infiniband-ish,400,doc"));
    assertThat(e.line()).hasValue(3);
    assertThat(e.column()).contains("fabric");
    assertThat(e.problem()).startsWith("must be one of cluster, ethernet, standalone").contains("'infiniband-ish'");
  }

  @Test
  void cluster_row_without_bandwidth_is_rejected() {
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> table("aws,p5.,cluster,,doc"));
    assertThat(e.column()).contains("network_gbps");
    assertThat(e.line()).hasValue(2);
  }

  @Test
  void the_same_prefix_twice_is_rejected_naming_the_earlier_line() {
    CatalogException e = catchThrowableOfType(CatalogException.class,
        () -> table("aws,p5.,cluster,3200,doc", "AWS,P5.,ethernet,,doc"));
    assertThat(e.line()).hasValue(3);
    assertThat(e.problem()).contains("line 2 defines it already");
  }

  @Test
  void a_row_without_source_is_rejected() {
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> table("aws,p5.,cluster,3200,"));
    assertThat(e.column()).contains("source");
  }
}
