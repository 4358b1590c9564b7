package io.github.gpusizer.catalog;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.CsvTable.Row;
import io.github.gpusizer.catalog.CsvTable.Sign;
import java.util.Currency;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** Reads the {@code offerings.csv} format: one instance type in one region per row. */
final class OfferingCsv {
  static final String FORMAT = "offerings.csv";
  static final ImmutableList<String> COLUMNS = ImmutableList.of(
      "provider", "instance_type", "region", "gpu", "gpu_count", "vcpus", "ram_gib", "disk_gb", "price_per_hour",
      "spot_per_hour", "currency", "billing", "monthly", "yearly", "network_gbps", "price_date", "source");

  /** An offering and the row it came from. */
  record Located(Offering offering, String file, int line) {}

  private OfferingCsv() {}

  static boolean looksLike(CsvTable table) {
    return table.has("provider") && table.has("instance_type");
  }

  /** Reads every row, resolving the {@code gpu} column (an id or alias) with {@code gpus}. */
  static ImmutableList<Located> read(CsvTable table, NameIndex gpus) {
    table.requireColumns(FORMAT, COLUMNS, List.of(), true);
    ImmutableList.Builder<Located> offerings = ImmutableList.builder();
    for (Row row : table.rows()) {
      offerings.add(new Located(parse(row, gpus), row.file(), row.line()));
    }
    return offerings.build();
  }

  private static Offering parse(Row row, NameIndex gpus) {
    String gpuName = row.text("gpu");
    Gpu gpu;
    try {
      gpu = gpus.get(gpuName);
    } catch (UnknownGpuException e) {
      throw row.error("gpu", e.getMessage(), e);
    }
    Currency currency = row.currency("currency");
    try {
      return new Offering(
          row.text("provider"),
          row.text("instance_type"),
          row.raw("region"),
          gpu,
          row.wholeNumber("gpu_count", 1),
          row.wholeNumber("vcpus", 0),
          DataSize.ofGiB(row.decimal("ram_gib", Sign.NON_NEGATIVE)),
          DataSize.ofGB(row.decimal("disk_gb", Sign.NON_NEGATIVE)),
          money(row, "price_per_hour", currency),
          optionalMoney(row, "spot_per_hour", currency),
          row.enumValue("billing", BillingMode.class),
          optionalMoney(row, "monthly", currency),
          optionalMoney(row, "yearly", currency),
          row.isBlank("network_gbps")
              ? OptionalDouble.empty()
              : OptionalDouble.of(row.decimal("network_gbps", Sign.NON_NEGATIVE)),
          row.date("price_date"),
          row.text("source"));
    } catch (CatalogException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw row.error(e.getMessage(), e);
    }
  }

  private static Money money(Row row, String column, Currency currency) {
    return Money.of(row.number(column, Sign.NON_NEGATIVE), currency);
  }

  private static Optional<Money> optionalMoney(Row row, String column, Currency currency) {
    return row.optionalNumber(column, Sign.NON_NEGATIVE).map(amount -> Money.of(amount, currency));
  }
}
