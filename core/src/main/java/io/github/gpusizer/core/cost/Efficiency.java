package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Offering;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One row of a ranking by throughput per unit of money, from {@link CostModel#rankByRent} or
 * {@link CostModel#rankByPurchasePrice}. The seeds cite such rankings: in Tim Dettmers' 2019 chart an RTX 2060
 * gives more than five times the performance per dollar of a Tesla V100.
 *
 * <pre>{@code
 * List<Efficiency> ranking = CostModel.defaults().rankByRent(offerings, measuredSamplesPerSecond, Money.currency("CNY"));
 * Efficiency best = ranking.get(0);       // relativeToBest() == 1.0
 * }</pre>
 *
 * @param kind what the price is: rent per hour of an instance, or the purchase price of one card
 * @param gpu the GPU model
 * @param offering the instance, when ranking by rent
 * @param samplesPerSecond throughput of the instance (rent) or the card (purchase), samples/s
 * @param price the price per hour of the instance, or of one card, in the ranking's currency
 * @param samplesPerMoney for rent: samples per unit of money spent (samples/s × 3600 ÷ price per hour); for
 *     purchase: samples/s per unit of money paid
 * @param relativeToBest {@code samplesPerMoney} over the best row's, in (0, 1]
 */
public record Efficiency(
    Kind kind,
    Gpu gpu,
    Optional<Offering> offering,
    double samplesPerSecond,
    PriceQuote price,
    double samplesPerMoney,
    double relativeToBest) {

  /** What a ranking divides by. */
  public enum Kind {
    RENT_PER_HOUR,
    PURCHASE_PRICE
  }

  public Efficiency {
    checkNotNull(kind, "kind");
    checkNotNull(gpu, "gpu");
    checkNotNull(offering, "offering");
    checkNotNull(price, "price");
    checkArgument(offering.isPresent() == (kind == Kind.RENT_PER_HOUR), "a rent ranking row needs its offering, "
        + "a purchase ranking row has none; was %s with %s", kind, offering);
    checkArgument(Double.isFinite(samplesPerSecond) && samplesPerSecond > 0,
        "samples per second must be finite and > 0, was %s", samplesPerSecond);
    checkArgument(Double.isFinite(samplesPerMoney) && samplesPerMoney > 0,
        "samples per unit of money must be finite and > 0, was %s", samplesPerMoney);
    checkArgument(relativeToBest > 0 && relativeToBest <= 1, "relative to best must be in (0, 1], was %s",
        relativeToBest);
  }

  /** The offering's key or the GPU's id: what the row is about. */
  public String subject() {
    return offering.map(Offering::key).orElse(gpu.id());
  }

  /** Best first; ties by subject, so the same input gives the same order. */
  static List<Efficiency> ranked(List<Efficiency> rows) {
    List<Efficiency> sorted = rows.stream()
        .sorted(Comparator.comparingDouble(Efficiency::samplesPerMoney).reversed()
            .thenComparing(Efficiency::subject))
        .toList();
    if (sorted.isEmpty()) {
      return ImmutableList.of();
    }
    double best = sorted.get(0).samplesPerMoney();
    return sorted.stream()
        .map(r -> new Efficiency(r.kind, r.gpu, r.offering, r.samplesPerSecond, r.price, r.samplesPerMoney,
            r.samplesPerMoney / best))
        .collect(ImmutableList.toImmutableList());
  }
}
