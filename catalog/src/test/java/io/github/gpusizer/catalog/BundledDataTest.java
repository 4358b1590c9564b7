package io.github.gpusizer.catalog;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Currency;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Checks the bundled {@code gpus.csv} and {@code offerings.csv} as plain CSV, independently of the catalog loader:
 * shape, vocabulary, cross-references, datasheet values pinned exactly, and the physics that ties the columns of a
 * row together. A failure names the file, the row and the rule.
 */
class BundledDataTest {

  private static final String GPUS = "gpus.csv";
  private static final String OFFERINGS = "offerings.csv";

  private static final List<String> GPU_COLUMNS = List.of(
      "id", "name", "aliases", "vendor", "architecture", "compute_capability", "release_year", "memory_gib",
      "memory_type", "memory_bandwidth_gbps", "fp64_tflops", "fp32_tflops", "tf32_tflops", "fp16_tflops",
      "bf16_tflops", "fp8_tflops", "int8_tops", "fp16_acc16_tflops", "tensor_cores", "form_factor", "nvlink_gbps",
      "pcie_gen", "tdp_w", "sm_count", "min_cuda", "price_amount", "price_currency", "price_date", "price_kind",
      "price_source", "source", "unconfirmed");

  private static final List<String> OFFERING_COLUMNS = List.of(
      "provider", "instance_type", "region", "gpu", "gpu_count", "vcpus", "ram_gib", "disk_gb", "price_per_hour",
      "spot_per_hour", "currency", "billing", "monthly", "yearly", "network_gbps", "fabric", "price_date", "source");

  /** Dense throughput columns, TFLOP/s (TOPS for INT8). */
  private static final List<String> RATE_COLUMNS = List.of(
      "fp64_tflops", "fp32_tflops", "tf32_tflops", "fp16_tflops", "bf16_tflops", "fp8_tflops", "int8_tops",
      "fp16_acc16_tflops");

  /** GPU columns that must hold a number > 0 wherever they are filled. */
  private static final List<String> POSITIVE_GPU_COLUMNS = concat(
      List.of("release_year", "memory_gib", "memory_bandwidth_gbps", "pcie_gen", "tdp_w", "sm_count", "price_amount"),
      RATE_COLUMNS);

  /** Columns a datum may be flagged in; identity and provenance columns cannot be "unconfirmed". */
  private static final Set<String> FLAGGABLE = GPU_COLUMNS.stream()
      .filter(c -> !Set.of("id", "name", "aliases", "vendor", "source", "unconfirmed", "price_source").contains(c))
      .collect(Collectors.toSet());

  private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9.-]*");
  private static final Pattern LEADING_BRAND = Pattern.compile("^(nvidia|tesla|geforce)");

  private static List<CSVRecord> gpus;
  private static List<CSVRecord> offerings;
  private static List<String> gpuHeader;
  private static List<String> offeringHeader;
  private static Map<String, CSVRecord> gpuById;

  @BeforeAll
  static void readBundledFiles() {
    Parsed g = read(GPUS);
    Parsed o = read(OFFERINGS);
    gpus = g.records();
    gpuHeader = g.header();
    offerings = o.records();
    offeringHeader = o.header();
    gpuById = new LinkedHashMap<>();
    for (CSVRecord r : gpus) {
      gpuById.put(r.get("id"), r);
    }
  }

  // ---------------------------------------------------------------------------------------------- shape

  @Test
  void gpu_file_has_exactly_the_documented_header() {
    assertThat(gpuHeader).containsExactlyElementsOf(GPU_COLUMNS);
  }

  @Test
  void offering_file_has_exactly_the_documented_header() {
    assertThat(offeringHeader).containsExactlyElementsOf(OFFERING_COLUMNS);
  }

  @Test
  void catalog_is_large_enough_to_size_real_jobs() {
    // GIVEN the bundled files  WHEN counted  THEN they hold the ~32 GPUs and 40-80 offerings the catalog promises
    assertThat(gpus).hasSizeGreaterThanOrEqualTo(30);
    assertThat(offerings).hasSizeBetween(40, 80);
  }

  @Test
  void every_row_fills_every_column() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      if (!r.isConsistent() || r.size() != GPU_COLUMNS.size()) {
        bad.add(where(GPUS, r) + " has " + r.size() + " columns, expected " + GPU_COLUMNS.size());
      }
    }
    for (CSVRecord r : offerings) {
      if (!r.isConsistent() || r.size() != OFFERING_COLUMNS.size()) {
        bad.add(where(OFFERINGS, r) + " has " + r.size() + " columns, expected " + OFFERING_COLUMNS.size());
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void gpu_ids_are_unique_lower_case_slugs() {
    List<String> ids = gpus.stream().map(r -> r.get("id")).toList();
    assertThat(ids).doesNotHaveDuplicates().allMatch(id -> ID.matcher(id).matches(), "matches " + ID);
  }

  @Test
  void every_id_name_and_alias_resolves_to_one_gpu_after_normalisation() {
    // GIVEN every spelling a user or a cloud may use for a GPU (id, display name, aliases)
    Map<String, String> owner = new HashMap<>();
    List<String> clashes = new ArrayList<>();
    for (CSVRecord r : gpus) {
      String id = r.get("id");
      List<String> spellings = new ArrayList<>(List.of(id, r.get("name")));
      spellings.addAll(aliases(r));
      for (String s : spellings) {
        // WHEN normalised the way look-ups normalise
        String key = normalise(s);
        String previous = owner.putIfAbsent(key, id);
        // THEN no spelling of one GPU reads as a spelling of another
        if (previous != null && !previous.equals(id)) {
          clashes.add("'" + s + "' (" + key + ") names both " + previous + " and " + id);
        }
      }
    }
    assertThat(clashes).isEmpty();
  }

  @Test
  void aliases_are_non_blank_and_not_repeated_within_a_row() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      List<String> a = aliases(r);
      if (a.stream().anyMatch(String::isBlank) || new HashSet<>(a).size() != a.size()) {
        bad.add(where(GPUS, r) + " aliases '" + r.get("aliases") + "'");
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void every_offering_names_a_gpu_of_the_catalog() {
    List<String> unknown = offerings.stream()
        .filter(r -> !gpuById.containsKey(r.get("gpu")))
        .map(r -> where(OFFERINGS, r) + " gpu '" + r.get("gpu") + "'")
        .toList();
    assertThat(unknown).isEmpty();
  }

  @Test
  void offering_keys_are_unique() {
    List<String> keys = offerings.stream()
        .map(r -> r.get("provider") + "/" + r.get("instance_type") + "/" + r.get("region"))
        .toList();
    assertThat(keys).doesNotHaveDuplicates();
  }

  // ---------------------------------------------------------------------------------------------- values

  @Test
  void gpu_numbers_are_positive_and_finite_where_present() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      for (String c : POSITIVE_GPU_COLUMNS) {
        checkNumber(bad, GPUS, r, c, false);
      }
      checkNumber(bad, GPUS, r, "nvlink_gbps", true);
      for (String c : List.of("memory_gib", "memory_bandwidth_gbps", "tdp_w", "nvlink_gbps", "release_year")) {
        if (r.get(c).isEmpty()) {
          bad.add(where(GPUS, r) + " " + c + " is required");
        }
      }
      for (String c : List.of("release_year", "memory_gib", "pcie_gen", "tdp_w", "sm_count")) {
        if (!r.get(c).isEmpty() && !r.get(c).matches("\\d+")) {
          bad.add(where(GPUS, r) + " " + c + " must be a whole number, was '" + r.get(c) + "'");
        }
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void offering_numbers_are_positive_and_finite_where_present() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : offerings) {
      for (String c : List.of("gpu_count", "vcpus", "ram_gib", "price_per_hour", "spot_per_hour", "monthly",
          "yearly", "network_gbps")) {
        checkNumber(bad, OFFERINGS, r, c, false);
      }
      checkNumber(bad, OFFERINGS, r, "disk_gb", true);
      for (String c : List.of("gpu_count", "vcpus", "ram_gib", "disk_gb", "price_per_hour")) {
        if (r.get(c).isEmpty()) {
          bad.add(where(OFFERINGS, r) + " " + c + " is required");
        }
      }
      for (String c : List.of("gpu_count", "vcpus", "disk_gb")) {
        if (!r.get(c).matches("\\d+")) {
          bad.add(where(OFFERINGS, r) + " " + c + " must be a whole number, was '" + r.get(c) + "'");
        }
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void spot_price_never_exceeds_the_on_demand_price() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : offerings) {
      if (!r.get("spot_per_hour").isEmpty()
          && new BigDecimal(r.get("spot_per_hour")).compareTo(new BigDecimal(r.get("price_per_hour"))) > 0) {
        bad.add(where(OFFERINGS, r) + " spot " + r.get("spot_per_hour") + " > on-demand " + r.get("price_per_hour"));
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void closed_vocabulary_columns_use_the_library_enum_names() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      checkIn(bad, GPUS, r, "vendor", names(Vendor.values()), false);
      checkIn(bad, GPUS, r, "memory_type", names(MemoryType.values()), false);
      checkIn(bad, GPUS, r, "form_factor", names(FormFactor.values()), false);
      checkIn(bad, GPUS, r, "tensor_cores", Set.of("true", "false"), false);
      checkIn(bad, GPUS, r, "price_kind", names(PurchasePrice.Kind.values()), true);
    }
    for (CSVRecord r : offerings) {
      checkIn(bad, OFFERINGS, r, "billing", names(BillingMode.values()), false);
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void versions_currencies_and_dates_parse() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      parseOrReport(bad, GPUS, r, "compute_capability", ComputeCapability::parse);
      parseOrReport(bad, GPUS, r, "min_cuda", CudaVersion::parse);
      parseOrReport(bad, GPUS, r, "price_currency", Currency::getInstance);
      parseOrReport(bad, GPUS, r, "price_date", LocalDate::parse);
    }
    for (CSVRecord r : offerings) {
      parseOrReport(bad, OFFERINGS, r, "currency", Currency::getInstance);
      parseOrReport(bad, OFFERINGS, r, "price_date", LocalDate::parse);
      if (r.get("currency").isEmpty() || r.get("price_date").isEmpty()) {
        bad.add(where(OFFERINGS, r) + " needs a currency and a price date");
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void every_row_names_its_source() {
    List<String> bad = new ArrayList<>();
    gpus.stream().filter(r -> r.get("source").isBlank()).forEach(r -> bad.add(where(GPUS, r) + " has no source"));
    offerings.stream().filter(r -> r.get("source").isBlank())
        .forEach(r -> bad.add(where(OFFERINGS, r) + " has no source"));
    assertThat(bad).isEmpty();
  }

  @Test
  void a_purchase_price_comes_whole_or_not_at_all() {
    // GIVEN the five price columns  THEN they are all filled (amount, currency, date, kind, source) or all empty
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      long filled = List.of("price_amount", "price_currency", "price_date", "price_kind", "price_source").stream()
          .filter(c -> !r.get(c).isBlank())
          .count();
      if (filled != 0 && filled != 5) {
        bad.add(where(GPUS, r) + " fills " + filled + " of the 5 price columns");
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void unconfirmed_flags_name_filled_data_columns() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      for (String c : split(r.get("unconfirmed"))) {
        if (!FLAGGABLE.contains(c)) {
          bad.add(where(GPUS, r) + " flags unknown column '" + c + "'");
        } else if (r.get(c).isEmpty()) {
          bad.add(where(GPUS, r) + " flags empty column '" + c + "'");
        }
      }
    }
    assertThat(bad).isEmpty();
  }

  // ---------------------------------------------------------------------------------------------- datasheets

  @ParameterizedTest(name = "{0} {1} = {2}")
  @CsvSource({
      // NVIDIA H100 datasheet + Hopper whitepaper: dense, not the sparse 1979
      "h100-sxm, bf16_tflops, 989.4",
      "h100-sxm, fp16_tflops, 989.4",
      "h100-sxm, tf32_tflops, 494.7",
      "h100-sxm, fp8_tflops, 1978.9",
      "h100-sxm, fp32_tflops, 67",
      "h100-sxm, fp64_tflops, 34",
      "h100-sxm, memory_bandwidth_gbps, 3350",
      "h100-sxm, nvlink_gbps, 900",
      "h100-sxm, memory_gib, 80",
      "h100-pcie, fp32_tflops, 51",
      "h100-pcie, memory_bandwidth_gbps, 2000",
      "h200-sxm, memory_gib, 141",
      "h200-sxm, memory_bandwidth_gbps, 4800",
      // NVIDIA A100 datasheet
      "a100-sxm4-80gb, fp16_tflops, 312",
      "a100-sxm4-80gb, bf16_tflops, 312",
      "a100-sxm4-80gb, tf32_tflops, 156",
      "a100-sxm4-80gb, fp32_tflops, 19.5",
      "a100-sxm4-80gb, memory_bandwidth_gbps, 2039",
      "a100-sxm4-80gb, nvlink_gbps, 600",
      "a100-sxm4-40gb, memory_bandwidth_gbps, 1555",
      "a100-sxm4-40gb, memory_gib, 40",
      "a100-pcie-80gb, memory_bandwidth_gbps, 1935",
      // GeForce: FP32-accumulate rate is half the FP16-accumulate rate (Ada, GA102, Turing whitepapers)
      "rtx-4090, fp16_tflops, 165.2",
      "rtx-4090, fp16_acc16_tflops, 330.3",
      "rtx-4090, fp32_tflops, 82.6",
      "rtx-4090, memory_bandwidth_gbps, 1008",
      "rtx-4090, memory_gib, 24",
      "rtx-3090, fp16_tflops, 71",
      "rtx-3090, fp16_acc16_tflops, 142",
      "rtx-3090, fp32_tflops, 35.6",
      "rtx-3090, memory_bandwidth_gbps, 936",
      "rtx-2080-ti, fp16_tflops, 53.8",
      "rtx-2080-ti, fp16_acc16_tflops, 107.6",
      // Volta, Turing, Pascal, Kepler datasheets
      "v100-sxm2-16gb, fp16_tflops, 125",
      "v100-sxm2-16gb, fp32_tflops, 15.7",
      "v100-sxm2-16gb, memory_bandwidth_gbps, 900",
      "v100-sxm2-16gb, nvlink_gbps, 300",
      "v100-sxm2-32gb, memory_gib, 32",
      "t4, fp16_tflops, 65",
      "t4, fp32_tflops, 8.1",
      "t4, int8_tops, 130",
      "t4, memory_bandwidth_gbps, 320",
      "p100-sxm2-16gb, fp16_tflops, 21.2",
      "p100-pcie-16gb, fp32_tflops, 9.3",
      "k80, memory_gib, 24",
      "k80, fp32_tflops, 8.73",
      // Ada data-centre, AMD, Google
      "l4, fp32_tflops, 30.3",
      "l40s, fp32_tflops, 91.6",
      "mi300x, fp16_tflops, 1307.4",
      "mi300x, memory_gib, 192",
      "tpu-v4, bf16_tflops, 275",
      "tpu-v5e, bf16_tflops, 197",
      "tpu-v5e, memory_bandwidth_gbps, 819",
      // GPUs added for the SkyPilot catalogs and the seeds (issue 13), figures as their cited copies print them
      "l40, fp32_tflops, 90.5",
      "l40, fp8_tflops, 362",
      "l40, memory_bandwidth_gbps, 864",
      "rtx-a6000, memory_gib, 48",
      "rtx-a6000, memory_bandwidth_gbps, 768",
      "rtx-a4000, fp32_tflops, 19.2",
      "rtx-6000-ada, fp32_tflops, 91.1",
      "rtx-6000-ada, memory_bandwidth_gbps, 960",
      "a16, fp16_tflops, 17.9",
      "a16, memory_gib, 16",
      "a800-sxm4-80gb, nvlink_gbps, 400",
      "h800-sxm, nvlink_gbps, 400",
      "h800-sxm, fp64_tflops, 1",
      "p4, int8_tops, 22",
      "p4, fp32_tflops, 5.5",
      "m60, memory_gib, 8",
      "titan-v, fp16_tflops, 110",
      "titan-v, memory_gib, 12",
      "titan-rtx, fp16_tflops, 130",
      "titan-rtx, memory_bandwidth_gbps, 672",
      "gtx-1080-ti, memory_bandwidth_gbps, 484",
      "rtx-2080, memory_bandwidth_gbps, 448",
      "rtx-3080, memory_bandwidth_gbps, 760",
      "mi210, fp16_tflops, 181",
      "mi210, fp64_tflops, 22.6",
      "mi210, memory_gib, 64",
      "rtx-pro-6000, fp32_tflops, 125",
      "rtx-pro-6000, memory_bandwidth_gbps, 1792",
      "rtx-2000-ada, memory_bandwidth_gbps, 224",
      "quadro-m4000, memory_bandwidth_gbps, 192.3",
      "quadro-p4000, memory_bandwidth_gbps, 243.3",
      "gb200, fp8_tflops, 5000",
      "gb200, fp64_tflops, 45",
      "gb200, tdp_w, 1200",
      "mi355x, memory_gib, 288",
      "b300, fp8_tflops, 4500",
      "b300, int8_tops, 150",
      "gb300, fp16_tflops, 2500",
      "mi355x, fp32_tflops, 157.3",
      "mi355x, fp64_tflops, 78.6",
      "t4g, fp32_tflops, 8.141",
      "t4g, memory_bandwidth_gbps, 320",
      "t4g, tdp_w, 70",
      "radeon-pro-v520, fp32_tflops, 7.373",
      "radeon-pro-v520, memory_gib, 8",
      "radeon-pro-v520, memory_bandwidth_gbps, 512",
  })
  void pins_datasheet_values_exactly(String id, String column, String expected) {
    // GIVEN a GPU  WHEN its datasheet column is read  THEN it is the published number, to the last digit
    CSVRecord r = gpu(id);
    assertThat(new BigDecimal(r.get(column))).as("%s %s", id, column).isEqualByComparingTo(expected);
  }

  @ParameterizedTest(name = "{0} has no {1}")
  @CsvSource({
      "v100-sxm2-16gb, bf16_tflops",
      "v100-sxm2-16gb, tf32_tflops",
      "t4, bf16_tflops",
      "t4, tf32_tflops",
      "a100-sxm4-40gb, fp8_tflops",
      "a100-sxm4-80gb, fp8_tflops",
      "rtx-3090, fp8_tflops",
      "k80, fp16_tflops",
      "m40, fp16_tflops",
      "h100-sxm, fp16_acc16_tflops",
      "tpu-v4, fp32_tflops",
      "titan-v, bf16_tflops",
      "rtx-2060, tf32_tflops",
      "gtx-1080-ti, fp16_tflops",
      "p4, fp16_tflops",
      "m60, fp16_tflops",
      "l40, fp16_acc16_tflops",
  })
  void leaves_unsupported_precisions_empty(String id, String column) {
    assertThat(gpu(id).get(column)).as("%s %s", id, column).isEmpty();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      // names as the seed guides and SkyPilot write them
      "K80, k80",
      "M40, m40",
      "P100, p100-pcie-16gb",
      "T4, t4",
      "V100, v100-sxm2-16gb",
      "V100-32GB, v100-sxm2-32gb",
      "RTX 3090, rtx-3090",
      "RTX4090, rtx-4090",
      "NVIDIA-4090-24GB, rtx-4090",
      "NVIDIA-A100-40GB, a100-sxm4-40gb",
      "A100, a100-sxm4-40gb",
      "A100-80GB, a100-sxm4-80gb",
      "H100, h100-sxm",
      "Tesla V100, v100-sxm2-16gb",
      "A10G, a10g",
      "L4, l4",
      "H200, h200-sxm",
      // seed 002/003 rank these consumer and workstation cards (Tim Dettmers' and Lambda's tables)
      "RTX 2060, rtx-2060",
      "RTX 2070, rtx-2070",
      "RTX 2080, rtx-2080",
      "RTX 2080 Ti, rtx-2080-ti",
      "Titan V, titan-v",
      "TITAN RTX, titan-rtx",
      "GTX 1080 Ti, gtx-1080-ti",
      "Quadro RTX 8000, quadro-rtx-8000",
      "Tesla A40, a40",
      // SkyPilot's spellings (catalogs/v8/common/accelerators.csv and the clouds' vms.csv)
      "A6000, rtx-a6000",
      "RTXA6000, rtx-a6000",
      "RTXA5000, rtx-a5000",
      "RTXA4500, rtx-a4500",
      "A4000, rtx-a4000",
      "RTXA4000, rtx-a4000",
      "RTXA2000, rtx-a2000",
      "RTX6000-Ada, rtx-6000-ada",
      "RTX6000Ada, rtx-6000-ada",
      "RTX6000, quadro-rtx-6000",
      "A800, a800-pcie-80gb",
      "H800, h800-sxm",
      "L20, l20",
      "L40, l40",
      "A16, a16",
      "P4, p4",
      "M60, m60",
      "RTX3060, rtx-3060",
      "RTX3070, rtx-3070",
      "RTX3080, rtx-3080",
      "RTX 3080 Ti, rtx-3080-ti",
      "RTX4080, rtx-4080",
      "RTX 4070 Ti, rtx-4070-ti",
      "MI210, mi210",
      "GB200, gb200",
      "MI355X, mi355x",
      "B300, b300",
      "GB300, gb300",
      "P4000, quadro-p4000",
      "RTXPRO6000, rtx-pro-6000",
      "RTXPRO6000S, rtx-pro-6000",
      "RTX2000-Ada, rtx-2000-ada",
      "RTX4000-Ada, rtx-4000-ada",
      "M4000, quadro-m4000",
      "T4g, t4g",
      "Radeon Pro V520, radeon-pro-v520",
  })
  void every_gpu_the_seed_guides_name_is_in_the_catalog(String spelling, String expectedId) {
    // GIVEN a name from a seed guide  WHEN normalised  THEN exactly that catalog GPU answers to it
    List<String> matches = gpus.stream()
        .filter(r -> spellings(r).stream().map(BundledDataTest::normalise).anyMatch(normalise(spelling)::equals))
        .map(r -> r.get("id"))
        .toList();
    assertThat(matches).containsExactly(expectedId);
  }

  // ---------------------------------------------------------------------------------------------- physics

  @Test
  void bf16_equals_fp16_on_every_nvidia_part_that_has_both() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : nvidia()) {
      if (has(r, "bf16_tflops") && has(r, "fp16_tflops") && num(r, "bf16_tflops") != num(r, "fp16_tflops")) {
        bad.add(where(GPUS, r) + " bf16 " + r.get("bf16_tflops") + " != fp16 " + r.get("fp16_tflops"));
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void tf32_never_exceeds_fp16() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      if (has(r, "tf32_tflops") && has(r, "fp16_tflops") && num(r, "tf32_tflops") > num(r, "fp16_tflops")) {
        bad.add(where(GPUS, r) + " tf32 " + r.get("tf32_tflops") + " > fp16 " + r.get("fp16_tflops"));
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void fp8_is_twice_fp16_on_ada_hopper_and_blackwell_data_centre_parts() {
    List<CSVRecord> parts = nvidia().stream()
        .filter(r -> Set.of("Ada Lovelace", "Hopper", "Blackwell").contains(r.get("architecture")))
        .filter(r -> !r.get("form_factor").equals("CONSUMER"))
        .toList();
    assertThat(parts).isNotEmpty();
    for (CSVRecord r : parts) {
      // datasheets round the halved sparse figures, so allow 1 %
      assertThat(num(r, "fp8_tflops")).as(where(GPUS, r))
          .isCloseTo(2 * num(r, "fp16_tflops"), within(0.01 * num(r, "fp16_tflops") * 2));
    }
  }

  @Test
  void fp16_accumulate_rate_is_listed_only_for_geforce_cards_at_twice_the_fp32_accumulate_rate() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      // a GeForce card without tensor cores (GTX 1080 Ti) has no tensor rate to halve
      boolean consumer = r.get("form_factor").equals("CONSUMER") && Boolean.parseBoolean(r.get("tensor_cores"));
      if (has(r, "fp16_acc16_tflops") != consumer) {
        bad.add(where(GPUS, r) + " fp16_acc16 must be present exactly on CONSUMER cards with tensor cores");
      } else if (consumer && Math.abs(num(r, "fp16_acc16_tflops") - 2 * num(r, "fp16_tflops")) > 0.2) {
        bad.add(where(GPUS, r) + " fp16_acc16 " + r.get("fp16_acc16_tflops") + " is not 2 x fp16 " + r.get("fp16_tflops"));
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void nvidia_precisions_follow_compute_capability() {
    // BF16/TF32 tensor math needs 8.0, FP8 needs 8.9, FP16 tensor cores need 7.0 (DESIGN.md, section 1)
    ComputeCapability ampere = ComputeCapability.parse("8.0");
    ComputeCapability ada = ComputeCapability.parse("8.9");
    ComputeCapability volta = ComputeCapability.parse("7.0");
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : nvidia()) {
      ComputeCapability cc = ComputeCapability.parse(r.get("compute_capability"));
      if (has(r, "bf16_tflops") != cc.isAtLeast(ampere) || has(r, "tf32_tflops") != cc.isAtLeast(ampere)) {
        bad.add(where(GPUS, r) + " BF16/TF32 presence disagrees with compute capability " + cc);
      }
      if (has(r, "fp8_tflops") != cc.isAtLeast(ada)) {
        bad.add(where(GPUS, r) + " FP8 presence disagrees with compute capability " + cc);
      }
      if (Boolean.parseBoolean(r.get("tensor_cores")) != cc.isAtLeast(volta)) {
        bad.add(where(GPUS, r) + " tensor_cores disagrees with compute capability " + cc);
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void tensor_only_formats_need_tensor_cores() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      if (!Boolean.parseBoolean(r.get("tensor_cores"))) {
        for (String c : List.of("tf32_tflops", "bf16_tflops", "fp8_tflops", "int8_tops", "fp16_acc16_tflops")) {
          // INT8 without tensor cores is the DP4A instruction of compute capability 6.1 (Tesla P40, P4)
          boolean dp4a = c.equals("int8_tops") && r.get("compute_capability").equals("6.1");
          if (has(r, c) && !dp4a) {
            bad.add(where(GPUS, r) + " lists " + c + " without tensor cores");
          }
        }
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void only_tpus_lack_an_fp32_figure_pcie_generation_and_cuda_fields() {
    List<String> bad = new ArrayList<>();
    for (CSVRecord r : gpus) {
      boolean tpu = r.get("form_factor").equals("TPU");
      if (has(r, "fp32_tflops") == tpu || has(r, "pcie_gen") == tpu) {
        bad.add(where(GPUS, r) + " fp32/pcie_gen must be empty exactly for TPUs");
      }
      if (tpu && !(has(r, "bf16_tflops") && has(r, "int8_tops"))) {
        bad.add(where(GPUS, r) + " a TPU needs bf16 and int8 figures");
      }
      boolean isNvidia = r.get("vendor").equals("NVIDIA");
      if (has(r, "compute_capability") != isNvidia || has(r, "min_cuda") != isNvidia) {
        bad.add(where(GPUS, r) + " compute_capability/min_cuda must be filled exactly for NVIDIA parts");
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void board_to_board_modules_have_a_gpu_link() {
    List<String> bad = gpus.stream()
        .filter(r -> Set.of("SXM", "OAM", "SUPERCHIP").contains(r.get("form_factor")))
        .filter(r -> num(r, "nvlink_gbps") <= 0)
        .map(r -> where(GPUS, r) + " " + r.get("form_factor") + " without NVLink/Infinity Fabric bandwidth")
        .toList();
    assertThat(bad).isEmpty();
  }

  @Test
  void offerings_carry_whole_catalog_gpus_of_the_right_kind() {
    // GIVEN a few offerings whose GPU the provider documents  THEN they map to that exact part
    assertThat(offering("aws", "p4d.24xlarge").get("gpu")).isEqualTo("a100-sxm4-40gb");
    assertThat(offering("aws", "p5.48xlarge").get("gpu")).isEqualTo("h100-sxm");
    assertThat(offering("aws", "g5.xlarge").get("gpu")).isEqualTo("a10g");
    assertThat(offering("azure", "Standard_NC24ads_A100_v4").get("gpu")).isEqualTo("a100-pcie-80gb");
    assertThat(offering("azure", "Standard_ND96isr_H100_v5").get("gpu_count")).isEqualTo("8");
    assertThat(offering("azure", "Standard_NC48ads_A100_v4").get("gpu")).isEqualTo("a100-pcie-80gb");
    assertThat(offering("azure", "Standard_NV72ads_A10_v5").get("gpu")).isEqualTo("a10");
    assertThat(offering("azure", "Standard_NV72ads_A10_v5").get("gpu_count")).isEqualTo("2");
  }

  @Test
  void azure_rows_cite_the_v8_file_of_the_skypilot_catalog_fork_they_were_read_from() {
    // GIVEN the Azure rows, read from coopslarhette/skypilot-catalog (a fork) at 20291d7e on 2026-12-01
    List<CSVRecord> azure = offerings.stream().filter(r -> r.get("provider").equals("azure")).toList();

    // THEN each names the fork, its file and commit, says it is a fork, and carries the day it was read
    assertThat(azure).isNotEmpty().allSatisfy(r -> {
      assertThat(r.get("source")).startsWith("SkyPilot catalog, coopslarhette/skypilot-catalog "
          + "catalogs/v8/azure/vms.csv at commit 20291d7e, read 2026-12-01 (a fork of skypilot-org/skypilot-catalog");
      assertThat(r.get("price_date")).isEqualTo("2026-12-01");
    });
  }

  @Test
  void azure_prices_are_the_eastus_rows_of_the_fork_file() {
    // GIVEN the fork file's eastus rows (Price, SpotPrice)  THEN the bundled rows carry them to the digit
    assertThat(offering("azure", "Standard_NC4as_T4_v3").get("price_per_hour")).isEqualTo("0.526");
    assertThat(offering("azure", "Standard_NC4as_T4_v3").get("spot_per_hour")).isEqualTo("0.062699");
    assertThat(offering("azure", "Standard_NC48ads_A100_v4").get("price_per_hour")).isEqualTo("7.346");
    assertThat(offering("azure", "Standard_NV36ads_A10_v5").get("price_per_hour")).isEqualTo("3.2");
    assertThat(offering("azure", "Standard_ND96isr_H100_v5").get("price_per_hour")).isEqualTo("98.32");
  }

  // ---------------------------------------------------------------------------------------------- seed table

  @Test
  void aistudio_rows_reproduce_the_seed_table_exactly() {
    // GIVEN seed document 000's AIStudio pay-as-you-go table (GPU x count, cores, RAM GB, 50 + 20 GB disk, zone, CNY/h)
    List<String> expected = List.of(
        "rtx-4090|1|14|28|70|2.09|CNY|cn-guangdong-b",
        "rtx-4090|2|28|56|70|4.18|CNY|cn-guangdong-b",
        "rtx-4090|4|56|112|70|8.36|CNY|cn-guangdong-b",
        "rtx-4090|8|112|224|70|16.72|CNY|cn-guangdong-b",
        "a100-sxm4-40gb|1|10|86|70|4.81|CNY|cn-jiangsu-a",
        "a100-sxm4-40gb|2|20|172|70|9.62|CNY|cn-jiangsu-a",
        "a100-sxm4-40gb|4|40|344|70|19.24|CNY|cn-jiangsu-a",
        "a100-sxm4-40gb|8|80|688|70|38.48|CNY|cn-jiangsu-a");
    // WHEN the bundled aistudio rows are read
    List<String> actual = offerings.stream()
        .filter(r -> r.get("provider").equals("aistudio"))
        .map(r -> String.join("|", r.get("gpu"), r.get("gpu_count"), r.get("vcpus"), r.get("ram_gib"),
            r.get("disk_gb"), r.get("price_per_hour"), r.get("currency"), r.get("region")))
        .toList();
    // THEN they are the seed table, row for row, digit for digit
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aistudio_prices_scale_linearly_with_gpu_count_as_in_the_seed() {
    for (CSVRecord r : offerings) {
      if (r.get("provider").equals("aistudio")) {
        BigDecimal perGpu = new BigDecimal(r.get("price_per_hour"))
            .divide(new BigDecimal(r.get("gpu_count")), 2, java.math.RoundingMode.UNNECESSARY);
        assertThat(perGpu).as(where(OFFERINGS, r))
            .isEqualByComparingTo(r.get("gpu").equals("rtx-4090") ? "2.09" : "4.81");
      }
    }
  }

  // ---------------------------------------------------------------------------------------------- helpers

  private record Parsed(List<String> header, List<CSVRecord> records) {}

  private static Parsed read(String resource) {
    CSVFormat format = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get();
    try (InputStream in = BundledDataTest.class.getResourceAsStream(resource)) {
      assertThat(in).as("classpath resource %s next to %s", resource, BundledDataTest.class.getName()).isNotNull();
      try (CSVParser parser = CSVParser.parse(in, UTF_8, format)) {
        return new Parsed(List.copyOf(parser.getHeaderNames()), parser.getRecords());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read bundled " + resource, e);
    }
  }

  /** Look-up normalisation: lower case, no spaces, dashes or underscores, no leading NVIDIA/Tesla/GeForce. */
  static String normalise(String spelling) {
    String s = spelling.toLowerCase(Locale.ROOT).replaceAll("[\\s_-]", "");
    String previous;
    do {
      previous = s;
      s = LEADING_BRAND.matcher(s).replaceFirst("");
    } while (!s.equals(previous));
    return s;
  }

  private static List<String> spellings(CSVRecord r) {
    List<String> s = new ArrayList<>(List.of(r.get("id"), r.get("name")));
    s.addAll(aliases(r));
    return s;
  }

  private static List<String> aliases(CSVRecord r) {
    return split(r.get("aliases"));
  }

  private static List<String> split(String semicolonList) {
    return semicolonList.isEmpty() ? List.of() : Arrays.asList(semicolonList.split(";", -1));
  }

  private static CSVRecord gpu(String id) {
    CSVRecord r = gpuById.get(id);
    assertThat(r).as("GPU %s in %s", id, GPUS).isNotNull();
    return r;
  }

  private static CSVRecord offering(String provider, String instanceType) {
    return offerings.stream()
        .filter(r -> r.get("provider").equals(provider) && r.get("instance_type").equals(instanceType))
        .findFirst()
        .orElseThrow(() -> new AssertionError(provider + " " + instanceType + " missing from " + OFFERINGS));
  }

  private static List<CSVRecord> nvidia() {
    return gpus.stream().filter(r -> r.get("vendor").equals("NVIDIA")).toList();
  }

  private static boolean has(CSVRecord r, String column) {
    return !r.get(column).isEmpty();
  }

  private static double num(CSVRecord r, String column) {
    return Double.parseDouble(r.get(column));
  }

  private static void checkNumber(List<String> bad, String file, CSVRecord r, String column, boolean zeroAllowed) {
    String text = r.get(column);
    if (text.isEmpty()) {
      return;
    }
    try {
      BigDecimal v = new BigDecimal(text);
      if (zeroAllowed ? v.signum() < 0 : v.signum() <= 0) {
        bad.add(where(file, r) + " " + column + " must be " + (zeroAllowed ? ">= 0" : "> 0") + ", was " + text);
      }
    } catch (NumberFormatException e) {
      bad.add(where(file, r) + " " + column + " must be a plain decimal number, was '" + text + "'");
    }
  }

  private static void checkIn(List<String> bad, String file, CSVRecord r, String column, Set<String> allowed,
      boolean emptyAllowed) {
    String v = r.get(column);
    if (!(emptyAllowed && v.isEmpty()) && !allowed.contains(v)) {
      bad.add(where(file, r) + " " + column + " must be one of " + allowed + ", was '" + v + "'");
    }
  }

  private static void parseOrReport(List<String> bad, String file, CSVRecord r, String column,
      java.util.function.Function<String, ?> parser) {
    String v = r.get(column);
    if (v.isEmpty()) {
      return;
    }
    try {
      parser.apply(v);
    } catch (IllegalArgumentException | DateTimeParseException e) {
      bad.add(where(file, r) + " " + column + " '" + v + "' does not parse: " + e.getMessage());
    }
  }

  private static Set<String> names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).collect(Collectors.toSet());
  }

  private static String where(String file, CSVRecord r) {
    String key = r.isMapped("id") ? r.get("id") : r.get("provider") + "/" + r.get("instance_type");
    return file + " line " + (r.getRecordNumber() + 1) + " (" + key + ")";
  }

  @SafeVarargs
  private static <T> List<T> concat(List<T>... lists) {
    return Arrays.stream(lists).flatMap(List::stream).toList();
  }
}
