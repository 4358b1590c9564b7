package io.github.gpusizer.core.serving;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import java.util.Currency;
import java.util.Optional;

/**
 * What {@link ServingSizer#recommend()} found: every plan that meets the targets, cheapest first; the cost-vs-latency
 * Pareto front among them; the offerings that cannot; and, when nothing can, what would.
 *
 * <pre>{@code
 * ServingRecommendation rec = ServingSizer.forTask(task).recommend();
 * rec.best().ifPresentOrElse(p -> System.out.println(p.rationale()),
 *     () -> System.out.println(rec.suggestion().orElse("")));
 * }</pre>
 *
 * @param task what was sized
 * @param currency the ranking currency of every cost
 * @param options plans that meet the targets, cheapest per hour first (ties: fewer GPUs, then lower TTFT p95);
 *     one per offering and tensor-parallel degree, with the fewest replicas that meet the targets
 * @param paretoFront the options no other option beats on cost per hour, TTFT p95 and TPOT p95 at once, cheapest
 *     first
 * @param rejected offerings and degrees that cannot meet the targets within the GPU bound, with the reason
 * @param suggestion when nothing meets the targets: the loosest targets or the traffic that could be met
 */
public record ServingRecommendation(ServingTask task, Currency currency, ImmutableList<ServingPlan> options,
                                    ImmutableList<ServingPlan> paretoFront,
                                    ImmutableList<ServingRejection> rejected, Optional<String> suggestion) {

  public ServingRecommendation {
    checkNotNull(task, "task");
    checkNotNull(currency, "currency");
    options = ImmutableList.copyOf(options);
    paretoFront = ImmutableList.copyOf(paretoFront);
    rejected = ImmutableList.copyOf(rejected);
    checkNotNull(suggestion, "suggestion");
  }

  /** The cheapest plan that meets the targets, if any. */
  public Optional<ServingPlan> best() {
    return options.isEmpty() ? Optional.empty() : Optional.of(options.get(0));
  }

  /** Whether some plan meets the targets. */
  public boolean feasible() {
    return !options.isEmpty();
  }
}
