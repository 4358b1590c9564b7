package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.PricingMode;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Why an offering gave no option. One rejection stands for every candidate of the offering (each number of
 * instances, each pricing mode): its reason is that of the attempt that came closest to working.
 *
 * <pre>{@code
 * for (Rejection r : rec.rejected()) {
 *   System.out.println(r.offering().key() + ": " + r.reason());
 *   // aws/g4dn.xlarge/us-east-1: needs 38.2 GiB per GPU with ZeRO-3 over 8 GPUs; the Tesla T4 has 15.0 GiB
 * }
 * }</pre>
 *
 * @param offering the offering left out
 * @param kind the kind of the reason, for programs that sort or count rejections
 * @param reason the reason, specific and in plain language
 * @param gpus GPUs of the closest attempt, where it got as far as choosing a number
 * @param instances instances of the closest attempt, where it got as far as choosing a number
 * @param pricing the pricing mode of the closest attempt, where it got as far as pricing
 */
public record Rejection(
    Offering offering, Kind kind, String reason, OptionalInt gpus, OptionalInt instances,
    Optional<PricingMode> pricing) {

  /** The kinds of reasons, in the order the sizer checks them. */
  public enum Kind {
    /** Outside the providers, regions or GPU models the caller allowed. */
    EXCLUDED,
    /** Not sold in any pricing mode the caller allowed (no spot price, no subscription). */
    NOT_SOLD,
    /** Priced in a currency with no exchange rate to the ranking currency. */
    NO_EXCHANGE_RATE,
    /** The GPU cannot run the task's software: CUDA version, number format, compute capability. */
    INCOMPATIBLE,
    /** Beyond the caller's limits on GPUs or nodes. */
    TOO_LARGE,
    /** The task's batch or model does not split over this many GPUs. */
    LAYOUT,
    /** Does not fit in GPU memory with any layout tried. */
    MEMORY,
    /** Fits, but does not finish before the deadline. */
    DEADLINE,
    /** Fits and finishes in time, but costs more than the budget. */
    BUDGET
  }

  public Rejection {
    checkNotNull(offering, "offering");
    checkNotNull(kind, "kind");
    checkArgument(!checkNotNull(reason, "reason").isBlank(), "a rejection of %s needs a reason", offering.key());
    checkNotNull(gpus, "gpus");
    checkNotNull(instances, "instances");
    checkNotNull(pricing, "pricing");
  }

  @Override
  public String toString() {
    return offering.key() + ": " + reason;
  }
}
