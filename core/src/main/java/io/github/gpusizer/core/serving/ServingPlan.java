package io.github.gpusizer.core.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.estimate.MemoryBreakdown;
import java.time.Duration;

/**
 * One way to serve the traffic: replicas of {@code tensorParallel} GPUs each on instances of one offering, with their
 * predicted latencies and cost.
 *
 * <pre>{@code
 * ServingPlan plan = ServingSizer.forTask(task).recommend().best().orElseThrow();
 * System.out.println(plan.replicas() + " x TP" + plan.tensorParallel() + " on " + plan.offering().instanceType()
 *     + ": " + plan.costPerMillionOutputTokens() + " per million tokens");
 * }</pre>
 *
 * @param offering the instance type rented
 * @param instances instances rented
 * @param tensorParallel GPUs per replica (tensor-parallel degree, within one instance)
 * @param replicas replicas behind the load balancer, every GPU of the instances in use
 * @param costPerHour price of all instances per hour, in the ranking currency
 * @param costPerMillionOutputTokens {@code costPerHour} over the output tokens the traffic asks for in an hour, per
 *     million
 * @param ttftP50 median time to first token, queueing included
 * @param ttftP95 95th-percentile time to first token
 * @param tpotP50 median time per output token
 * @param tpotP95 95th-percentile time per output token
 * @param batch mean sequences one replica decodes together
 * @param maxConcurrency sequences one replica can hold at once (KV cache of mean requests, engine limit)
 * @param maxContextTokens the longest context one sequence can hold (KV room, at most the model's context)
 * @param memoryPerGpu memory of one GPU: weights, activations and overheads, and the KV-cache pool as
 *     {@code kvCache}
 * @param bottleneck what sets the pace
 * @param warnings caveats in plain words
 * @param rationale why this plan, in one sentence
 */
public record ServingPlan(Offering offering, int instances, int tensorParallel, int replicas, Money costPerHour,
                          Money costPerMillionOutputTokens, Duration ttftP50, Duration ttftP95, Duration tpotP50,
                          Duration tpotP95, double batch, int maxConcurrency, long maxContextTokens,
                          MemoryBreakdown memoryPerGpu, String bottleneck, ImmutableList<String> warnings,
                          String rationale) {

  public ServingPlan {
    checkNotNull(offering, "offering");
    checkArgument(instances >= 1, "instances must be >= 1, was %s", instances);
    checkArgument(tensorParallel >= 1 && offering.gpuCount() % tensorParallel == 0,
        "tensorParallel must divide the %s GPUs of %s, was %s", offering.gpuCount(), offering.instanceType(),
        tensorParallel);
    checkArgument(replicas == instances * offering.gpuCount() / tensorParallel,
        "replicas must fill the %s instances of %s GPUs at TP %s, was %s", instances, offering.gpuCount(),
        tensorParallel, replicas);
    checkNotNull(costPerHour, "costPerHour");
    checkNotNull(costPerMillionOutputTokens, "costPerMillionOutputTokens");
    checkNotNull(ttftP50, "ttftP50");
    checkNotNull(ttftP95, "ttftP95");
    checkNotNull(tpotP50, "tpotP50");
    checkNotNull(tpotP95, "tpotP95");
    checkArgument(batch >= 0 && Double.isFinite(batch), "batch must be >= 0, was %s", batch);
    checkArgument(maxConcurrency >= 1, "maxConcurrency must be >= 1, was %s", maxConcurrency);
    checkNotNull(memoryPerGpu, "memoryPerGpu");
    checkNotNull(bottleneck, "bottleneck");
    warnings = ImmutableList.copyOf(warnings);
    checkNotNull(rationale, "rationale");
  }

  /** The GPU model. */
  public Gpu gpu() {
    return offering.gpu();
  }

  /** GPUs rented: instances × GPUs per instance. */
  public int gpuCount() {
    return instances * offering.gpuCount();
  }

  /** "3 × TP2 on 6× L40S (aws g6e.12xlarge)": how reasons and rationales name a plan. */
  public String label() {
    return ServingSearch.label(offering, tensorParallel, replicas);
  }
}
