package io.github.gpusizer.core.sizing;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.PricingMode;
import java.time.Duration;
import java.util.Optional;

/** The sizer's cost step: what renting {@code instances} of an offering for a run of a given length costs. */
public interface CostStep {

  /**
   * Prices a run.
   *
   * @param wall the wall time the job needs on the instances, without interruptions
   * @return empty if the offering is not sold in that pricing mode
   */
  Optional<Priced> price(Offering offering, PricingMode mode, int instances, Duration wall);

  /**
   * A priced run.
   *
   * @param cost the total for all instances, in the offering's currency
   * @param billed the time each instance is billed for
   * @param wall the expected wall time (longer than asked for spot, where interruptions redo work)
   * @param notes what the caller should know about the price (spot interruptions, subscription terms)
   */
  record Priced(Money cost, Duration billed, Duration wall, ImmutableList<String> notes) {
    public Priced {
      checkArgument(!checkNotNull(cost, "cost").isNegative(), "cost must be >= 0, was %s", cost);
      checkNotNull(billed, "billed");
      checkNotNull(wall, "wall");
      notes = ImmutableList.copyOf(notes);
    }
  }
}
