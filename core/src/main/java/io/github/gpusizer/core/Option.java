package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.ExchangeRate;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.estimate.Bottleneck;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.HostSizing;
import io.github.gpusizer.core.estimate.Interval;
import io.github.gpusizer.core.estimate.MemoryEstimate;
import io.github.gpusizer.core.estimate.Warning;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import java.time.Duration;
import java.util.Optional;

/**
 * One way to run the job: an offering rented as {@code instances} machines, how the job is laid out on their GPUs,
 * what it needs, how long it takes and what it costs.
 *
 * <pre>{@code
 * Option o = GpuSizer.forTask(task).catalog(catalog).recommend().bestOrThrow();
 * System.out.println(o.rationale());
 * // 8× NVIDIA A100-SXM4-80GB on aws p4de.24xlarge (us-east-1, 1 instance, on-demand): fits with ZeRO-2 over
 * // 8 GPUs (61.2 of 80.0 GiB), 14.2 h, 590.00 USD; compute-bound at 48% MFU
 * Duration wall = o.wallTime();
 * Money cost = o.cost();
 * }</pre>
 *
 * @param offering the instance type rented
 * @param pricing how it is paid for
 * @param instances instances (nodes) rented for the whole job
 * @param runs independent runs of the task the option carries (1 unless a sweep was asked for)
 * @param concurrentRuns runs that execute at the same time; the rest wait for a free slot
 * @param estimate the estimate of one run: the task as run (micro-batch and checkpointing actually used), the
 *     hardware one run gets, its layout, memory, performance, host needs and the estimator's warnings
 * @param wallTime from start to the end of the last run (for spot, the expected time including re-done work):
 *     start-up, steps and checkpoint writes
 * @param startupTime within the wall time: provisioning, container and framework start, reading the weights,
 *     staging the data set ({@link io.github.gpusizer.core.estimate.FixedCosts})
 * @param checkpointTime within the wall time: writing checkpoints, periodically and at the end
 * @param billedTime the time each instance is billed for, after the provider's rounding or the subscription term
 * @param cost the total cost in the recommendation's currency (converted if the offering is priced in another one)
 * @param nativeCost the total cost in the offering's own currency
 * @param exchangeRate the rate {@code cost} was converted with from {@code nativeCost}; empty if not converted
 * @param host the host each instance should have for this option: CPU cores, RAM, disk
 * @param warnings what to watch out for, each with a stable code, a severity and the fix in the CLI's and the API's
 *     terms; {@link Recommendation#sharedWarnings()} gives the ones every option has, once
 * @param rationale a one-line summary of why the option works
 */
public record Option(
    Offering offering,
    PricingMode pricing,
    int instances,
    int runs,
    int concurrentRuns,
    Estimate estimate,
    Duration wallTime,
    Duration startupTime,
    Duration checkpointTime,
    Duration billedTime,
    Money cost,
    Money nativeCost,
    Optional<ExchangeRate> exchangeRate,
    HostSizing host,
    ImmutableList<Warning> warnings,
    String rationale) {

  public Option {
    checkNotNull(offering, "offering");
    checkNotNull(pricing, "pricing");
    checkArgument(instances >= 1, "instances must be >= 1, was %s", instances);
    checkArgument(runs >= 1, "runs must be >= 1, was %s", runs);
    checkArgument(concurrentRuns >= 1 && concurrentRuns <= runs,
        "concurrent runs must be in 1..%s (the runs), was %s", runs, concurrentRuns);
    checkNotNull(estimate, "estimate");
    checkArgument(!checkNotNull(wallTime, "wallTime").isNegative(), "wall time must be >= 0, was %s", wallTime);
    checkArgument(!checkNotNull(startupTime, "startupTime").isNegative()
        && !checkNotNull(checkpointTime, "checkpointTime").isNegative()
        && startupTime.plus(checkpointTime).compareTo(wallTime) <= 0,
        "start-up (%s) and checkpoint time (%s) must be >= 0 and within the wall time %s", startupTime,
        checkpointTime, wallTime);
    checkArgument(!checkNotNull(billedTime, "billedTime").isNegative(), "billed time must be >= 0, was %s",
        billedTime);
    checkArgument(!checkNotNull(cost, "cost").isNegative(), "cost must be >= 0, was %s", cost);
    checkArgument(!checkNotNull(nativeCost, "nativeCost").isNegative(), "native cost must be >= 0, was %s",
        nativeCost);
    checkArgument(nativeCost.currency().equals(offering.onDemandPerHour().currency()),
        "native cost must be in the offering's currency %s, was %s", offering.onDemandPerHour().currency(),
        nativeCost);
    checkNotNull(exchangeRate, "exchangeRate");
    checkArgument(exchangeRate.isPresent() != cost.currency().equals(nativeCost.currency()),
        "an exchange rate must be given exactly when the cost (%s) is in another currency than the native cost (%s)",
        cost, nativeCost);
    checkNotNull(host, "host");
    warnings = ImmutableList.copyOf(warnings);
    checkNotNull(rationale, "rationale");
  }

  /** The time spent in steps: the wall time less start-up and checkpoint writes. */
  public Duration computeTime() {
    return wallTime.minus(startupTime).minus(checkpointTime);
  }

  /** The GPU model. */
  public Gpu gpu() {
    return offering.gpu();
  }

  /** All GPUs rented: instances × GPUs per instance. */
  public int gpus() {
    return instances * offering.gpuCount();
  }

  /** The parallel layout of one run (data-parallel ranks, ZeRO stage, tensor parallelism). */
  public Layout layout() {
    return estimate.layout();
  }

  /** The micro-batch each GPU processes per pass (smaller than the task's if that did not fit). */
  public int microBatch() {
    return estimate.task().microBatch();
  }

  /** The activation checkpointing used (more than the task's if that did not fit). */
  public Checkpointing checkpointing() {
    return estimate.task().checkpointing();
  }

  /** Memory per GPU, with its breakdown and the headroom left. */
  public MemoryEstimate memory() {
    return estimate.memory();
  }

  /** GPU memory left free per GPU. */
  public DataSize headroom() {
    return estimate.memory().headroom();
  }

  /** Time of one optimizer step (training) or one batch (inference). */
  public Duration stepTime() {
    return estimate.performance().stepTime();
  }

  /** Samples per second of one run. */
  public double samplesPerSecond() {
    return estimate.performance().samplesPerSecond();
  }

  /** Tokens per second of one run (0 for models that do not read tokens). */
  public double tokensPerSecond() {
    return estimate.performance().tokensPerSecond();
  }

  /** What limits the speed. */
  public Bottleneck bottleneck() {
    return estimate.performance().bottleneck();
  }

  /**
   * {@link #wallTime()} with the interval of the speed model's calibration errors
   * ({@code estimate().performance().errorBand()}): the time in steps ({@link #computeTime()}) scales with the
   * band, start-up and checkpoint writes are taken as they are.
   */
  public Interval<Duration> wallTimeInterval() {
    Duration fixed = startupTime.plus(checkpointTime);
    return estimate.performance().errorBand().ofPredictedTime(computeTime()).map(fixed::plus);
  }

  /** Whether {@link #cost()} was converted from the offering's currency with an exchange rate. */
  public boolean costConverted() {
    return exchangeRate.isPresent();
  }

  @Override
  public String toString() {
    return rationale;
  }
}
