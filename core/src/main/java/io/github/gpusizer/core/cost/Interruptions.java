package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.time.Duration;

/**
 * What interruptions of a spot (pre-emptible) instance cost a job that checkpoints: the first-order model of
 * Young (J. W. Young, "A first order approximation to the optimum checkpoint interval", Communications of the ACM
 * 17(9):530-531, 1974). Interruptions arrive as a Poisson process of {@code perHour} per instance; each one loses
 * on average half a checkpoint interval of work ({@code c/2}) and the restart time {@code R}; every interval of
 * work {@code c} also pays {@code checkpointWrite} ({@code δ}) to save its state.
 *
 * <pre>{@code
 * // 1 interruption per 20 h, checkpoint every 30 min, 5 min to get a new instance and reload
 * Interruptions i = Interruptions.of(0.05, Duration.ofMinutes(30), Duration.ofMinutes(5));
 * // or let Young's rule choose the interval from the time a checkpoint takes to write
 * Interruptions best = Interruptions.young(0.05, Duration.ofMinutes(1), Duration.ofMinutes(5));
 * best.checkpointInterval();   // sqrt(2 * 1 min * 20 h) = 49 min
 * }</pre>
 *
 * <p>The model holds when interruptions are rare against the interval ({@code perHour × c ≪ 1}); Daly's
 * higher-order estimate (J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart
 * dumps", Future Generation Computer Systems 22(3):303-312, 2006) refines the optimum to about
 * {@code sqrt(2δM) − δ} for {@code δ < 2M}; the difference is small whenever the model holds.
 *
 * @param perHour expected interruptions per instance-hour ({@code λ}, the inverse of the mean time between them),
 *     >= 0; for AWS read it off the Spot Instance Advisor's monthly interruption frequency of the instance type
 * @param checkpointInterval work between two checkpoints ({@code c}), > 0
 * @param checkpointWrite time to write one checkpoint ({@code δ}), >= 0
 * @param restart time from an interruption to work resuming on a new instance ({@code R}), >= 0
 */
public record Interruptions(double perHour, Duration checkpointInterval, Duration checkpointWrite, Duration restart) {

  public Interruptions {
    checkArgument(Double.isFinite(perHour) && perHour >= 0, "interruptions per hour must be finite and >= 0, was %s",
        perHour);
    checkNotNull(checkpointInterval, "checkpointInterval");
    checkNotNull(checkpointWrite, "checkpointWrite");
    checkNotNull(restart, "restart");
    checkArgument(checkpointInterval.compareTo(Duration.ZERO) > 0, "checkpoint interval must be > 0, was %s",
        checkpointInterval);
    checkArgument(!checkpointWrite.isNegative(), "checkpoint write time must be >= 0, was %s", checkpointWrite);
    checkArgument(!restart.isNegative(), "restart time must be >= 0, was %s", restart);
  }

  /** No interruptions: spot capacity priced as if never reclaimed, because the caller says so. */
  public static Interruptions never() {
    return new Interruptions(0, Duration.ofHours(1), Duration.ZERO, Duration.ZERO);
  }

  /** Interruptions with checkpoints that take no time to write. */
  public static Interruptions of(double perHour, Duration checkpointInterval, Duration restart) {
    return new Interruptions(perHour, checkpointInterval, Duration.ZERO, restart);
  }

  /**
   * Checkpoints every {@link #youngInterval Young-optimal} interval.
   *
   * @throws IllegalArgumentException if {@code perHour} or {@code checkpointWrite} is not positive
   */
  public static Interruptions young(double perHour, Duration checkpointWrite, Duration restart) {
    checkNotNull(checkpointWrite, "checkpointWrite");
    checkNotNull(restart, "restart");
    return new Interruptions(perHour, youngInterval(checkpointWrite, perHour), checkpointWrite, restart);
  }

  /**
   * Young's optimal checkpoint interval {@code sqrt(2 · δ · M)}, with {@code M = 1 / perHour} the mean time between
   * interruptions: it minimises the time spent writing checkpoints ({@code δ/c} of the work) plus the work
   * expected to be lost ({@code c/2} per interruption).
   *
   * @throws IllegalArgumentException if {@code perHour} or {@code checkpointWrite} is not positive
   */
  public static Duration youngInterval(Duration checkpointWrite, double perHour) {
    checkNotNull(checkpointWrite, "checkpointWrite");
    checkArgument(Double.isFinite(perHour) && perHour > 0,
        "Young's interval needs interruptions per hour > 0, was %s", perHour);
    checkArgument(checkpointWrite.compareTo(Duration.ZERO) > 0,
        "Young's interval needs a checkpoint write time > 0, was %s", checkpointWrite);
    double deltaSeconds = Decimals.seconds(checkpointWrite).doubleValue();
    double mtbfSeconds = 3600.0 / perHour;
    return Duration.ofMillis(Math.round(Math.sqrt(2 * deltaSeconds * mtbfSeconds) * 1000));
  }

  /** A copy that writes each checkpoint in {@code checkpointWrite}. */
  public Interruptions withCheckpointWrite(Duration checkpointWrite) {
    return new Interruptions(perHour, checkpointInterval, checkpointWrite, restart);
  }
}
