package io.github.gpusizer.core;

/**
 * How an instance is paid for.
 *
 * <pre>{@code
 * GpuSizer.forTask(task).pricing(PricingMode.ON_DEMAND, PricingMode.SPOT).recommend();
 * }</pre>
 */
public enum PricingMode {
  /** Pay per use at the on-demand price, rounded up by the offering's billing mode. */
  ON_DEMAND,
  /** Pre-emptible capacity at the spot price; interruptions cost the work done since the last checkpoint. */
  SPOT,
  /** A monthly or yearly subscription of whole instances, whichever covers the run for less. */
  SUBSCRIPTION
}
