package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code fabric} and {@code network_gbps} columns of offerings.csv, and the network of SkyPilot offerings. */
class OfferingCsvFabricTest {
  @TempDir
  Path dir;

  private static final String HEADER_WITH_FABRIC = Fixtures.offeringHeader().replace("network_gbps,",
      "network_gbps,fabric,");

  /** A row of the new format: {@code gbps} and {@code fabric} in their columns. */
  private static String row(String provider, String instance, String gbps, String fabric) {
    return provider + "," + instance + ",us-east-1,T4,1,8,32,100,1.0,,USD,PER_SECOND,,," + gbps + "," + fabric
        + ",2025-01-06,test";
  }

  private Path file(String... rows) {
    String[] lines = new String[rows.length + 1];
    lines[0] = HEADER_WITH_FABRIC;
    System.arraycopy(rows, 0, lines, 1, rows.length);
    return Fixtures.write(dir, "offerings.csv", lines);
  }

  private static Offering only(Catalog c) {
    assertThat(c.offerings()).hasSize(1);
    return c.offerings().get(0);
  }

  @ParameterizedTest
  @CsvSource({"cluster,CLUSTER", "Ethernet,ETHERNET", "STANDALONE,STANDALONE", "infiniband,CLUSTER", "EFA,CLUSTER",
      "roce,CLUSTER"})
  void fabric_column_accepts_the_names_in_any_case_and_technology_aliases(String cell, Fabric expected) {
    Offering o = only(Fixtures.load(file(row("mycloud", "box", "200", cell))));
    assertThat(o.fabric()).isEqualTo(expected);
    assertThat(o.networkGbps()).hasValue(200.0);
    assertThat(o.source()).isEqualTo("test");
  }

  @Test
  void misspelt_fabric_fails_the_load_with_file_line_column_allowed_values_and_a_suggestion() {
    Path f = file(row("mycloud", "a", "200", "cluster"), row("mycloud", "b", "200", "clustre"));
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> Fixtures.load(f));
    assertThat(e).hasMessage(f + " line 3, column fabric: must be one of cluster, ethernet, standalone (also "
        + "infiniband, efa, roce for cluster), in any case, was 'clustre'; did you mean: cluster?");
    assertThat(e.columnIndex()).hasValue(16);
  }

  @Test
  void file_without_the_fabric_column_still_loads_with_family_defaults() {
    // GIVEN a file in the format before the fabric column, for an aws p5 and an unknown provider
    Path f = Fixtures.write(dir, "old.csv", Fixtures.offeringHeader(),
        Fixtures.offeringRow("aws", "p5.48xlarge", "us-east-1", "T4", "1"),
        Fixtures.offeringRow("mycloud", "box", "us-east-1", "T4", "1"));

    // WHEN loaded  THEN p5 gets its documented EFA fabric and bandwidth, the unknown box plain Ethernet
    Catalog c = Fixtures.load(f);
    Offering p5 = c.offerings().get(0);
    assertThat(p5.fabric()).isEqualTo(Fabric.CLUSTER);
    assertThat(p5.networkGbps()).hasValue(3200.0);
    assertThat(p5.source()).startsWith("test; network: fabric and bandwidth by default for aws p5.48xlarge* (");
    Offering box = c.offerings().get(1);
    assertThat(box.fabric()).isEqualTo(Fabric.ETHERNET);
    assertThat(box.networkGbps()).isEmpty();
    assertThat(box.source()).contains("ordinary Ethernet assumed");
  }

  @Test
  void empty_fabric_cell_is_derived_like_an_absent_column() {
    Offering o = only(Fixtures.load(file(row("azure", "Standard_ND96asr_v4", "", ""))));
    assertThat(o.fabric()).isEqualTo(Fabric.CLUSTER);
    assertThat(o.networkGbps()).hasValue(1600.0);
  }

  @Test
  void bandwidth_alone_does_not_make_a_cluster() {
    // a fast NIC of an unknown family is still ordinary Ethernet: no guess from bandwidth
    Offering o = only(Fixtures.load(file(row("mycloud", "fast", "800", ""))));
    assertThat(o.fabric()).isEqualTo(Fabric.ETHERNET);
    assertThat(o.networkGbps()).hasValue(800.0);
  }

  @Test
  void cluster_without_a_known_bandwidth_is_rejected_at_the_network_column() {
    Path f = file(row("mycloud", "ib-box", "", "infiniband"));
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> Fixtures.load(f));
    assertThat(e.line()).hasValue(2);
    assertThat(e.column()).contains("network_gbps");
    assertThat(e.problem()).startsWith("must state the bandwidth of an offering on a cluster fabric");
  }

  @Test
  void standalone_may_leave_the_bandwidth_out() {
    Offering o = only(Fixtures.load(file(row("mycloud", "devbox", "", "standalone"))));
    assertThat(o.fabric()).isEqualTo(Fabric.STANDALONE);
    assertThat(o.fabric().joinable()).isFalse();
    assertThat(o.networkGbps()).isEmpty();
  }

  @Test
  void skypilot_offerings_get_their_family_network() {
    // SkyPilot states no network: p4d gets its documented EFA 400 Gbit/s, g4dn.xlarge Ethernet up to 25
    Catalog aws = CatalogFiles.loadSkyPilot(Fixtures.gpus(), Fixtures.resource("skypilot/aws/vms.csv"),
        SkyPilotOptions.builder().provider("aws").priceDate(java.time.LocalDate.of(2025, 1, 6)).build());
    Offering p4d = aws.offerings().stream().filter(o -> o.instanceType().equals("p4d.24xlarge")).findFirst()
        .orElseThrow();
    assertThat(p4d.fabric()).isEqualTo(Fabric.CLUSTER);
    assertThat(p4d.networkGbps()).hasValue(400.0);
    assertThat(p4d.source()).contains("; network: fabric and bandwidth by default for aws p4d.24xlarge*");
    Offering g4dn = aws.offerings().stream().filter(o -> o.instanceType().equals("g4dn.xlarge")).findFirst()
        .orElseThrow();
    assertThat(g4dn.fabric()).isEqualTo(Fabric.ETHERNET);
    assertThat(g4dn.networkGbps()).hasValue(25.0);
  }
}
