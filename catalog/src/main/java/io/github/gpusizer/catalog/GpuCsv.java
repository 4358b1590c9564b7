package io.github.gpusizer.catalog;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.CsvTable.Row;
import io.github.gpusizer.catalog.CsvTable.Sign;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/** Reads the {@code gpus.csv} format: one GPU model per row. */
final class GpuCsv {
  static final String FORMAT = "gpus.csv";
  static final ImmutableList<String> COLUMNS = ImmutableList.of(
      "id", "name", "aliases", "vendor", "architecture", "compute_capability", "release_year", "memory_gib",
      "memory_type", "memory_bandwidth_gbps", "fp64_tflops", "fp32_tflops", "tf32_tflops", "fp16_tflops",
      "bf16_tflops", "fp8_tflops", "int8_tops", "fp16_acc16_tflops", "tensor_cores", "form_factor", "nvlink_gbps",
      "pcie_gen", "tdp_w", "sm_count", "min_cuda", "price_amount", "price_currency", "price_date", "price_kind",
      "price_source", "source", "unconfirmed");
  /** The dense-throughput columns and the precision each one gives; an empty cell means "not supported". */
  private static final ImmutableMap<String, Precision> THROUGHPUT = ImmutableMap.<String, Precision>builder()
      .put("fp64_tflops", Precision.FP64)
      .put("fp32_tflops", Precision.FP32)
      .put("tf32_tflops", Precision.TF32)
      .put("fp16_tflops", Precision.FP16)
      .put("bf16_tflops", Precision.BF16)
      .put("fp8_tflops", Precision.FP8)
      .put("int8_tops", Precision.INT8)
      .build();
  private static final ImmutableList<String> PRICE_COLUMNS =
      ImmutableList.of("price_amount", "price_currency", "price_date", "price_kind", "price_source");
  /** What {@code unconfirmed} may name: a column of this format or a component of {@link Gpu}. */
  private static final ImmutableSet<String> FIELD_NAMES = ImmutableSet.<String>builder()
      .addAll(COLUMNS)
      .addAll(Arrays.stream(Gpu.class.getRecordComponents()).map(c -> c.getName()).iterator())
      .build();

  /** A GPU and the row it came from. */
  record Located(Gpu gpu, Row row) {}

  private GpuCsv() {}

  static boolean looksLike(CsvTable table) {
    return table.has("id") && table.has("memory_gib");
  }

  /**
   * Reads every row; fails on the first bad cell, on a GPU id given twice and on a name or alias two GPUs of the
   * file share.
   */
  static ImmutableList<Located> read(CsvTable table) {
    table.requireColumns(FORMAT, COLUMNS, List.of(), true);
    ImmutableList.Builder<Located> gpus = ImmutableList.builder();
    Map<String, Row> ids = new java.util.HashMap<>();
    NameIndex.Builder names = NameIndex.builder();
    for (Row row : table.rows()) {
      Gpu gpu = parse(row);
      Row earlier = ids.putIfAbsent(gpu.id(), row);
      if (earlier != null) {
        throw row.error("id", String.format("duplicate GPU id '%s'; line %d defines it already", gpu.id(), earlier.line()));
      }
      Optional<NameIndex.Clash> clash = names.add(gpu);
      if (clash.isPresent()) {
        throw row.error(columnOf(gpu, clash.get().name()), clash.get().describe(gpu));
      }
      gpus.add(new Located(gpu, row));
    }
    return gpus.build();
  }

  /** The column a name of a GPU came from: {@code id}, {@code name} or {@code aliases}. */
  static String columnOf(Gpu gpu, String name) {
    if (name.equals(gpu.id())) {
      return "id";
    }
    return name.equals(gpu.name()) ? "name" : "aliases";
  }

  private static Gpu parse(Row row) {
    String id = row.text("id");
    if (!id.matches("[a-z0-9][a-z0-9.-]*")) {
      throw row.error("id", String.format("must be lower-case letters, digits, '.' and '-', was '%s'", id));
    }
    ImmutableList<String> aliases = row.list("aliases");
    Set<String> seen = new HashSet<>();
    for (String alias : aliases) {
      if (!seen.add(alias.toLowerCase(Locale.ROOT))) {
        throw row.error("aliases", String.format("lists alias '%s' twice", alias));
      }
    }
    int year = row.wholeNumber("release_year", 0);
    if (year < 2000 || year > 2100) {
      throw row.error("release_year", String.format("must be a year in 2000..2100, was '%s'", row.raw("release_year")));
    }
    Map<Precision, Double> throughput = new EnumMap<>(Precision.class);
    THROUGHPUT.forEach((column, precision) -> {
      if (!row.isBlank(column)) {
        throughput.put(precision, row.decimal(column, Sign.POSITIVE));
      }
    });
    OptionalDouble fp16Accumulate = row.isBlank("fp16_acc16_tflops")
        ? OptionalDouble.empty()
        : OptionalDouble.of(row.decimal("fp16_acc16_tflops", Sign.POSITIVE));
    ImmutableSet<String> unconfirmed = ImmutableSet.copyOf(row.list("unconfirmed"));
    for (String field : unconfirmed) {
      if (!FIELD_NAMES.contains(field)) {
        throw row.error("unconfirmed", String.format(
            "names unknown field '%s'; list column names of gpus.csv, separated by ';'", field));
      }
    }
    try {
      return new Gpu(
          id,
          row.text("name"),
          aliases,
          row.enumValue("vendor", Vendor.class),
          row.raw("architecture"),
          optional(row, "compute_capability").map(text -> parse(row, "compute_capability", text, ComputeCapability::parse)),
          year,
          DataSize.ofGiB(row.decimal("memory_gib", Sign.POSITIVE)),
          row.enumValue("memory_type", MemoryType.class),
          row.decimal("memory_bandwidth_gbps", Sign.POSITIVE),
          ImmutableMap.copyOf(throughput),
          fp16Accumulate,
          row.bool("tensor_cores"),
          row.enumValue("form_factor", FormFactor.class),
          row.decimal("nvlink_gbps", Sign.NON_NEGATIVE),
          optionalInt(row, "pcie_gen", 1),
          row.wholeNumber("tdp_w", 1),
          optionalInt(row, "sm_count", 1),
          optional(row, "min_cuda").map(text -> parse(row, "min_cuda", text, CudaVersion::parse)),
          purchasePrice(row),
          row.text("source"),
          unconfirmed);
    } catch (CatalogException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw row.error(e.getMessage(), e);
    }
  }

  private static Optional<PurchasePrice> purchasePrice(Row row) {
    List<String> given = PRICE_COLUMNS.stream().filter(c -> !row.isBlank(c)).collect(Collectors.toList());
    if (given.isEmpty()) {
      return Optional.empty();
    }
    for (String column : PRICE_COLUMNS) {
      if (row.isBlank(column)) {
        throw row.error(column, String.format(
            "must not be empty when %s %s given: a purchase price needs all of %s",
            String.join(", ", given), given.size() == 1 ? "is" : "are", String.join(", ", PRICE_COLUMNS)));
      }
    }
    BigDecimal amount = row.number("price_amount", Sign.POSITIVE);
    LocalDate date = row.date("price_date");
    return Optional.of(new PurchasePrice(
        Money.of(amount, row.currency("price_currency")),
        date,
        row.enumValue("price_kind", PurchasePrice.Kind.class),
        row.text("price_source")));
  }

  private static Optional<String> optional(Row row, String column) {
    return row.optionalText(column);
  }

  private static OptionalInt optionalInt(Row row, String column, int min) {
    return row.optionalWholeNumber(column, min).map(OptionalInt::of).orElse(OptionalInt.empty());
  }

  private static <T> T parse(Row row, String column, String text, java.util.function.Function<String, T> parser) {
    try {
      return parser.apply(text);
    } catch (IllegalArgumentException e) {
      throw row.error(column, e.getMessage(), e);
    }
  }
}
