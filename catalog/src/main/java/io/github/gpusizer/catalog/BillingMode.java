package io.github.gpusizer.catalog;

/** How a provider bills an on-demand instance: the unit it rounds used time up to. */
public enum BillingMode {
  PER_SECOND,
  PER_MINUTE,
  PER_HOUR
}
