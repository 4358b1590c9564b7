package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableList;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The table, JSON and CSV of {@code gpusizer offers}; the JSON field names are the CLI's stable schema. */
final class OffersReport {
  private OffersReport() {}

  /** The CSV header, whatever the rows: every field of {@code offers --format json}, objects as their columns. */
  static final ImmutableList<String> CSV_COLUMNS = ImmutableList.of(
      "provider", "instanceType", "region", "gpu", "gpuCount", "vcpus", "ramBytes", "diskBytes",
      "pricePerHour.amount", "pricePerHour.currency", "pricePerGpuHour.amount", "pricePerGpuHour.currency",
      "spotPerHour.amount", "spotPerHour.currency", "monthly.amount", "monthly.currency", "yearly.amount",
      "yearly.currency", "billing", "networkGbps", "priceDate", "source");

  /**
   * The offerings; JSON as {@code {schemaVersion, gpusizerVersion, catalogPrices, offerings: [...]}}
   * ({@link Json#pretty}).
   */
  static String render(List<Offering> offerings, Catalog catalog, Format format) {
    switch (format) {
      case JSON: {
        ObjectNode body = Json.object();
        ArrayNode array = body.putArray("offerings");
        offerings.forEach(o -> array.add(json(o)));
        return Json.pretty(body, catalog);
      }
      case CSV: {
        List<ObjectNode> rows = new ArrayList<>();
        offerings.forEach(o -> rows.add(json(o)));
        return Csv.write(CSV_COLUMNS, rows);
      }
      default: {
        TextTable table = new TextTable("PROVIDER", "INSTANCE", "REGION", "GPU", ">GPUS", ">VCPUS", ">RAM", ">DISK",
            ">PRICE/H", ">PER GPU/H", ">SPOT/H", "BILLING");
        for (Offering o : offerings) {
          table.row(o.provider(), o.instanceType(), o.region(), o.gpu().id(), o.gpuCount(), o.vcpus(),
              Output.memory(o.ram()), o.localDisk().bytes() == 0 ? "-" : Output.memory(o.localDisk()),
              Output.money(o.onDemandPerHour()), Output.money(perGpu(o.onDemandPerHour(), o.gpuCount())),
              o.spotPerHour().map(Output::money).orElse("-"), o.billing().name().toLowerCase(Locale.ROOT));
        }
        return (table.isEmpty() ? "No offering matches.\n" : table.render())
            + "\nPrices are for the whole instance per hour, as of each row's price date (see --format json).\n";
      }
    }
  }

  static Money perGpu(Money price, int gpus) {
    return Money.of(price.amount().divide(BigDecimal.valueOf(gpus), 4, RoundingMode.HALF_EVEN), price.currency());
  }

  static ObjectNode json(Offering o) {
    ObjectNode node = Json.object();
    node.put("provider", o.provider());
    node.put("instanceType", o.instanceType());
    node.put("region", o.region());
    node.put("gpu", o.gpu().id());
    node.put("gpuCount", o.gpuCount());
    node.put("vcpus", o.vcpus());
    node.put("ramBytes", o.ram().bytes());
    node.put("diskBytes", o.localDisk().bytes());
    node.set("pricePerHour", Json.money(o.onDemandPerHour()));
    node.set("pricePerGpuHour", Json.money(perGpu(o.onDemandPerHour(), o.gpuCount())));
    Json.put(node, "spotPerHour", o.spotPerHour());
    Json.put(node, "monthly", o.monthly());
    Json.put(node, "yearly", o.yearly());
    node.put("billing", o.billing().name());
    Json.put(node, "networkGbps", o.networkGbps());
    node.put("priceDate", o.priceDate().toString());
    node.put("source", o.source());
    return node;
  }
}
