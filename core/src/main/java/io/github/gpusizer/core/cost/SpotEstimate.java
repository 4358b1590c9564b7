package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.Money;
import java.time.Duration;

/**
 * The expected wall time and cost of a job on spot instances that get interrupted, next to the same work on
 * demand. From {@link CostModel#spot}.
 *
 * <pre>{@code
 * SpotEstimate s = model.spot(offering, 2, Duration.ofHours(10), Interruptions.of(0.05, Duration.ofMinutes(30),
 *     Duration.ofMinutes(5)));
 * if (s.cheaperThanOnDemand()) { ... s.expectedCost() ... }
 * }</pre>
 *
 * @param work the job's work without interruptions
 * @param expectedWall expected wall time including checkpoint writes, lost work and restarts
 * @param expectedInterruptions expected number of interruptions over the whole job (all instances)
 * @param expectedCost the spot price times the billed expected wall time, for all instances
 * @param onDemandCost the on-demand price times the billed work, for all instances
 * @param assumptions the interruption model used
 */
public record SpotEstimate(
    Duration work,
    Duration expectedWall,
    double expectedInterruptions,
    Money expectedCost,
    Money onDemandCost,
    Interruptions assumptions) {

  public SpotEstimate {
    checkNotNull(work, "work");
    checkNotNull(expectedWall, "expectedWall");
    checkNotNull(expectedCost, "expectedCost");
    checkNotNull(onDemandCost, "onDemandCost");
    checkNotNull(assumptions, "assumptions");
    checkArgument(Double.isFinite(expectedInterruptions) && expectedInterruptions >= 0,
        "expected interruptions must be finite and >= 0, was %s", expectedInterruptions);
  }

  /** On-demand cost minus expected spot cost; negative when spot is expected to cost more. */
  public Money expectedSavings() {
    return onDemandCost.minus(expectedCost);
  }

  public boolean cheaperThanOnDemand() {
    return expectedCost.compareTo(onDemandCost) < 0;
  }
}
