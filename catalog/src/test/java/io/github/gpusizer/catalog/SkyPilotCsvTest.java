package io.github.gpusizer.catalog;

import static io.github.gpusizer.catalog.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.entry;

import io.github.gpusizer.catalog.LoadReport.Reason;
import io.github.gpusizer.catalog.LoadReport.Skipped;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkyPilotCsvTest {
  private static final LocalDate DATE = LocalDate.of(2025, 1, 6);
  private static final String AWS_HEADER =
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone";

  @TempDir
  Path dir;

  private static Catalog load(Path file, SkyPilotOptions options) {
    return CatalogFiles.loadSkyPilot(Fixtures.gpus(), file, options);
  }

  private static Catalog load(Path file) {
    return load(file, SkyPilotOptions.builder().priceDate(DATE).build());
  }

  private static Money usd(String amount) {
    return Money.of(amount, "USD");
  }

  private static Offering find(Catalog catalog, String instanceType) {
    return catalog.offerings().stream().filter(o -> o.instanceType().equals(instanceType)).findFirst().orElseThrow();
  }

  @Test
  void aws_rows_with_an_accelerator_become_offerings_one_per_instance_type_and_region() {
    // GIVEN the AWS-style sample  WHEN loaded
    Catalog aws = load(Fixtures.resource("skypilot/aws/vms.csv"));

    // THEN each priced GPU machine is one offering, GPUs resolved by SkyPilot's accelerator names
    assertThat(aws.offerings()).extracting(Offering::key).containsExactly(
        "aws/g4dn.xlarge/us-east-1", "aws/g4dn.12xlarge/us-east-1", "aws/p4d.24xlarge/us-east-1",
        "aws/p4de.24xlarge/us-east-1", "aws/p3.2xlarge/us-west-2");
    assertThat(aws.offerings()).extracting(o -> o.gpu().id() + " x" + o.gpuCount()).containsExactly(
        "t4 x1", "t4 x4", "a100-sxm4-40gb x8", "a100-sxm4-80gb x8", "v100-sxm2-16gb x1");
    assertThat(aws.gpus()).isEqualTo(Fixtures.gpus().gpus());
  }

  @Test
  void aws_offering_carries_the_rows_shape_prices_and_dates() {
    Offering p4d = find(load(Fixtures.resource("skypilot/aws/vms.csv")), "p4d.24xlarge");
    assertThat(p4d.provider()).isEqualTo("aws");
    assertThat(p4d.vcpus()).isEqualTo(96);
    assertThat(p4d.ram()).isEqualTo(DataSize.ofGiB(1152));
    assertThat(p4d.localDisk()).isEqualTo(DataSize.ZERO);
    assertThat(p4d.onDemandPerHour()).isEqualByComparingTo(usd("32.7726"));
    assertThat(p4d.spotPerHour()).hasValueSatisfying(s -> assertThat(s).isEqualByComparingTo(usd("13.5")));
    assertThat(p4d.billing()).isEqualTo(BillingMode.PER_SECOND);
    assertThat(p4d.priceDate()).isEqualTo(DATE);
    assertThat(p4d.source()).startsWith("SkyPilot catalog ").contains("vms.csv line 7; network: ");
    assertThat(find(load(Fixtures.resource("skypilot/aws/vms.csv")), "p4de.24xlarge").spotPerHour()).isEmpty();
  }

  @Test
  void availability_zones_merge_into_the_lowest_prices() {
    // GIVEN g4dn.xlarge in three zones, spot 0.2102, 0.198 and none
    Offering g4dn = find(load(Fixtures.resource("skypilot/aws/vms.csv")), "g4dn.xlarge");
    // THEN one offering with the lowest spot price of the zones
    assertThat(g4dn.onDemandPerHour()).isEqualByComparingTo(usd("0.526"));
    assertThat(g4dn.spotPerHour()).hasValueSatisfying(s -> assertThat(s).isEqualByComparingTo(usd("0.198")));
  }

  @Test
  void aws_rows_left_out_are_reported_with_line_and_reason() {
    Catalog aws = load(Fixtures.resource("skypilot/aws/vms.csv"));
    assertThat(aws.loadReport().skipped()).extracting(Skipped::line, Skipped::reason, Skipped::detail)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2, Reason.NO_ACCELERATOR, "c5.xlarge in use1-az1"),
            org.assertj.core.groups.Tuple.tuple(8, Reason.NOT_OFFERED_ON_DEMAND, "p4d.24xlarge in usw1-az1"));
  }

  @Test
  void gcp_gpu_rows_are_priced_with_their_host_vm() {
    // GIVEN the GCP-style sample: GPUs as rows without an instance type, host VMs as rows without an accelerator
    Catalog gcp = load(Fixtures.resource("skypilot/gcp/vms.csv"));

    // THEN A100s ride on A2, L4s on G2 (every size of the family), T4s on the cheapest large-enough N1
    assertThat(gcp.offerings()).extracting(Offering::instanceType).containsExactly(
        "a2-highgpu-1g", "a2-highgpu-2g", "g2-standard-4", "g2-standard-8", "n1-highmem-8 + T4:1",
        "n1-highmem-16 + T4:2");
    assertThat(gcp.offerings()).extracting(o -> o.gpu().id() + " x" + o.gpuCount()).containsExactly(
        "a100-sxm4-40gb x1", "a100-sxm4-40gb x2", "l4 x1", "l4 x1", "t4 x1", "t4 x2");
  }

  @Test
  void gcp_offering_price_is_gpu_price_plus_host_price() {
    Catalog gcp = load(Fixtures.resource("skypilot/gcp/vms.csv"));

    // a2-highgpu-1g: 2.933908 (A100) + 0.73948 (host) in both zones; spot 1.1 + 0.29576 in zone b is the lowest
    Offering a2 = find(gcp, "a2-highgpu-1g");
    assertThat(a2.onDemandPerHour()).isEqualByComparingTo(usd("3.673388"));
    assertThat(a2.spotPerHour()).hasValueSatisfying(s -> assertThat(s).isEqualByComparingTo(usd("1.39576")));
    assertThat(a2.vcpus()).isEqualTo(12);
    assertThat(a2.ram()).isEqualTo(DataSize.ofGiB(85));
    assertThat(a2.billing()).isEqualTo(BillingMode.PER_SECOND);
    assertThat(a2.source()).contains("line 13; price of A100:1 (line 13) plus host VM a2-highgpu-1g (line 2)");

    // g2-standard-4: 0.56 (L4) + 0.14683 = 0.70683, GCP's list price of g2-standard-4
    assertThat(find(gcp, "g2-standard-4").onDemandPerHour()).isEqualByComparingTo(usd("0.70683"));

    // T4 x1: 8 vCPUs and 32 GiB needed; n1-highcpu-8 (7.2 GiB) and n1-standard-8 (30 GiB) are too small, the
    // n2-standard-8 is not N1: n1-highmem-8 at 0.473212 is the cheapest host.
    Offering t4 = find(gcp, "n1-highmem-8 + T4:1");
    assertThat(t4.onDemandPerHour()).isEqualByComparingTo(usd("0.823212"));
    assertThat(t4.spotPerHour()).hasValueSatisfying(s -> assertThat(s).isEqualByComparingTo(usd("0.2396")));
    assertThat(t4.vcpus()).isEqualTo(8);
    assertThat(t4.ram()).isEqualTo(DataSize.ofGiB(52));

    // T4 x2: 16 vCPUs and 64 GiB; n1-standard-16 has 60 GiB, so n1-highmem-16
    assertThat(find(gcp, "n1-highmem-16 + T4:2").onDemandPerHour()).isEqualByComparingTo(usd("1.646424"));
  }

  @Test
  void gcp_rows_left_out_are_reported() {
    LoadReport report = load(Fixtures.resource("skypilot/gcp/vms.csv")).loadReport();
    assertThat(report.count(Reason.NO_ACCELERATOR)).isEqualTo(11);
    assertThat(report.skipped()).filteredOn(s -> s.reason() != Reason.NO_ACCELERATOR)
        .extracting(Skipped::line, Skipped::reason, Skipped::detail)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(19, Reason.NO_HOST_VM, "1 x V100 in europe-west4-a"),
            org.assertj.core.groups.Tuple.tuple(20, Reason.NOT_OFFERED_ON_DEMAND, "P4 in us-central1-a"),
            org.assertj.core.groups.Tuple.tuple(21, Reason.TPU, "tpu-v5p-8 in us-east5-a"));
    assertThat(report.toString()).isEqualTo("LoadReport{NO_ACCELERATOR=11, NOT_OFFERED_ON_DEMAND=1, TPU=1, NO_HOST_VM=1}");
  }

  @Test
  void provider_comes_from_the_folder_and_price_date_from_the_file_time_unless_given() throws IOException {
    // GIVEN a lambda/vms.csv (columns in Lambda's order, no AvailabilityZone) last modified on 2024-03-05 UTC
    Path file = write(dir, "lambda/vms.csv",
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice",
        "gpu_1x_h100_sxm5,H100,1.0,26.0,225.0,3.29,us-east-1,\"{'Gpus': []}\",");
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2024-03-05T23:30:00Z")));

    // WHEN loaded with default options
    Offering h100 = load(file, SkyPilotOptions.defaults()).offerings().get(0);

    // THEN the provider is the folder's name, the date the file's, and billing the dearest rounding (unknown)
    assertThat(h100.provider()).isEqualTo("lambda");
    assertThat(h100.priceDate()).isEqualTo(LocalDate.of(2024, 3, 5));
    assertThat(h100.billing()).isEqualTo(BillingMode.PER_HOUR);
    assertThat(h100.gpu().id()).isEqualTo("h100-sxm5-80gb");
    assertThat(h100.spotPerHour()).isEmpty();
  }

  @Test
  void explicit_options_override_folder_date_and_billing() {
    Path file = write(dir, "lambda/vms.csv",
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region",
        "gpu_1x_a10,A10,1,30,200,0.75,us-east-1");
    Offering a10 = load(file, SkyPilotOptions.builder().provider("lambdalabs").priceDate(DATE)
        .billing(BillingMode.PER_MINUTE).build()).offerings().get(0);
    assertThat(a10.provider()).isEqualTo("lambdalabs");
    assertThat(a10.priceDate()).isEqualTo(DATE);
    assertThat(a10.billing()).isEqualTo(BillingMode.PER_MINUTE);
  }

  @Test
  void columns_are_matched_by_name_and_unknown_columns_ignored() {
    Path file = write(dir, "aws/vms.csv",
        "Region,Price,AcceleratorName,Generation,InstanceType,MemoryGiB,AcceleratorCount,vCPUs",
        "us-east-1,0.526,T4,5,g4dn.xlarge,16,1,4");
    Offering g4dn = load(file).offerings().get(0);
    assertThat(g4dn.key()).isEqualTo("aws/g4dn.xlarge/us-east-1");
    assertThat(g4dn.gpu().id()).isEqualTo("t4");
    assertThat(g4dn.vcpus()).isEqualTo(4);
  }

  @Test
  void strict_load_fails_on_an_unknown_accelerator_with_its_line_and_suggestions() {
    Path file = write(dir, "aws/vms.csv", AWS_HEADER,
        "g4dn.xlarge,T4,1,4,16,,0.526,,us-east-1,use1-az1",
        "g5.xlarge,A10G,1,4,16,,1.006,,us-east-1,use1-az1");
    CatalogException e = catchThrowableOfType(CatalogException.class,
        () -> load(file, SkyPilotOptions.builder().priceDate(DATE).strict().build()));
    assertThat(e.line()).hasValue(3);
    assertThat(e.column()).contains("AcceleratorName");
    assertThat(e.problem()).isEqualTo("unknown GPU 'A10G'; did you mean: a10, a100-sxm4-40gb? "
        + "(a strict load fails on accelerators the catalog does not model; without strict() such rows are left "
        + "out and listed in the load report)");
  }

  @Test
  void unknown_accelerators_go_to_the_report_by_default() {
    Path file = write(dir, "aws/vms.csv", AWS_HEADER,
        "g4dn.xlarge,T4,1,4,16,,0.526,,us-east-1,use1-az1",
        "inf2.xlarge,Inferentia2,1,4,16,,0.7582,,us-east-1,use1-az1",
        "trn1.2xlarge,Trainium,1,8,32,,1.3438,,us-east-1,use1-az1",
        "inf2.8xlarge,Inferentia2,1,32,128,,1.9679,,us-east-1,use1-az1");
    Catalog aws = load(file);
    assertThat(aws.offerings()).extracting(Offering::instanceType).containsExactly("g4dn.xlarge");
    assertThat(aws.loadReport().skipped()).first().isEqualTo(new Skipped(file.toString(), 3,
        Reason.UNKNOWN_ACCELERATOR, "inf2.xlarge in use1-az1, Inferentia2", "Inferentia2"));
    assertThat(aws.loadReport().accelerators(Reason.UNKNOWN_ACCELERATOR))
        .containsExactly(entry("Inferentia2", 2), entry("Trainium", 1));
    assertThat(aws.loadReport().summary())
        .isEqualTo("left out 3 rows: 3 of accelerators not modelled (Inferentia2 2, Trainium 1)");
  }

  @Test
  @SuppressWarnings("deprecation")
  void skip_unknown_accelerators_is_the_default_and_contradicts_strict() {
    assertThat(SkyPilotOptions.defaults().strict()).isFalse();
    assertThat(SkyPilotOptions.defaults().skipUnknownAccelerators()).isTrue();
    assertThat(SkyPilotOptions.builder().skipUnknownAccelerators().build().strict()).isFalse();
    assertThatIllegalStateException().isThrownBy(() -> SkyPilotOptions.builder().skipUnknownAccelerators().strict())
        .withMessage("strict contradicts skipUnknownAccelerators, which was already set");
    assertThatIllegalStateException().isThrownBy(() -> SkyPilotOptions.builder().strict().strict())
        .withMessage("strict was already set");
  }

  @Test
  void fractional_gpu_counts_are_reported() {
    Path file = write(dir, "azure/vms.csv",
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region",
        "Standard_NV6ads_A10_v5,A10,0.16666666666666666,6,55,,0.454,0.0908,eastus",
        "Standard_NV36ads_A10_v5,A10,1,36,440,,3.2,0.64,eastus");
    Catalog azure = load(file);
    assertThat(azure.offerings()).extracting(Offering::key).containsExactly("azure/Standard_NV36ads_A10_v5/eastus");
    assertThat(azure.loadReport().skipped()).singleElement().satisfies(s -> {
      assertThat(s.reason()).isEqualTo(Reason.FRACTIONAL_GPU_COUNT);
      assertThat(s.line()).isEqualTo(2);
    });
  }

  @Test
  void missing_required_column_is_named() {
    Path file = write(dir, "aws/vms.csv", "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Region",
        "g4dn.xlarge,T4,1,4,16,us-east-1");
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> load(file));
    assertThat(e.problem()).isEqualTo("the header lacks column Price; a SkyPilot vms.csv header has the columns "
        + "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region");
  }

  @Test
  void row_naming_neither_machine_nor_accelerator_is_rejected() {
    Path file = write(dir, "aws/vms.csv", AWS_HEADER, ",,,4,16,,0.5,,us-east-1,use1-az1");
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> load(file));
    assertThat(e.line()).hasValue(2);
    assertThat(e.column()).contains("InstanceType");
  }

  @Test
  void bad_numbers_in_a_gpu_row_are_rejected() {
    Path file = write(dir, "aws/vms.csv", AWS_HEADER, "g4dn.xlarge,T4,1,4.5,16,,0.526,,us-east-1,use1-az1");
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> load(file));
    assertThat(e.column()).contains("vCPUs");
    assertThat(e.problem()).isEqualTo("must be a whole number >= 0, was '4.5'");
    Path negative = write(dir, "gcp/vms.csv", AWS_HEADER, "g4dn.xlarge,T4,1,4,16,,-0.526,,us-east-1,use1-az1");
    assertThat(catchThrowableOfType(CatalogException.class, () -> load(negative)).problem())
        .isEqualTo("must be a number >= 0, was '-0.526'");
  }

  @Test
  void a_file_of_another_format_is_not_read_as_skypilot() {
    Path offerings = Fixtures.resource("offerings.csv");
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> load(offerings));
    assertThat(e.problem()).startsWith("expected a SkyPilot vms.csv file, but the header provider,");
  }

  @Test
  void load_tells_skypilot_files_from_offering_files_by_their_header() {
    // GIVEN an AWS SkyPilot file and the project's own offerings file, whose keys overlap nowhere but in p4d
    Path sky = write(dir, "aws/vms.csv", AWS_HEADER, "p3.2xlarge,V100,1,8,61,,3.06,,us-west-2,usw2-az1");
    Catalog both = Fixtures.load(sky, Fixtures.resource("offerings.csv"));
    assertThat(both.offerings()).hasSize(7);
    assertThat(both.offerings().get(0).key()).isEqualTo("aws/p3.2xlarge/us-west-2");
  }

  @Test
  void same_offering_in_a_skypilot_file_and_an_offerings_file_is_a_duplicate() {
    Path sky = write(dir, "aws/vms.csv", AWS_HEADER, "g4dn.xlarge,T4,1,4,16,,0.526,,us-east-1,use1-az1");
    CatalogException e = catchThrowableOfType(CatalogException.class,
        () -> Fixtures.load(sky, Fixtures.resource("offerings.csv")));
    assertThat(e.problem()).startsWith("duplicate offering aws/g4dn.xlarge/us-east-1");
    assertThat(List.of(e.file())).containsExactly(Fixtures.resource("offerings.csv").toString());
  }
}
