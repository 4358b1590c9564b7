package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.CudaVersion;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.core.cost.ExchangeRates;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.FixedCosts;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import java.util.Currency;
import java.util.Optional;

/**
 * Everything one {@code recommend()} call needs, resolved and validated: an immutable snapshot of a
 * {@link io.github.gpusizer.core.Sizer}'s settings.
 *
 * @param providers allowed providers, lower case; empty = all
 * @param regions allowed regions, lower case; empty = all
 * @param gpuIds allowed GPU ids (resolved against the catalog); empty = all
 * @param budget the budget in the ranking currency
 * @param minGpus the fewest GPUs the job may use in all ({@code maxGpus} too for exactly that many)
 * @param minHeadroomFraction fraction of each GPU's memory that must stay free
 * @param minHeadroom memory per GPU that must stay free
 * @param rates exchange rates into the ranking currency
 * @param fixedCosts start-up and checkpoint costs every run pays
 * @param exhaustive whether every number of instances is tried, not only the ladder of {@link InstanceCounts}
 * @param tightMemory whether hardware on which no recipe surely fits may still run one that fits only nominally
 *     (its memory interval reaches past the card: {@link io.github.gpusizer.core.estimate.Fit#MAY_NOT_FIT})
 */
record Settings(
    Task task,
    Catalog catalog,
    Duration deadline,
    Optional<Money> budget,
    int maxGpus,
    int maxNodes,
    int minGpus,
    ImmutableSet<String> providers,
    ImmutableSet<String> regions,
    ImmutableSet<String> gpuIds,
    ImmutableSet<PricingMode> pricing,
    double minHeadroomFraction,
    DataSize minHeadroom,
    Objective objective,
    double bestValueFactor,
    Currency currency,
    ExchangeRates rates,
    Optional<CudaVersion> cuda,
    int runs,
    Estimator estimator,
    CostStep costs,
    FixedCosts fixedCosts,
    boolean exhaustive,
    boolean tightMemory) {

  Settings {
    checkNotNull(task, "task");
    checkNotNull(catalog, "catalog");
    checkArgument(checkNotNull(deadline, "deadline").compareTo(Duration.ZERO) > 0, "deadline must be > 0, was %s",
        deadline);
    checkNotNull(budget, "budget");
    budget.ifPresent(b -> checkArgument(b.currency().equals(currency),
        "budget must be in the ranking currency %s, was %s", currency, b));
    checkArgument(maxGpus >= 1, "max GPUs must be >= 1, was %s", maxGpus);
    checkArgument(maxNodes >= 1, "max nodes must be >= 1, was %s", maxNodes);
    checkArgument(minGpus >= 1, "min GPUs must be >= 1, was %s", minGpus);
    providers = ImmutableSet.copyOf(providers);
    regions = ImmutableSet.copyOf(regions);
    gpuIds = ImmutableSet.copyOf(gpuIds);
    pricing = ImmutableSet.copyOf(pricing);
    checkArgument(!pricing.isEmpty(), "at least one pricing mode must be allowed");
    checkArgument(minHeadroomFraction >= 0 && minHeadroomFraction < 1,
        "minimum headroom fraction must be in [0, 1), was %s", minHeadroomFraction);
    checkNotNull(minHeadroom, "minHeadroom");
    checkNotNull(objective, "objective");
    checkArgument(bestValueFactor >= 1 && Double.isFinite(bestValueFactor),
        "best-value factor must be >= 1, was %s", bestValueFactor);
    checkNotNull(currency, "currency");
    checkNotNull(rates, "rates");
    checkNotNull(cuda, "cuda");
    checkArgument(runs >= 1, "runs must be >= 1, was %s", runs);
    checkNotNull(estimator, "estimator");
    checkNotNull(costs, "costs");
    checkNotNull(fixedCosts, "fixedCosts");
  }

  /** The memory that must stay free on a GPU of the given capacity. */
  DataSize requiredHeadroom(DataSize capacity) {
    long byFraction = (long) Math.ceil(capacity.bytes() * minHeadroomFraction);
    return DataSize.ofBytes(Math.max(byFraction, minHeadroom.bytes()));
  }

  Settings withLimits(int gpus, int nodes) {
    return new Settings(task, catalog, deadline, budget, gpus, nodes, minGpus, providers, regions, gpuIds, pricing,
        minHeadroomFraction, minHeadroom, objective, bestValueFactor, currency, rates, cuda, runs, estimator,
        costs, fixedCosts, exhaustive, tightMemory);
  }

  Settings withTask(Task other) {
    return new Settings(other, catalog, deadline, budget, maxGpus, maxNodes, minGpus, providers, regions, gpuIds,
        pricing, minHeadroomFraction, minHeadroom, objective, bestValueFactor, currency, rates, cuda, runs,
        estimator, costs, fixedCosts, exhaustive, tightMemory);
  }

  Settings withoutCuda() {
    return new Settings(task, catalog, deadline, budget, maxGpus, maxNodes, minGpus, providers, regions, gpuIds,
        pricing, minHeadroomFraction, minHeadroom, objective, bestValueFactor, currency, rates, Optional.empty(),
        runs, estimator, costs, fixedCosts, exhaustive, tightMemory);
  }
}
