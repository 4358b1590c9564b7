package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import com.google.common.collect.ImmutableList;
import io.github.gpusizer.core.estimate.Warning;
import java.util.Currency;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What {@link Sizer#recommend()} found: the feasible options ranked by the objective, the cost-versus-time
 * Pareto front, every offering left out with its reason, and, when nothing is feasible, what would make it so.
 *
 * <pre>{@code
 * Recommendation rec = GpuSizer.forTask(task).catalog(catalog).budget(Money.of("2000", "CNY")).recommend();
 * rec.best().ifPresentOrElse(
 *     best -> System.out.println(best.rationale()),
 *     () -> System.out.println(rec.suggestion().orElseThrow().advice()));
 * }</pre>
 *
 * <p>An immutable value, safe to share between threads. A recommendation from {@link Sizer#recommend()} works
 * out its lists on first use (a large catalog gives tens of thousands of options, and most callers read only
 * {@link #best()}); each list is built once, and equality, hash code and string form are those of a record with
 * the components {@code objective, currency, options, paretoFront, rejected, suggestion}.
 */
public final class Recommendation {
  private final Objective objective;
  private final Currency currency;
  private final Optional<Option> best;
  private final Supplier<RankedOptions> ranked;
  private final Supplier<ImmutableList<Option>> options;
  private final Supplier<ImmutableList<Option>> paretoFront;
  private final Supplier<ImmutableList<Rejection>> rejected;
  private final Optional<Suggestion> suggestion;
  private final Supplier<ImmutableList<Warning>> sharedWarnings =
      Suppliers.memoize(() -> shared(options()));

  /**
   * A recommendation with its lists given.
   *
   * @param objective the objective the options are ranked by
   * @param currency the currency every {@link Option#cost()} is given in
   * @param options the feasible options, best first: for each offering and pricing mode, its best number of
   *     instances under the objective
   * @param paretoFront the options no other option beats on both cost and wall time, over every feasible number
   *     of instances of every offering, fastest first; of options with equal cost and time only the first by the
   *     ranking's tie-breakers (provider, instance type, region)
   * @param rejected the offerings that gave no feasible option, each with the reason of its closest attempt, in
   *     catalog order
   * @param suggestion when no option is feasible, what would make one so; empty otherwise
   */
  public Recommendation(Objective objective, Currency currency, List<Option> options, List<Option> paretoFront,
      List<Rejection> rejected, Optional<Suggestion> suggestion) {
    this(objective, currency, checkNotNull(options, "options").isEmpty()
            ? Optional.empty() : Optional.of(options.get(0)),
        Suppliers.ofInstance(RankedOptions.of(options)),
        Suppliers.ofInstance(ImmutableList.copyOf(checkNotNull(paretoFront, "paretoFront"))),
        Suppliers.ofInstance(ImmutableList.copyOf(checkNotNull(rejected, "rejected"))), suggestion);
  }

  private Recommendation(Objective objective, Currency currency, Optional<Option> best,
      Supplier<RankedOptions> ranked, Supplier<ImmutableList<Option>> paretoFront,
      Supplier<ImmutableList<Rejection>> rejected, Optional<Suggestion> suggestion) {
    this.objective = checkNotNull(objective, "objective");
    this.currency = checkNotNull(currency, "currency");
    this.best = checkNotNull(best, "best");
    this.ranked = ranked;
    this.options = Suppliers.memoize(() -> first(Integer.MAX_VALUE));
    this.paretoFront = paretoFront;
    this.rejected = rejected;
    this.suggestion = checkNotNull(suggestion, "suggestion");
    checkArgument(best.isEmpty() || suggestion.isEmpty(), "a feasible recommendation needs no suggestion");
  }

  /**
   * A feasible recommendation whose lists are worked out on first use, each once (thread-safe). The sizer uses
   * it so that a caller who reads only {@link #best()} does not pay for building every option.
   *
   * @param best the best option; {@code ranked} must give it first
   * @param ranked gives the feasible options, best first, each built on first use (see {@link #options()})
   * @param paretoFront gives the Pareto front (see {@link #paretoFront()})
   * @param rejected gives the rejections (see {@link #rejected()})
   */
  static Recommendation deferred(Objective objective, Currency currency, Option best,
      java.util.function.Supplier<RankedOptions> ranked,
      java.util.function.Supplier<? extends List<Option>> paretoFront,
      java.util.function.Supplier<? extends List<Rejection>> rejected) {
    checkNotNull(best, "best");
    checkNotNull(ranked, "ranked");
    checkNotNull(paretoFront, "paretoFront");
    checkNotNull(rejected, "rejected");
    return new Recommendation(objective, currency, Optional.of(best),
        Suppliers.memoize(() -> {
          RankedOptions r = ranked.get();
          checkState(r.size() > 0 && r.get(0) == best, "the options must start with the best option");
          return r;
        }),
        Suppliers.memoize(() -> ImmutableList.copyOf(paretoFront.get())),
        Suppliers.memoize(() -> ImmutableList.copyOf(rejected.get())), Optional.empty());
  }

  /** The ranked options, each built on first use: what {@link #deferred} gives another recommendation. */
  RankedOptions ranked() {
    return ranked.get();
  }

  /** The first {@code n} ranked options (all if fewer). */
  private ImmutableList<Option> first(int n) {
    RankedOptions r = ranked.get();
    int size = Math.min(n, r.size());
    ImmutableList.Builder<Option> out = ImmutableList.builderWithExpectedSize(size);
    for (int i = 0; i < size; i++) {
      out.add(r.get(i));
    }
    return out.build();
  }

  /** The objective the options are ranked by. */
  public Objective objective() {
    return objective;
  }

  /** The currency every {@link Option#cost()} is given in. */
  public Currency currency() {
    return currency;
  }

  /**
   * The feasible options, best first: for each offering and pricing mode, its best number of instances under the
   * objective.
   */
  public ImmutableList<Option> options() {
    return options.get();
  }

  /**
   * The first {@code n} of {@link #options()} (all of them if fewer), building only those: a report that shows the
   * top of a ranking over a large catalog need not build every option.
   *
   * @throws IllegalArgumentException if {@code n} is negative
   */
  public ImmutableList<Option> topOptions(int n) {
    checkArgument(n >= 0, "n must be >= 0, was %s", n);
    return first(n);
  }

  /** How many options {@link #options()} holds, without building them. */
  public int optionCount() {
    return ranked.get().size();
  }

  /**
   * Where {@code option} stands in {@link #options()}, 1 for the best; empty if it is not one of them (a Pareto front
   * member at an instance count its offering's ranking did not choose). Builds no other option.
   */
  public java.util.OptionalInt rank(Option option) {
    checkNotNull(option, "option");
    int index = ranked.get().indexOf(option);
    return index < 0 ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(index + 1);
  }

  /**
   * The options no other option beats on both cost and wall time, over every feasible number of instances of
   * every offering, fastest first; of options with equal cost and time only the first by the ranking's
   * tie-breakers (provider, instance type, region). It is drawn from distinct counts of each offering: counts of
   * one offering and pricing mode fewer than two or a quarter apart are one trade-off, so the front shows no runs
   * of consecutive counts; each offering's fastest and cheapest count and its choice under every objective are
   * always among them.
   */
  public ImmutableList<Option> paretoFront() {
    return paretoFront.get();
  }

  /** The offerings that gave no feasible option, each with the reason of its closest attempt, in catalog order. */
  public ImmutableList<Rejection> rejected() {
    return rejected.get();
  }

  /**
   * The warnings every option carries, in the best option's order, each once: a report can show them once for
   * the whole recommendation and only the rest with each option. Each {@link Option#warnings()} still lists all of
   * its own. Empty when there are no options.
   */
  public ImmutableList<Warning> sharedWarnings() {
    return sharedWarnings.get();
  }

  /**
   * {@code option}'s warnings that not every option carries: {@link Option#warnings()} less
   * {@link #sharedWarnings()}.
   */
  public ImmutableList<Warning> ownWarnings(Option option) {
    checkNotNull(option, "option");
    Set<Warning> shared = new HashSet<>(sharedWarnings());
    return option.warnings().stream().filter(w -> !shared.contains(w)).collect(ImmutableList.toImmutableList());
  }

  /**
   * The warnings every one of {@code options} carries, in the first's order, each once; empty for no options. What
   * {@link #sharedWarnings()} gives for all of them, for a report that shows a few.
   */
  public static ImmutableList<Warning> sharedBy(List<Option> options) {
    checkNotNull(options, "options");
    return shared(options);
  }

  private static ImmutableList<Warning> shared(List<Option> options) {
    if (options.isEmpty()) {
      return ImmutableList.of();
    }
    Set<Warning> common = new LinkedHashSet<>(options.get(0).warnings());
    for (Option o : options.subList(1, options.size())) {
      common.retainAll(new HashSet<>(o.warnings()));
      if (common.isEmpty()) {
        break;
      }
    }
    return ImmutableList.copyOf(common);
  }

  /** When no option is feasible, what would make one so; empty otherwise. */
  public Optional<Suggestion> suggestion() {
    return suggestion;
  }

  /** The best option under the objective, or empty when nothing meets the constraints. */
  public Optional<Option> best() {
    return best;
  }

  /**
   * The best option under the objective.
   *
   * @throws NoFeasibleOptionException if nothing meets the constraints; it carries the suggestion and the
   *     rejections
   */
  public Option bestOrThrow() {
    if (best.isEmpty()) {
      throw new NoFeasibleOptionException(suggestion, rejected());
    }
    return best.get();
  }

  /** Whether at least one option meets every constraint. */
  public boolean isFeasible() {
    return best.isPresent();
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Recommendation)) {
      return false;
    }
    Recommendation r = (Recommendation) o;
    return objective == r.objective && currency.equals(r.currency) && options().equals(r.options())
        && paretoFront().equals(r.paretoFront()) && rejected().equals(r.rejected())
        && suggestion.equals(r.suggestion);
  }

  @Override
  public int hashCode() {
    return Objects.hash(objective, currency, options(), paretoFront(), rejected(), suggestion);
  }

  @Override
  public String toString() {
    return "Recommendation[objective=" + objective + ", currency=" + currency + ", options=" + options()
        + ", paretoFront=" + paretoFront() + ", rejected=" + rejected() + ", suggestion=" + suggestion + "]";
  }
}
