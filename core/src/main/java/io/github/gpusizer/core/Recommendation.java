package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import java.util.Currency;
import java.util.Optional;

/**
 * What {@link GpuSizer#recommend()} found: the feasible options ranked by the objective, the cost-versus-time
 * Pareto front, every offering left out with its reason, and, when nothing is feasible, what would make it so.
 *
 * <pre>{@code
 * Recommendation rec = GpuSizer.forTask(task).catalog(catalog).budget(Money.of("2000", "CNY")).recommend();
 * rec.best().ifPresentOrElse(
 *     best -> System.out.println(best.rationale()),
 *     () -> System.out.println(rec.suggestion().orElseThrow().advice()));
 * }</pre>
 *
 * @param objective the objective the options are ranked by
 * @param currency the currency every {@link Option#cost()} is given in
 * @param options the feasible options, best first: for each offering and pricing mode, its best number of
 *     instances under the objective
 * @param paretoFront the options no other option beats on both cost and wall time, over every feasible number of
 *     instances of every offering, fastest first; of options with equal cost and time only the first by the
 *     ranking's tie-breakers (provider, instance type, region)
 * @param rejected the offerings that gave no feasible option, each with the reason of its closest attempt, in
 *     catalog order
 * @param suggestion when no option is feasible, what would make one so; empty otherwise
 */
public record Recommendation(
    Objective objective,
    Currency currency,
    ImmutableList<Option> options,
    ImmutableList<Option> paretoFront,
    ImmutableList<Rejection> rejected,
    Optional<Suggestion> suggestion) {

  public Recommendation {
    checkNotNull(objective, "objective");
    checkNotNull(currency, "currency");
    options = ImmutableList.copyOf(options);
    paretoFront = ImmutableList.copyOf(paretoFront);
    rejected = ImmutableList.copyOf(rejected);
    checkNotNull(suggestion, "suggestion");
    checkArgument(options.isEmpty() || suggestion.isEmpty(), "a feasible recommendation needs no suggestion");
  }

  /** The best option under the objective, or empty when nothing meets the constraints. */
  public Optional<Option> best() {
    return options.isEmpty() ? Optional.empty() : Optional.of(options.get(0));
  }

  /**
   * The best option under the objective.
   *
   * @throws NoFeasibleOptionException if nothing meets the constraints; it carries the suggestion and the
   *     rejections
   */
  public Option bestOrThrow() {
    if (options.isEmpty()) {
      throw new NoFeasibleOptionException(suggestion, rejected);
    }
    return options.get(0);
  }

  /** Whether at least one option meets every constraint. */
  public boolean isFeasible() {
    return !options.isEmpty();
  }
}
