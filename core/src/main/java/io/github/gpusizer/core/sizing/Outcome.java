package io.github.gpusizer.core.sizing;

import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.core.Rejection;
import io.github.gpusizer.core.estimate.Estimate;
import java.time.Duration;

/** The result of searching layouts for one run on one piece of hardware: the best fit, or why none fits. */
sealed interface Outcome permits Outcome.Fit, Outcome.Miss {

  /**
   * The fastest layout that fits.
   *
   * @param estimate the estimate of one run with the task as run (micro-batch, checkpointing) and its layout
   * @param runTime the wall time of one run
   */
  record Fit(Estimate estimate, Duration runTime) implements Outcome {
    public Fit {
      checkNotNull(estimate, "estimate");
      checkNotNull(runTime, "runTime");
    }
  }

  /**
   * Nothing fits.
   *
   * @param kind {@link Rejection.Kind#MEMORY} or {@link Rejection.Kind#LAYOUT}
   * @param reason specific, plain-language reason
   * @param shortfall how far the closest attempt was from fitting (needed ÷ available memory; larger is worse)
   */
  record Miss(Rejection.Kind kind, String reason, double shortfall) implements Outcome {
    public Miss {
      checkNotNull(kind, "kind");
      checkNotNull(reason, "reason");
    }
  }
}
