package io.github.gpusizer.core;

/**
 * What {@link Sizer#recommend()} optimises among the options that meet every constraint.
 *
 * <pre>{@code
 * Recommendation rec = GpuSizer.forTask(task).objective(Objective.FASTEST).recommend();
 * }</pre>
 */
public enum Objective {
  /** Lowest total cost; costs within 1 % are a tie, which goes to fewer nodes, then the shorter wall time. */
  CHEAPEST,
  /**
   * Shortest wall time; times within 3 % are a tie (far inside the estimates' accuracy), which goes to fewer nodes,
   * then the lower cost: 6 eight-GPU nodes for 5.1 min rather than 64 one-GPU VMs for 5.0 min.
   */
  FASTEST,
  /**
   * The cheapest option among those that finish within a factor of the fastest option's wall time (default
   * {@value GpuSizer#DEFAULT_BEST_VALUE_FACTOR}, see {@link Sizer#bestValueFactor(double)}): pay little, wait
   * not much longer than the fastest. Options outside that window are ranked after those within it.
   */
  BEST_VALUE
}
