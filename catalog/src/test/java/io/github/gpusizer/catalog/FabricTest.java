package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FabricTest {
  @Test
  void only_a_stand_alone_machine_cannot_be_joined() {
    assertThat(Fabric.CLUSTER.joinable()).isTrue();
    assertThat(Fabric.ETHERNET.joinable()).isTrue();
    assertThat(Fabric.STANDALONE.joinable()).isFalse();
  }

  @Test
  void labels_name_the_fabric_for_people() {
    assertThat(Fabric.CLUSTER.label()).isEqualTo("InfiniBand/EFA/RoCE cluster fabric");
    assertThat(Fabric.ETHERNET.label()).isEqualTo("Ethernet");
    assertThat(Fabric.STANDALONE.label()).isEqualTo("stand-alone");
  }

  @ParameterizedTest
  @CsvSource({"cluster,CLUSTER", "CLUSTER,CLUSTER", "InfiniBand,CLUSTER", "efa,CLUSTER", "RoCE,CLUSTER",
      "Ethernet,ETHERNET", "standalone,STANDALONE", "' StandAlone ',STANDALONE"})
  void cells_name_a_fabric_ignoring_case_and_technology_aliases_mean_cluster(String cell, Fabric expected) {
    assertThat(Fabric.fromCell(cell)).contains(expected);
  }

  @Test
  void other_text_names_no_fabric_and_the_message_suggests_the_closest_spelling() {
    assertThat(Fabric.fromCell("stand-alone-ish")).isEmpty();
    assertThat(Fabric.unknown("clustr")).isEqualTo("must be one of cluster, ethernet, standalone (also infiniband, "
        + "efa, roce for cluster), in any case, was 'clustr'; did you mean: cluster?");
    assertThat(Fabric.unknown("wifi")).doesNotContain("did you mean");
  }

  @Test
  void parse_reads_a_cell_and_fails_on_other_text_with_the_same_message() {
    assertThat(Fabric.parse(" EFA ")).isEqualTo(Fabric.CLUSTER);
    assertThat(Fabric.parse("ethernet")).isEqualTo(Fabric.ETHERNET);
    assertThatThrownBy(() -> Fabric.parse("clustr")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(Fabric.unknown("clustr"));
  }

  private static Offering with(Offering o, OptionalDouble gbps, Fabric fabric) {
    return new Offering(o.provider(), o.instanceType(), o.region(), o.gpu(), o.gpuCount(), o.vcpus(), o.ram(),
        o.localDisk(), o.onDemandPerHour(), o.spotPerHour(), o.billing(), o.monthly(), o.yearly(), gbps, fabric,
        o.priceDate(), o.source());
  }

  @Test
  void an_offering_on_a_cluster_fabric_must_state_its_bandwidth() {
    Offering base = Catalog.bundled().offerings().get(0);
    assertThatThrownBy(() -> with(base, OptionalDouble.empty(), Fabric.CLUSTER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("an offering on a cluster fabric must state its network bandwidth");
    assertThat(with(base, OptionalDouble.empty(), Fabric.STANDALONE).networkGbps()).isEmpty();
    assertThat(with(base, OptionalDouble.empty(), Fabric.ETHERNET).fabric()).isEqualTo(Fabric.ETHERNET);
  }

  @Test
  void an_offering_rejects_a_negative_or_infinite_bandwidth() {
    Offering base = Catalog.bundled().offerings().get(0);
    assertThatThrownBy(() -> with(base, OptionalDouble.of(-1), Fabric.ETHERNET))
        .hasMessageContaining("network bandwidth must be a finite number >= 0 Gbit/s, was -1.0");
    assertThatThrownBy(() -> with(base, OptionalDouble.of(Double.POSITIVE_INFINITY), Fabric.ETHERNET))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
