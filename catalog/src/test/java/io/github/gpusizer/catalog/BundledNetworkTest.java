package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The inter-node network of the bundled offerings: datasheet values pinned, every row explicit and sourced. */
class BundledNetworkTest {
  private final Catalog catalog = Catalog.bundled();

  private Offering offering(String provider, String instanceType) {
    return catalog.offerings().stream()
        .filter(o -> o.provider().equals(provider) && o.instanceType().equals(instanceType))
        .findFirst().orElseThrow(() -> new AssertionError("no bundled " + provider + " " + instanceType));
  }

  @Test
  void aws_p5_is_efa_cluster_at_3200_gbps() {
    Offering p5 = offering("aws", "p5.48xlarge");
    assertThat(p5.fabric()).isEqualTo(Fabric.CLUSTER);
    assertThat(p5.networkGbps()).hasValue(3200.0);
    assertThat(p5.source()).contains("; network: AWS EC2 User Guide").contains("3,200 Gbps");
  }

  @Test
  void aws_p4d_and_p3dn_are_efa_clusters() {
    assertThat(offering("aws", "p4d.24xlarge").networkGbps()).hasValue(400.0);
    assertThat(offering("aws", "p4d.24xlarge").fabric()).isEqualTo(Fabric.CLUSTER);
    assertThat(offering("aws", "p3dn.24xlarge").networkGbps()).hasValue(100.0);
    assertThat(offering("aws", "p3dn.24xlarge").fabric()).isEqualTo(Fabric.CLUSTER);
  }

  @Test
  void azure_nd_a100_v4_is_infiniband_at_8_x_200_gbps() {
    Offering nd = offering("azure", "Standard_ND96asr_v4");
    assertThat(nd.fabric()).isEqualTo(Fabric.CLUSTER);
    assertThat(nd.networkGbps()).hasValue(1600.0);
  }

  @Test
  void azure_nd_h100_v5_is_infiniband_at_8_x_400_gbps_and_nd_v2_edr_at_100() {
    assertThat(offering("azure", "Standard_ND96isr_H100_v5").networkGbps()).hasValue(3200.0);
    assertThat(offering("azure", "Standard_ND40rs_v2").networkGbps()).hasValue(100.0);
    assertThat(offering("azure", "Standard_ND40rs_v2").fabric()).isEqualTo(Fabric.CLUSTER);
  }

  @Test
  void azure_nc_series_has_no_infiniband() {
    assertThat(catalog.offerings()).filteredOn(o -> o.instanceType().startsWith("Standard_NC"))
        .isNotEmpty()
        .allSatisfy(o -> assertThat(o.fabric()).isEqualTo(Fabric.ETHERNET));
  }

  @Test
  void aistudio_development_machines_stand_alone() {
    List<Offering> aistudio = catalog.offerings().stream().filter(o -> o.provider().equals("aistudio")).toList();
    assertThat(aistudio).hasSize(8).allSatisfy(o -> {
      assertThat(o.fabric()).isEqualTo(Fabric.STANDALONE);
      assertThat(o.fabric().joinable()).isFalse();
      assertThat(o.networkGbps()).isEmpty();
    });
  }

  @Test
  void single_gpu_vms_are_ethernet_with_their_stated_bandwidth() {
    Offering g6 = offering("aws", "g6.xlarge");
    assertThat(g6.fabric()).isEqualTo(Fabric.ETHERNET);
    assertThat(g6.networkGbps()).hasValue(10.0);
    assertThat(offering("gcp", "a2-highgpu-1g").networkGbps()).hasValue(24.0);
    assertThat(offering("gcp", "a2-highgpu-1g").fabric()).isEqualTo(Fabric.ETHERNET);
  }

  @Test
  void azure_nv_a10_v5_sizes_are_ethernet_at_their_documented_bandwidth() {
    // GIVEN the NVadsA10_v5 size page's network table (NV36ads 40,000 Mbps, NV36adms and NV72ads 80,000 Mbps)
    assertThat(offering("azure", "Standard_NV36ads_A10_v5").networkGbps()).hasValue(40.0);
    assertThat(offering("azure", "Standard_NV36adms_A10_v5").networkGbps()).hasValue(80.0);
    assertThat(offering("azure", "Standard_NV72ads_A10_v5").networkGbps()).hasValue(80.0);
    assertThat(catalog.offerings()).filteredOn(o -> o.instanceType().startsWith("Standard_NV"))
        .hasSize(3)
        .allSatisfy(o -> {
          assertThat(o.fabric()).isEqualTo(Fabric.ETHERNET);
          assertThat(o.source()).contains("; network: Azure NVadsA10_v5 sizes (MicrosoftDocs/azure-docs");
        });
  }

  @Test
  void lambda_on_demand_instances_are_ethernet() {
    assertThat(catalog.offerings()).filteredOn(o -> o.provider().equals("lambda"))
        .isNotEmpty()
        .allSatisfy(o -> assertThat(o.fabric()).isEqualTo(Fabric.ETHERNET));
  }

  @Test
  void every_bundled_row_states_its_fabric_and_names_the_network_source() {
    String text = CsvTable.readResource(Catalog.class, CatalogFiles.BUNDLED_OFFERINGS, "offerings.csv");
    CsvTable table = CsvTable.parse("offerings.csv", text);
    assertThat(table.rows()).allSatisfy(r -> {
      assertThat(r.raw("fabric")).as("fabric on line %d", r.line()).isNotEmpty();
      assertThat(r.raw("source")).as("source on line %d", r.line()).contains("; network: ");
    });
  }

  @Test
  void bundled_offerings_agree_with_the_family_table() {
    // one rule, one owner: the offering rows state what fabrics.csv documents for their family
    FabricDefaults families = FabricDefaults.bundled();
    assertThat(catalog.offerings()).allSatisfy(o -> {
      FabricDefaults.Family f = families.family(o.provider(), o.instanceType()).orElseThrow();
      assertThat(o.fabric()).as(o.key()).isEqualTo(f.fabric());
      assertThat(o.networkGbps()).as(o.key()).isEqualTo(f.networkGbps());
    });
  }
}
