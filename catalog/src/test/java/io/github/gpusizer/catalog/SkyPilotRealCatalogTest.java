package io.github.gpusizer.catalog;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.gpusizer.catalog.LoadReport.Reason;
import io.github.gpusizer.catalog.LoadReport.Skipped;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Loads excerpts of the current SkyPilot catalogs (testdata/skypilot-real, each cited in its README) the way a user
 * would: the bundled GPUs, no flag. The GPU instance types of an excerpt are counted here independently of the
 * loader (rows naming an instance type and a GPU, whole GPU counts, an on-demand price; TPUs, Trainium, Inferentia
 * and Gaudi are not GPUs), and every one the loader does not turn into an offering must be named in the load report.
 */
class SkyPilotRealCatalogTest {
  private static final LocalDate DATE = LocalDate.of(2026, 11, 30);
  /** The clouds of the excerpts under {@code testdata/skypilot-real}. */
  private static final List<String> EXCERPTS =
      List.of("lambda", "cudo", "runpod", "vast", "aws", "oci", "paperspace", "fluidstack", "gcp", "nebius");
  /** Accelerators SkyPilot lists that are not GPUs: Google TPUs, AWS Trainium and Inferentia, Intel Gaudi. */
  private static final List<String> NOT_GPUS = List.of("tpu-", "trainium", "inferentia", "gaudi");

  @TempDir
  Path dir;

  private static Path file(String cloud) {
    return Fixtures.resource("skypilot-real/" + cloud + "/vms.csv");
  }

  private static Catalog load(Path file) {
    return Catalog.loadSkyPilot(file, SkyPilotOptions.builder().priceDate(DATE).build());
  }

  /** Instance type to accelerator, for the GPU instance types of a file, read without the library's loader. */
  private static TreeMap<String, String> gpuInstanceTypes(Path file) {
    TreeMap<String, String> types = new TreeMap<>();
    try (Reader reader = Files.newBufferedReader(file, UTF_8);
        CSVParser parser = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(reader)) {
      for (CSVRecord r : parser) {
        String type = r.get("InstanceType").strip();
        String accelerator = r.get("AcceleratorName").strip();
        if (type.isEmpty() || accelerator.isEmpty() || r.get("Price").isBlank()) {
          continue;
        }
        String lower = accelerator.toLowerCase(Locale.ROOT);
        if (NOT_GPUS.stream().anyMatch(lower::startsWith)) {
          continue;
        }
        if (new BigDecimal(r.get("AcceleratorCount").strip()).stripTrailingZeros().scale() > 0) {
          continue; // a fraction of a GPU: left out by design, reported as FRACTIONAL_GPU_COUNT
        }
        types.put(type, accelerator);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return types;
  }

  @ParameterizedTest(name = "{0}: {1} of {2} GPU instance types load, not modelled: [{3}]")
  @CsvSource(delimiter = '|', value = {
      // cloud      | loaded | GPU types | accelerators the catalog does not model
      "lambda       | 19     | 19        | ''",
      "cudo         | 19     | 19        | ''",
      "runpod       | 9      | 9         | ''",
      "fluidstack   | 12     | 12        | ''",
      "vast         | 44     | 46        | RTX4060;RTX4070",
      "oci          | 21     | 21        | ''",
      "paperspace   | 14     | 14        | ''",
      "aws          | 14     | 14        | ''",
  })
  void current_catalog_loads_without_a_flag_and_names_every_gpu_instance_type_it_leaves_out(
      String cloud, int loaded, int gpuTypes, String notModelled) {
    // GIVEN an excerpt of a current SkyPilot catalog
    Path file = file(cloud);
    TreeMap<String, String> expected = gpuInstanceTypes(file);

    // WHEN it is loaded with the defaults
    Catalog catalog = load(file);

    // THEN the GPU instance types load, except those of accelerators the catalog does not model ...
    Set<String> offered = catalog.offerings().stream().map(Offering::instanceType).collect(Collectors.toSet());
    assertThat(expected).hasSize(gpuTypes);
    assertThat(expected.keySet()).containsAll(offered);
    assertThat(offered).hasSize(loaded);
    Set<String> missing = new TreeSet<>(expected.keySet());
    missing.removeAll(offered);
    Set<String> notModelledNames = notModelled.isEmpty() ? Set.of() : Set.copyOf(Arrays.asList(notModelled.split(";")));
    assertThat(missing.stream().map(expected::get).collect(Collectors.toSet()))
        .containsExactlyInAnyOrderElementsOf(notModelledNames);
    // ... each of which the load report names with its row and accelerator
    for (String type : missing) {
      assertThat(catalog.loadReport().skipped())
          .as("%s %s", cloud, type)
          .anySatisfy(s -> {
            assertThat(s.reason()).isEqualTo(Reason.UNKNOWN_ACCELERATOR);
            assertThat(s.detail()).startsWith(type + " in ");
            assertThat(s.accelerator()).isEqualTo(expected.get(type));
          });
    }
    assertThat(catalog.loadReport().accelerators(Reason.UNKNOWN_ACCELERATOR).keySet())
        .containsAll(notModelledNames);
    notModelledNames.forEach(name -> assertThat(catalog.loadReport().summary()).contains(name + " "));
  }

  @ParameterizedTest(name = "{0} reaches the 95 % goal")
  @CsvSource({"lambda", "cudo", "runpod", "fluidstack", "vast", "oci", "paperspace", "aws", "nebius"})
  void at_least_95_percent_of_the_gpu_instance_types_load(String cloud) {
    Path file = file(cloud);
    long types = gpuInstanceTypes(file).size();
    long loaded = load(file).offerings().stream().map(Offering::instanceType).distinct().count();
    assertThat((double) loaded / types).as("%s: %d of %d", cloud, loaded, types).isGreaterThanOrEqualTo(0.95);
  }

  /**
   * GCP prices GPUs in rows of their own (no instance type) and the host VM in another: a GPU "instance type" here
   * is an accelerator and count that a GPU row prices, which must come out as an offering on its machine family.
   */
  @Test
  void gcp_gpu_rows_load_on_their_host_machine_and_reach_the_95_percent_goal() throws IOException {
    // GIVEN the GCP excerpt's GPU rows (accelerator and count), read without the library's loader
    Set<String> gpuTypes = new TreeSet<>();
    try (Reader in = Files.newBufferedReader(file("gcp"), UTF_8);
        CSVParser csv = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build().parse(in)) {
      for (CSVRecord r : csv) {
        if (r.get("InstanceType").isBlank() && !r.get("AcceleratorName").isBlank()) {
          gpuTypes.add(r.get("AcceleratorName") + ":" + r.get("AcceleratorCount"));
        }
      }
    }
    assertThat(gpuTypes).hasSize(10);

    // WHEN it is loaded with the defaults
    Catalog catalog = load(file("gcp"));

    // THEN each accelerator and count is offered on its accelerator-optimized machine, priced GPU row + host row
    Set<String> offered = catalog.offerings().stream()
        .map(o -> o.instanceType() + "=" + o.gpu().id() + "x" + o.gpuCount())
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(offered).containsExactly(
        "a2-ultragpu-2g=a100-sxm4-80gbx2", "a2-ultragpu-4g=a100-sxm4-80gbx4", "a2-ultragpu-8g=a100-sxm4-80gbx8",
        "a3-highgpu-1g=h100-sxmx1", "a3-highgpu-2g=h100-sxmx2", "a3-highgpu-4g=h100-sxmx4", "a3-highgpu-8g=h100-sxmx8",
        "a3-megagpu-8g=h100-sxmx8", "a3-ultragpu-8g=h200-sxmx8", "a4-highgpu-8g=b200x8");
    // (one machine type per GPU row type: H100:8 on A3 High, H100-MEGA:8 on A3 Mega)
    assertThat((double) offered.size() / gpuTypes.size()).isGreaterThanOrEqualTo(0.95);
    Offering h100 = catalog.offerings().stream().filter(o -> o.instanceType().equals("a3-highgpu-8g"))
        .findFirst().orElseThrow();
    assertThat(h100.region()).isEqualTo("us-central1");
    assertThat(h100.onDemandPerHour()).isEqualTo(Money.of("43.06615", "USD")); // 33.60609 + 9.46006
    Offering b200 = catalog.offerings().stream().filter(o -> o.instanceType().equals("a4-highgpu-8g"))
        .findFirst().orElseThrow();
    assertThat(b200.onDemandPerHour()).isEqualTo(Money.of("90.216", "USD")); // GPU row; the A4 host row is 0.0
    // ... and nothing is left out for want of a model or a host; the host rows are CPU-only rows
    assertThat(catalog.loadReport().skipped()).extracting(Skipped::reason)
        .doesNotContain(Reason.UNKNOWN_ACCELERATOR, Reason.NO_HOST_VM)
        .containsOnly(Reason.NO_ACCELERATOR);
  }

  @Test
  void crlf_line_ends_load_like_lf() throws IOException {
    // GIVEN the LF Lambda excerpt and the same rows with CRLF line ends (Vast's real file has CRLF)
    String text = Files.readString(file("lambda"), UTF_8);
    Path crlf = dir.resolve("lambda/vms.csv");
    Files.createDirectories(crlf.getParent());
    Files.writeString(crlf, text.replace("\n", "\r\n"), UTF_8);
    // WHEN both load  THEN they give the same offerings and report the same rows
    Catalog lf = load(file("lambda"));
    Catalog withCr = load(crlf);
    assertThat(withCr.offerings()).extracting(Offering::key).containsExactlyElementsOf(
        lf.offerings().stream().map(Offering::key).toList());
    assertThat(withCr.loadReport().skipped()).extracting(Skipped::line, Skipped::reason).containsExactlyElementsOf(
        lf.loadReport().skipped().stream().map(s -> org.assertj.core.groups.Tuple.tuple(s.line(), s.reason()))
            .toList());
    assertThat(Files.readString(file("vast"), UTF_8)).contains("\r\n");
  }

  @Test
  void v8_arch_column_and_per_cloud_column_orders_are_read_by_name() {
    // AWS v8 appends Arch; RunPod puts Region before the prices; GCP-style orders differ again
    Catalog aws = load(file("aws"));
    assertThat(aws.offerings()).extracting(Offering::key).contains("aws/p4d.24xlarge/ca-central-1");
    Offering h100 = load(file("runpod")).offerings().stream()
        .filter(o -> o.instanceType().equals("8x_H100_SECURE") && o.region().equals("US"))
        .findFirst().orElseThrow();
    assertThat(h100.gpuCount()).isEqualTo(8);
    assertThat(h100.onDemandPerHour()).isEqualTo(Money.of("23.12", "USD"));
  }

  @Test
  void fractional_l4_rows_are_reported_not_counted() {
    Catalog aws = load(file("aws"));
    assertThat(aws.loadReport().skipped()).anySatisfy(s -> {
      assertThat(s.reason()).isEqualTo(Reason.FRACTIONAL_GPU_COUNT);
      assertThat(s.detail()).startsWith("gr6f.4xlarge in usw2-az1");
    });
  }

  @Test
  void strict_load_fails_on_the_first_accelerator_the_catalog_does_not_model() {
    // the Vast excerpt's first RTX 4070 Ti SUPER row, which SkyPilot names RTX4070
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> Catalog.loadSkyPilot(file("vast"),
        SkyPilotOptions.builder().priceDate(DATE).strict().build()));
    assertThat(e.line()).hasValue(44);
    assertThat(e.column()).contains("AcceleratorName");
    assertThat(e.problem()).startsWith("unknown GPU 'RTX4070'");
  }

  @Test
  void aws_g5g_and_g4ad_load_on_the_t4g_and_the_radeon_pro_v520_even_strictly() {
    // GIVEN the AWS excerpt  WHEN loaded strictly  THEN no accelerator is unknown and Graviton's T4G and G4ad's V520
    // come out with SkyPilot's GPU counts and the AWS per-GPU memory (GpuInfo: 16384 and 8192 MiB)
    Catalog aws = Catalog.loadSkyPilot(file("aws"), SkyPilotOptions.builder().priceDate(DATE).strict().build());
    Set<String> offered = aws.offerings().stream()
        .filter(o -> o.instanceType().startsWith("g5g.") || o.instanceType().startsWith("g4ad."))
        .map(o -> o.instanceType() + "=" + o.gpu().id() + "x" + o.gpuCount())
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(offered).containsExactly(
        "g4ad.2xlarge=radeon-pro-v520x1", "g4ad.4xlarge=radeon-pro-v520x1", "g4ad.8xlarge=radeon-pro-v520x2",
        "g4ad.xlarge=radeon-pro-v520x1", "g5g.16xlarge=t4gx2", "g5g.2xlarge=t4gx1", "g5g.4xlarge=t4gx1",
        "g5g.8xlarge=t4gx1");
    Offering g5g = aws.offerings().stream().filter(o -> o.instanceType().equals("g5g.16xlarge")).findFirst()
        .orElseThrow();
    assertThat(g5g.gpu().memory()).isEqualTo(DataSize.ofGiB(16));
    assertThat(g5g.gpu().computeCapability()).hasValue(new ComputeCapability(7, 5));
    Offering g4ad = aws.offerings().stream().filter(o -> o.instanceType().equals("g4ad.8xlarge")).findFirst()
        .orElseThrow();
    assertThat(g4ad.gpu().memory()).isEqualTo(DataSize.ofGiB(8));
    assertThat(g4ad.gpu().vendor()).isEqualTo(Vendor.AMD);
    assertThat(g4ad.gpu().tensorCores()).isFalse();
    assertThat(aws.loadReport().accelerators(Reason.UNKNOWN_ACCELERATOR)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
      "fluidstack, A100_PCIE_80GB::1, a100-pcie-80gb, instance type",
      "runpod, 1x_A100-80GB_SECURE, a100-pcie-80gb, GpuInfo",
      "paperspace, A100-80G, a100-sxm4-80gb, ''"})
  void a_row_that_says_pcie_loads_on_the_pcie_board_of_its_accelerator(String cloud, String type, String gpu,
      String where) {
    // GIVEN rows whose AcceleratorName is A100-80GB (the SXM module's alias), of which Fluidstack's instance type and
    // RunPod's GpuInfo ('Name': 'A100 PCIe') say PCIe, and Paperspace's says nothing more
    Offering o = load(file(cloud)).offerings().stream().filter(x -> x.instanceType().equals(type)).findFirst()
        .orElseThrow();
    // THEN the first two are the PCIe board (no NVLink switch, 300 W), the source says why; the third stays SXM
    assertThat(o.gpu().id()).isEqualTo(gpu);
    if (!where.isEmpty()) {
      assertThat(o.source()).contains("a100-pcie-80gb, not a100-sxm4-80gb: the row's " + where + " says PCIe");
    }
  }

  @Test
  void the_pcie_board_of_an_sxm_module_is_the_one_of_its_chip_and_memory() {
    Catalog bundled = Catalog.bundled();
    NameIndex.Builder builder = NameIndex.builder();
    bundled.gpus().forEach(builder::add);
    NameIndex names = builder.build();
    assertThat(names.pcieBoardOf(bundled.gpu("h100-sxm")).map(Gpu::id)).contains("h100-pcie");
    assertThat(names.pcieBoardOf(bundled.gpu("v100-sxm2-16gb")).map(Gpu::id)).contains("v100-pcie-16gb");
    assertThat(names.pcieBoardOf(bundled.gpu("a100-sxm4-40gb")).map(Gpu::id)).contains("a100-pcie-40gb");
    // none for a module without a PCIe sibling of its memory, nor for what is no SXM module
    assertThat(names.pcieBoardOf(bundled.gpu("h100-sxm-96gb"))).isEmpty();
    assertThat(names.pcieBoardOf(bundled.gpu("h800-sxm"))).isEmpty();
    assertThat(names.pcieBoardOf(bundled.gpu("gh200"))).isEmpty();
    assertThat(names.pcieBoardOf(bundled.gpu("a100-pcie-80gb"))).isEmpty();
  }

  @Test
  void clouds_where_skypilot_runs_no_multi_node_job_load_stand_alone() {
    // GIVEN RunPod's and Vast's catalogs (SkyPilot declares multi-node unsupported on both)
    for (String cloud : List.of("runpod", "vast")) {
      // THEN no offering of theirs is joined into a multi-node job, and each says why
      assertThat(load(file(cloud)).offerings()).as(cloud).isNotEmpty().allSatisfy(o -> {
        assertThat(o.fabric()).isEqualTo(Fabric.STANDALONE);
        assertThat(o.source()).contains("by default for every " + cloud + " instance type");
      });
    }
  }

  @Test
  void nebius_eight_gpu_hopper_and_blackwell_vms_join_over_infiniband_the_others_over_ethernet() {
    Catalog nebius = load(file("nebius"));
    for (Offering o : nebius.offerings()) {
      boolean eightGpuSxm = o.instanceType().matches("gpu-[hb][12]00-sxm_8gpu-.*");
      assertThat(o.fabric()).as(o.instanceType()).isEqualTo(eightGpuSxm ? Fabric.CLUSTER : Fabric.ETHERNET);
      if (eightGpuSxm) {
        assertThat(o.networkGbps()).as(o.instanceType()).hasValue(3200.0);
      }
    }
    assertThat(nebius.offerings()).filteredOn(o -> o.fabric() == Fabric.CLUSTER).hasSize(4);
  }

  @Test
  void every_real_excerpt_loads_with_the_defaults() {
    for (String cloud : EXCERPTS) {
      assertThatCode(() -> load(file(cloud))).as(cloud).doesNotThrowAnyException();
    }
  }

  @Test
  void readme_cites_repository_path_and_commit_of_every_excerpt() throws IOException {
    String readme = Files.readString(Fixtures.resource("skypilot-real/README.md"), UTF_8);
    for (String cloud : EXCERPTS) {
      assertThat(readme).as(cloud).containsPattern("`" + cloud + "/vms\\.csv`.*catalogs/v[5-8]/" + cloud
          + "/vms\\.csv.*[0-9a-f]{40}");
    }
  }
}
