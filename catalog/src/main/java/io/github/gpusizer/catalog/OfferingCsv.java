package io.github.gpusizer.catalog;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.CsvTable.Row;
import io.github.gpusizer.catalog.CsvTable.Sign;
import java.util.Currency;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Reads the {@code offerings.csv} format: one instance type in one region per row. The {@code fabric} column is
 * optional (files written before it existed still load); where it is absent or empty, and where {@code
 * network_gbps} is empty, {@link FabricDefaults} fills in the instance family's documented network.
 */
final class OfferingCsv {
  static final String FORMAT = "offerings.csv";
  static final ImmutableList<String> COLUMNS = ImmutableList.of(
      "provider", "instance_type", "region", "gpu", "gpu_count", "vcpus", "ram_gib", "disk_gb", "price_per_hour",
      "spot_per_hour", "currency", "billing", "monthly", "yearly", "network_gbps", "price_date", "source");
  /** Optional columns: {@code fabric} came after the first release. */
  static final ImmutableList<String> OPTIONAL = ImmutableList.of("fabric");

  /** An offering and the row it came from. */
  record Located(Offering offering, String file, int line) {}

  private OfferingCsv() {}

  static boolean looksLike(CsvTable table) {
    return table.has("provider") && table.has("instance_type");
  }

  /** Reads every row, resolving the {@code gpu} column (an id or alias) with {@code gpus}. */
  static ImmutableList<Located> read(CsvTable table, NameIndex gpus) {
    table.requireColumns(FORMAT, COLUMNS, OPTIONAL, true);
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
    String provider = row.text("provider");
    String instanceType = row.text("instance_type");
    Optional<Fabric> statedFabric = fabric(row);
    OptionalDouble statedGbps = row.isBlank("network_gbps")
        ? OptionalDouble.empty()
        : OptionalDouble.of(row.decimal("network_gbps", Sign.NON_NEGATIVE));
    FabricDefaults.Network network =
        FabricDefaults.bundled().resolve(provider, instanceType, statedFabric, statedGbps);
    if (network.fabric() == Fabric.CLUSTER && network.networkGbps().isEmpty()) {
      throw row.error("network_gbps", "must state the bandwidth of an offering on a cluster fabric, in Gbit/s per "
          + "instance (all NICs together); no documented default is known for " + provider + " " + instanceType);
    }
    try {
      return new Offering(
          provider,
          instanceType,
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
          network.networkGbps(),
          network.fabric(),
          row.date("price_date"),
          row.text("source") + network.note());
    } catch (CatalogException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw row.error(e.getMessage(), e);
    }
  }

  /** The stated fabric; empty if the column is absent or the cell empty. */
  private static Optional<Fabric> fabric(Row row) {
    String cell = row.raw("fabric");
    if (cell.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(Fabric.fromCell(cell).orElseThrow(() -> row.error("fabric", Fabric.unknown(cell))));
  }

  private static Money money(Row row, String column, Currency currency) {
    return Money.of(row.number(column, Sign.NON_NEGATIVE), currency);
  }

  private static Optional<Money> optionalMoney(Row row, String column, Currency currency) {
    return row.optionalNumber(column, Sign.NON_NEGATIVE).map(amount -> Money.of(amount, currency));
  }
}
