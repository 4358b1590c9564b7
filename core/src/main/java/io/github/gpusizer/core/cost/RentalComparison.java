package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Money;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Rental options side by side, in one currency, cheapest first: the seeds' question "is a short rental of a
 * high-end card cheaper than a long rental of a mid-range one, for this task?" answered with the task's own hours.
 *
 * <pre>{@code
 * RentalComparison c = RentalComparison.of(List.of(
 *     RentalOption.fromReference(v100, Duration.ofHours(20), 1.0),      // 1 CNY/h for 20 h
 *     RentalOption.fromReference(a100, Duration.ofHours(20), 2.0)));    // 2 CNY/h for 10 h
 * c.verdict();   // "... cost the same (20.00 CNY); ... A100 ... finishes first, in 10 h against 20 h."
 * for (RentalComparison.Row row : c.rows()) {
 *   System.out.println(row.option().label() + " " + row.billed() + " " + row.cost() + " " + row.verdict());
 * }
 * }</pre>
 *
 * <p>Each option costs {@link CostModel#cost} for its billed time, plus its storage for its wall time when it has
 * any; costs in another currency than the comparison's are converted with the model's exchange rates and marked
 * ({@link PriceQuote#converted()}). Rows are ordered by cost, then wall time, then the order given.
 */
public final class RentalComparison {

  /**
   * One option's result.
   *
   * @param option the option
   * @param billed the time paid for (rounded up per billing mode, or whole subscription periods)
   * @param cost compute plus storage, in the comparison's currency
   * @param relativeToCheapest cost over the cheapest option's cost (1.0 for the cheapest)
   * @param verdict one phrase for people: "cheapest", or how much more it costs and how much sooner or later it
   *     finishes than the cheapest
   */
  public record Row(RentalOption option, Duration billed, PriceQuote cost, double relativeToCheapest,
      String verdict) {
    public Row {
      checkNotNull(option, "option");
      checkNotNull(billed, "billed");
      checkNotNull(cost, "cost");
      checkNotNull(verdict, "verdict");
    }
  }

  private final Currency currency;
  private final ImmutableList<Row> rows;

  private RentalComparison(Currency currency, List<Row> rows) {
    this.currency = currency;
    this.rows = ImmutableList.copyOf(rows);
  }

  /**
   * Compares with {@link CostModel#defaults()} in the currency of the first option.
   *
   * @throws IllegalArgumentException if {@code options} is empty
   * @throws UnknownExchangeRateException if an option's price cannot be converted
   */
  public static RentalComparison of(List<RentalOption> options) {
    return CostModel.defaults().compare(options);
  }

  static RentalComparison of(List<RentalOption> options, CostModel model, Currency currency) {
    checkNotNull(options, "options");
    checkNotNull(model, "model");
    checkNotNull(currency, "currency");
    checkArgument(!options.isEmpty(), "need at least one rental option to compare");
    record Priced(int index, RentalOption option, Duration billed, PriceQuote cost) {}
    List<Priced> priced = new ArrayList<>();
    for (int i = 0; i < options.size(); i++) {
      RentalOption o = checkNotNull(options.get(i), "option %s", i);
      Money total = model.cost(o.offering(), o.instances(), o.wall(), o.mode());
      if (o.storage().bytes() > 0) {
        total = total.plus(model.storageCost(o.storage(), o.wall()));
      }
      priced.add(new Priced(i, o, model.billed(o.wall(), o.offering(), o.mode()),
          model.exchangeRates().convert(total, currency)));
    }
    priced.sort(Comparator.<Priced, BigDecimal>comparing(p -> p.cost().amount().amount())
        .thenComparing(p -> p.option().wall())
        .thenComparingInt(Priced::index));
    Priced cheapest = priced.get(0);
    List<Row> rows = new ArrayList<>();
    for (Priced p : priced) {
      Money cost = p.cost().amount();
      Money least = cheapest.cost().amount();
      double relative = least.isZero() ? (cost.isZero() ? 1.0 : Double.POSITIVE_INFINITY)
          : cost.amount().divide(least.amount(), Decimals.MATH).doubleValue();
      String verdict = costVersus(cost, least, relative) + timeVersus(p.option().wall(), cheapest.option().wall());
      rows.add(new Row(p.option(), p.billed(), p.cost(), relative, verdict));
    }
    return new RentalComparison(currency, rows);
  }

  private static String costVersus(Money cost, Money least, double relative) {
    return cost.compareTo(least) == 0 ? "cheapest"
        : String.format(Locale.ROOT, "costs %.2fx the cheapest (+%s)", relative, cost.minus(least).rounded());
  }

  private static String timeVersus(Duration wall, Duration reference) {
    int order = wall.compareTo(reference);
    if (order == 0) {
      return "";
    }
    double ratio = Decimals.seconds(wall).doubleValue() / Decimals.seconds(reference).doubleValue();
    return order < 0
        ? String.format(Locale.ROOT, ", finishes %.1fx sooner (%s)", 1 / ratio, Durations.describe(wall))
        : String.format(Locale.ROOT, ", takes %.1fx as long (%s)", ratio, Durations.describe(wall));
  }

  /** The currency every cost is given in. */
  public Currency currency() {
    return currency;
  }

  /** Cheapest first. */
  public ImmutableList<Row> rows() {
    return rows;
  }

  /** The cheapest option (the fastest of them when several cost the same). */
  public Row cheapest() {
    return rows.get(0);
  }

  /** The option that finishes first (the cheapest of them when several take as long). */
  public Row fastest() {
    return rows.stream().min(Comparator.comparing((Row r) -> r.option().wall())).orElseThrow();
  }

  /** The answer in a few sentences: which option is cheapest, which is fastest, and at what price. */
  public String verdict() {
    Row cheapest = cheapest();
    List<Row> tied = rows.stream()
        .filter(r -> r.cost().amount().compareTo(cheapest.cost().amount()) == 0)
        .toList();
    StringBuilder text = new StringBuilder();
    if (tied.size() > 1) {
      text.append(tied.stream().map(r -> r.option().label()).collect(Collectors.joining(" and ")))
          .append(" cost the same (").append(cheapest.cost().amount().rounded()).append(")");
      Row slowestTied = tied.get(tied.size() - 1);
      if (!slowestTied.option().wall().equals(cheapest.option().wall())) {
        text.append("; ").append(cheapest.option().label()).append(" finishes first, in ")
            .append(Durations.describe(cheapest.option().wall())).append(" against ")
            .append(Durations.describe(slowestTied.option().wall()));
      }
      text.append('.');
    } else {
      text.append(cheapest.option().label()).append(" is cheapest: ").append(cheapest.cost().amount().rounded())
          .append(" for ").append(Durations.describe(cheapest.option().wall())).append('.');
    }
    Row fastest = fastest();
    if (!tied.contains(fastest)) {
      text.append(" The fastest, ").append(fastest.option().label()).append(", takes ")
          .append(Durations.describe(fastest.option().wall())).append(" and ")
          .append(costVersus(fastest.cost().amount(), cheapest.cost().amount(), fastest.relativeToCheapest()))
          .append('.');
    } else if (rows.size() > 1 && tied.size() == 1) {
      text.append(" It is also the fastest.");
    }
    List<Row> converted = rows.stream().filter(r -> r.cost().converted()).toList();
    if (!converted.isEmpty()) {
      text.append(" Converted to ").append(currency.getCurrencyCode()).append(" with reference exchange rates: ")
          .append(converted.stream().map(r -> r.option().label() + " (from " + r.cost().original().currency()
                  .getCurrencyCode() + r.cost().rate().flatMap(ExchangeRate::date).map(d -> ", " + d).orElse("") + ")")
              .collect(Collectors.joining(", ")))
          .append('.');
    }
    return text.toString();
  }

  /** A plain-text table, one row per option, then the verdict. */
  @Override
  public String toString() {
    StringBuilder table = new StringBuilder();
    for (Row r : rows) {
      table.append(String.format(Locale.ROOT, "%-40s %12s billed %16s%s  %s%n", r.option().label(),
          Durations.describe(r.billed()), r.cost().amount().rounded(), r.cost().converted() ? "*" : " ", r.verdict()));
    }
    return table.append(verdict()).toString();
  }
}
