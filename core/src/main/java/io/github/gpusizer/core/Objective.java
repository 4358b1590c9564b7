package io.github.gpusizer.core;

/**
 * What {@link Sizer#recommend()} optimises among the options that meet every constraint.
 *
 * <pre>{@code
 * Recommendation rec = GpuSizer.forTask(task).objective(Objective.FASTEST).recommend();
 * }</pre>
 */
public enum Objective {
  /** Lowest total cost; ties go to the shorter wall time. */
  CHEAPEST,
  /** Shortest wall time; ties go to the lower cost. */
  FASTEST,
  /**
   * The cheapest option among those that finish within a factor of the fastest option's wall time (default
   * {@value GpuSizer#DEFAULT_BEST_VALUE_FACTOR}, see {@link Sizer#bestValueFactor(double)}): pay little, wait
   * not much longer than the fastest. Options outside that window are ranked after those within it.
   */
  BEST_VALUE
}
