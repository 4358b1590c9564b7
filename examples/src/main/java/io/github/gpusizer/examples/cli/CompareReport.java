package io.github.gpusizer.examples.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.BuyVsRent;
import io.github.gpusizer.core.cost.RentalComparison;
import java.math.BigDecimal;
import java.math.RoundingMode;
import io.github.gpusizer.core.task.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The table, JSON and CSV of {@code gpusizer compare}: the rentals side by side and, with {@code --electricity},
 * buying each offering's cards against renting them. The JSON field names are the CLI's stable schema.
 */
final class CompareReport {
  /** The CSV header: one row per rental ({@code buyVsRent} is in the JSON and the table). */
  static final ImmutableList<String> CSV_COLUMNS = ImmutableList.of("offering", "wallSeconds", "billedSeconds",
      "cost.amount", "cost.currency", "relativeToCheapest", "verdict");

  /** Hours in a year of round-the-clock rent. */
  private static final BigDecimal HOURS_PER_YEAR = BigDecimal.valueOf(8760);

  /** Buying an offering's cards: the purchase price and the comparison with renting the offering. */
  record Purchase(Offering offering, Money price, BuyVsRent versusRent) {
    Money rentPerYear() {
      return offering.onDemandPerHour().times(HOURS_PER_YEAR);
    }

    double rentPerYearOverPrice() {
      return rentPerYear().amount().divide(price.amount(), 3, RoundingMode.HALF_UP).doubleValue();
    }

    String label() {
      return offering.provider() + "/" + offering.instanceType();
    }
  }

  private CompareReport() {}

  /**
   * @param noPrice a line for each offering whose GPU has no purchase price in the catalog
   * @param years the write-off period of a purchase
   */
  static String render(Task task, RentalComparison rent, List<Purchase> purchases, List<String> noPrice, int years,
      Format format, Catalog catalog) {
    switch (format) {
      case JSON: {
        ObjectNode root = json(rent, purchases);
        root.put("framework", task.framework().id());
        root.put("frameworkAssumed", task.frameworkAssumed());
        return Json.pretty(root, catalog);
      }
      case CSV: {
        List<ObjectNode> rows = new ArrayList<>();
        rent.rows().forEach(r -> rows.add(rental(r)));
        return Csv.write(CSV_COLUMNS, rows);
      }
      default:
        return table(rent, purchases, noPrice, years)
            + Reports.framework(task.framework(), task.frameworkAssumed()) + '\n';
    }
  }

  static ObjectNode json(RentalComparison rent, List<Purchase> purchases) {
    ObjectNode root = Json.object();
    ArrayNode rows = root.putArray("rentals");
    rent.rows().forEach(r -> rows.add(rental(r)));
    root.put("verdict", rent.verdict());
    ArrayNode buy = root.putArray("buyVsRent");
    for (Purchase p : purchases) {
      ObjectNode node = buy.addObject();
      node.put("offering", p.label());
      node.set("purchasePrice", Json.money(p.price().rounded()));
      node.set("rentPerYear", Json.money(p.rentPerYear().rounded()));
      Json.putRounded(node, "rentPerYearOverPrice", p.rentPerYearOverPrice(), 3);
      if (p.versusRent().breakEvenPerYear().isPresent()) {
        Json.putRounded(node, "breakEvenHoursPerYear",
            Output.seconds(p.versusRent().breakEvenPerYear().get()) / 3600, 1);
      } else {
        node.putNull("breakEvenHoursPerYear");
      }
      node.put("verdict", p.versusRent().verdict());
    }
    return root;
  }

  private static ObjectNode rental(RentalComparison.Row r) {
    ObjectNode row = Json.object();
    row.put("offering", r.option().label());
    Json.putRounded(row, "wallSeconds", Output.seconds(r.option().wall()), 6);
    Json.putRounded(row, "billedSeconds", Output.seconds(r.billed()), 6);
    row.set("cost", Json.money(r.cost().amount().rounded()));
    Json.putRounded(row, "relativeToCheapest", r.relativeToCheapest(), 4);
    row.put("verdict", r.verdict());
    return row;
  }

  private static String table(RentalComparison rent, List<Purchase> purchases, List<String> noPrice, int years) {
    TextTable table = new TextTable("OFFERING", ">TIME", ">BILLED", ">COST", "VERDICT");
    for (RentalComparison.Row r : rent.rows()) {
      table.row(r.option().label(), Output.duration(r.option().wall()), Output.duration(r.billed()),
          Output.money(r.cost().amount()), r.verdict());
    }
    StringBuilder s = new StringBuilder(table.render()).append(rent.verdict()).append('\n');
    List<String> buying = new ArrayList<>(noPrice);
    for (Purchase p : purchases) {
      Offering o = p.offering();
      buying.add(String.format(Locale.ROOT, "%s: %d x %s bought for %s: %s; a year of round-the-clock on-demand "
              + "rent is %s, %.2fx the purchase price (the deep-learning server guide: a yearly rental is about a third of it)",
          p.label(), o.gpuCount(), o.gpu().name(), p.price().rounded(), p.versusRent().verdict(),
          p.rentPerYear().rounded(), p.rentPerYearOverPrice()));
    }
    if (!buying.isEmpty()) {
      s.append("\nBUY VS RENT (").append(years).append("-year write-off)\n");
      buying.forEach(b -> s.append("  ").append(b).append('\n'));
    }
    return s.toString();
  }
}
