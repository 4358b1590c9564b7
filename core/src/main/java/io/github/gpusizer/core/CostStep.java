package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.cost.SpotEstimate;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The sizer's cost step: what renting {@code instances} of an offering for a run of a given length costs, from
 * the {@link CostModel} (billing rounding, minimum charges, subscriptions) and, for spot, its interruption model.
 *
 * @param model the cost model
 * @param interruptions the spot interruption assumption; without one, spot is priced as if never interrupted
 */
record CostStep(CostModel model, Optional<Interruptions> interruptions) {

  CostStep {
    checkNotNull(model, "model");
    checkNotNull(interruptions, "interruptions");
  }

  /** Whether the offering has a price for the mode. */
  static boolean isSold(Offering o, PricingMode mode) {
    return mode.price(o).isPresent();
  }

  /**
   * How many units of the mode's price {@code n} instances billed for {@code billed} each pay: hours for on-demand
   * and spot, whole months or years for subscriptions ({@code billed} is a whole number of them). The cost is the
   * price times this; the one copy of the formula, for the sizer's screening in {@code double}.
   */
  static double priceUnits(PricingMode mode, int n, Duration billed) {
    return switch (mode) {
      case MONTHLY -> (double) n * (billed.getSeconds() / CostModel.MONTH.getSeconds());
      case YEARLY -> (double) n * (billed.getSeconds() / CostModel.YEAR.getSeconds());
      case ON_DEMAND, SPOT -> (double) n * billed.getSeconds() / 3600.0;
    };
  }

  /**
   * Prices a run.
   *
   * @param wall the wall time the job needs on the instances, without interruptions
   * @return empty if the offering is not sold in that pricing mode
   * @throws IllegalArgumentException if spot interruptions would lose work faster than the job makes it
   */
  Optional<Priced> price(Offering offering, PricingMode mode, int instances, Duration wall) {
    if (!isSold(offering, mode)) {
      return Optional.empty();
    }
    if (mode == PricingMode.SPOT && interruptions.isPresent()) {
      SpotEstimate spot = model.spot(offering, instances, wall, interruptions.get());
      return Optional.of(new Priced(spot.expectedCost(), model.billed(spot.expectedWall(), offering.billing()),
          spot.expectedWall(), ImmutableList.of(String.format(Locale.ROOT,
              "spot: %.1f interruptions expected, each costing the work since the last checkpoint (every %s) and a "
                  + "restart; the time and cost include them", spot.expectedInterruptions(),
              Texts.hoursMinutes(interruptions.get().checkpointInterval())))));
    }
    ImmutableList<String> notes = mode == PricingMode.SPOT
        ? ImmutableList.of("spot capacity can be reclaimed at any time; priced as if never interrupted: give "
            + "spotInterruptions(...) for the expected cost of re-done work")
        : ImmutableList.of();
    Duration billed = model.billed(wall, offering, mode);
    return Optional.of(new Priced(model.cost(offering, instances, wall, mode), billed, wall, notes));
  }

  /**
   * A priced run.
   *
   * @param cost the total for all instances, in the offering's currency
   * @param billed the time each instance is billed for
   * @param wall the expected wall time (longer than asked for spot, where interruptions redo work)
   * @param notes what the caller should know about the price (spot interruptions, subscription terms)
   */
  record Priced(Money cost, Duration billed, Duration wall, ImmutableList<String> notes) {
    Priced {
      checkArgument(!checkNotNull(cost, "cost").isNegative(), "cost must be >= 0, was %s", cost);
      checkNotNull(billed, "billed");
      checkNotNull(wall, "wall");
      notes = ImmutableList.copyOf(notes);
    }
  }
}
