package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.cost.SpotEstimate;
import io.github.gpusizer.core.cost.SpotInterruptionRates;
import io.github.gpusizer.core.estimate.FixedCosts;
import java.time.Duration;
import java.time.LocalDate;
import java.time.Period;
import java.util.Optional;

/**
 * The sizer's cost step: what renting {@code instances} of an offering for a run of a given length costs, from
 * the {@link CostModel} (billing rounding, minimum charges, subscriptions) and, for spot, its interruption model;
 * and whether the offering's price is old enough to warn about.
 *
 * @param model the cost model
 * @param interruptions the caller's spot interruption model, for every offering; empty: each provider's default
 * @param spotDefaults the interruption model of a provider the caller gave none for: its sourced default rate
 *     ({@link SpotInterruptionRates}), losing the work since the last checkpoint and a restart per interruption;
 *     empty: spot is priced as if never interrupted
 * @param prices the day prices are judged against and the age past which a price is stale; empty: no check
 */
record CostStep(CostModel model, Optional<Interruptions> interruptions, Optional<SpotDefaults> spotDefaults,
    Optional<PriceAge> prices) {

  CostStep {
    checkNotNull(model, "model");
    checkNotNull(interruptions, "interruptions");
    checkNotNull(spotDefaults, "spotDefaults");
    checkNotNull(prices, "prices");
  }

  /** A cost step with exactly the caller's interruption model (none: spot never interrupted) and no price-age check. */
  CostStep(CostModel model, Optional<Interruptions> interruptions) {
    this(model, interruptions, Optional.empty(), Optional.empty());
  }

  /**
   * How interruptions of a provider the caller gave no model for are priced.
   *
   * @param rates the default rate of each provider
   * @param checkpointWrite the time one node takes to write the job's checkpoint, worked out on first use (zero:
   *     nothing to save, so an interruption loses only the restart)
   * @param fixedCosts a restart takes the provider's provisioning time from them; each interruption loses half
   *     their checkpoint interval, or without one half of Young's optimum for the provider's rate and
   *     {@code checkpointWrite} ({@link Interruptions#young})
   */
  record SpotDefaults(SpotInterruptionRates rates, Supplier<Duration> checkpointWrite, FixedCosts fixedCosts) {
    SpotDefaults {
      checkNotNull(rates, "rates");
      checkNotNull(checkpointWrite, "checkpointWrite");
      checkNotNull(fixedCosts, "fixedCosts");
    }

    /** The defaults for these fixed costs, the checkpoint's write time worked out once, on first use. */
    static SpotDefaults of(SpotInterruptionRates rates, FixedCosts fixedCosts, Supplier<Duration> checkpointWrite) {
      return new SpotDefaults(rates, Suppliers.memoize(checkpointWrite::get), fixedCosts);
    }

    /** Whether the checkpoint interval is Young's optimum rather than the caller's. */
    boolean youngInterval() {
      return fixedCosts.checkpointInterval().isEmpty();
    }

    /** The interruptions of a provider of this default rate, restarting in {@code restart}. */
    Interruptions interruptions(double perHour, Duration restart) {
      if (!youngInterval()) {
        return Interruptions.of(perHour, fixedCosts.checkpointInterval().get(), restart);
      }
      Duration write = checkpointWrite.get();
      return write.isZero() || perHour == 0 ? Interruptions.of(perHour, Duration.ofNanos(1), restart)
          : Interruptions.young(perHour, write, restart);
    }
  }

  /**
   * When a price counts as stale.
   *
   * @param today the day the recommendation is made
   * @param staleAfter a price read longer ago than this before {@code today} is stale
   */
  record PriceAge(LocalDate today, Period staleAfter) {
    PriceAge {
      checkNotNull(today, "today");
      checkArgument(!checkNotNull(staleAfter, "staleAfter").isNegative(), "staleAfter must be >= 0, was %s",
          staleAfter);
    }
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
   * The interruption model spot instances of {@code o} are priced with: the caller's, else the provider's default;
   * empty if neither applies (spot is then priced as never interrupted).
   */
  Optional<Interruptions> interruptionsFor(Offering o) {
    if (interruptions.isPresent()) {
      return interruptions;
    }
    return defaultRate(o).map(r -> spotDefaults.get().interruptions(r.perHour(),
        spotDefaults.get().fixedCosts().provisioning(o.provider())));
  }

  /** The default rate {@code o}'s spot price is priced with, if the caller gave no model and the provider has one. */
  private Optional<SpotInterruptionRates.Rate> defaultRate(Offering o) {
    return interruptions.isPresent() ? Optional.empty()
        : spotDefaults.flatMap(d -> d.rates().rate(o.provider()));
  }

  /** The staleness warning text for {@code o}'s price, if its price is older than the threshold. */
  Optional<String> staleness(Offering o) {
    return prices.flatMap(p -> o.stalenessWarning(p.today(), p.staleAfter()));
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
    if (mode == PricingMode.SPOT) {
      Optional<Interruptions> model = interruptionsFor(offering);
      if (model.isPresent()) {
        SpotEstimate spot = this.model.spot(offering, instances, wall, model.get());
        return Optional.of(new Priced(spot.expectedCost(), this.model.billed(spot.expectedWall(), offering.billing()),
            spot.expectedWall(), Optional.of(new SpotTerms(Optional.of(spot), defaultRate(offering),
                defaultRate(offering).isPresent() && spotDefaults.get().youngInterval()))));
      }
      Duration billed = this.model.billed(wall, offering, mode);
      return Optional.of(new Priced(this.model.cost(offering, instances, wall, mode), billed, wall,
          Optional.of(new SpotTerms(Optional.empty(), Optional.empty(), false))));
    }
    Duration billed = model.billed(wall, offering, mode);
    return Optional.of(new Priced(model.cost(offering, instances, wall, mode), billed, wall, Optional.empty()));
  }

  /**
   * A priced run.
   *
   * @param cost the total for all instances, in the offering's currency
   * @param billed the time each instance is billed for
   * @param wall the expected wall time (longer than asked for spot, where interruptions redo work)
   * @param spot for a spot price, how interruptions were priced; empty for other modes
   */
  record Priced(Money cost, Duration billed, Duration wall, Optional<SpotTerms> spot) {
    Priced {
      checkArgument(!checkNotNull(cost, "cost").isNegative(), "cost must be >= 0, was %s", cost);
      checkNotNull(billed, "billed");
      checkNotNull(wall, "wall");
      checkNotNull(spot, "spot");
    }
  }

  /**
   * How a spot price was reached.
   *
   * @param estimate the interruptions priced in; empty: priced as never interrupted, no rate being known
   * @param defaultRate the provider's default rate the estimate used; empty if the caller gave the model
   * @param intervalYoung whether the checkpoint interval of the estimate is Young's optimum, not the caller's
   */
  record SpotTerms(Optional<SpotEstimate> estimate, Optional<SpotInterruptionRates.Rate> defaultRate,
      boolean intervalYoung) {
    SpotTerms {
      checkNotNull(estimate, "estimate");
      checkNotNull(defaultRate, "defaultRate");
    }
  }
}
