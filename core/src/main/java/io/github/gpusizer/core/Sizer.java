package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.CudaVersion;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.cost.ExchangeRates;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.cost.SpotInterruptionRates;
import io.github.gpusizer.core.cost.UnknownExchangeRateException;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.FixedCosts;
import io.github.gpusizer.core.model.ConvNet;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Dataset;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.Period;
import java.util.Arrays;
import java.util.Currency;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The fluent builder {@link GpuSizer#forTask(Task)} hands back: the constraints, preferences and models of one
 * sizing, then {@link #recommend()}.
 *
 * <pre>{@code
 * Recommendation rec = GpuSizer.forTask(task)
 *     .catalog(catalog)
 *     .deadline(Duration.ofHours(24))
 *     .budget(Money.of("2000", "CNY"))
 *     .maxGpus(16)
 *     .objective(Objective.BEST_VALUE)
 *     .recommend();
 * }</pre>
 *
 * <p>A builder in the manner of Caffeine's: every setting is optional, each setter checks its argument at once
 * ({@link IllegalArgumentException} naming the setting, the rule and the bad value), and giving a setting twice is
 * a mistake ({@link IllegalStateException} with the earlier value). Rules that involve several settings are
 * checked by {@link #recommend()}, which leaves the builder unchanged and may be called any number of times, from
 * any number of threads: a configured sizer can be shared. The same settings always give an equal recommendation.
 *
 * <p>Defaults: the bundled catalog, a deadline of {@link GpuSizer#DEFAULT_DEADLINE 24 hours}, no budget, 1 to
 * {@link GpuSizer#DEFAULT_MAX_GPUS 64} GPUs, any provider, region and GPU model, on-demand pricing, no memory
 * headroom beyond the estimator's own allowance, {@link Objective#CHEAPEST}, the budget's currency (else USD), one
 * run, the sourced {@link FixedCosts#defaults() fixed costs} of a run, each provider's sourced default spot
 * interruption rate ({@link SpotInterruptionRates#bundled()}), prices judged stale after
 * {@link Offering#STALE_AFTER 180 days} by the system clock in UTC.
 */
public final class Sizer {
  private final Task task;
  private Catalog catalog;
  private Duration deadline;
  private Money budget;
  private int maxGpus;
  private int maxNodes;
  private int minGpus;
  private int gpus;
  private ImmutableSet<String> providers;
  private ImmutableSet<String> regions;
  private ImmutableSet<String> gpuModels;
  private ImmutableSet<PricingMode> pricing;
  private Double minHeadroomFraction;
  private DataSize minHeadroom;
  private Objective objective;
  private double bestValueFactor;
  private Currency currency;
  private CudaVersion cuda;
  private int runs;
  private Estimator estimator;
  private CostModel costModel;
  private ExchangeRates exchangeRates;
  private Interruptions spotInterruptions;
  private SpotInterruptionRates spotInterruptionRates;
  private Clock clock;
  private Period staleAfter;
  private FixedCosts fixedCosts;
  private boolean exhaustive;
  private boolean tightMemory;

  Sizer(Task task) {
    this.task = task;
  }

  /** The offerings to choose from (default: the bundled catalog). */
  public synchronized Sizer catalog(Catalog catalog) {
    checkNotNull(catalog, "catalog");
    requireUnset("catalog", this.catalog);
    this.catalog = catalog;
    return this;
  }

  /**
   * The longest acceptable wall time from start to the end of the last run (default 24 h).
   *
   * @throws IllegalArgumentException if not positive
   */
  public synchronized Sizer deadline(Duration deadline) {
    checkNotNull(deadline, "deadline");
    checkArgument(deadline.compareTo(Duration.ZERO) > 0, "deadline must be > 0, was %s", deadline);
    requireUnset("deadline", this.deadline);
    this.deadline = deadline;
    return this;
  }

  /**
   * The most the job may cost in total; its currency becomes the ranking currency unless {@link #currency} says
   * otherwise.
   *
   * @throws IllegalArgumentException if not positive
   */
  public synchronized Sizer budget(Money budget) {
    checkNotNull(budget, "budget");
    checkArgument(budget.amount().signum() > 0, "budget must be > 0, was %s", budget);
    requireUnset("budget", this.budget);
    this.budget = budget;
    return this;
  }

  /**
   * The most GPUs the job may use in all (default {@value GpuSizer#DEFAULT_MAX_GPUS}).
   *
   * @throws IllegalArgumentException if below 1 or above {@value GpuSizer#MAX_CLUSTER_GPUS}
   */
  public synchronized Sizer maxGpus(int maxGpus) {
    this.maxGpus = clusterCount("maxGpus", maxGpus, this.maxGpus);
    return this;
  }

  /**
   * The fewest GPUs the job may use in all (default 1): offerings whose instances cannot make that many within the
   * other limits are rejected with the reason. Not with {@link #gpus}; at most {@link #maxGpus}, which
   * {@link #recommend()} checks.
   *
   * @throws IllegalArgumentException if below 1 or above {@value GpuSizer#MAX_CLUSTER_GPUS}
   */
  public synchronized Sizer minGpus(int minGpus) {
    this.minGpus = clusterCount("minGpus", minGpus, this.minGpus);
    return this;
  }

  /**
   * Exactly this many GPUs in all, e.g. {@code gpus(16)} for two 8-GPU instances or sixteen 1-GPU ones: offerings
   * whose GPUs per instance do not divide it, or that would need more instances than {@link #maxNodes} or than they
   * can join into one job, are rejected with the reason. Not with {@link #minGpus} or {@link #maxGpus}, which
   * {@link #recommend()} checks.
   *
   * @throws IllegalArgumentException if below 1 or above {@value GpuSizer#MAX_CLUSTER_GPUS}
   */
  public synchronized Sizer gpus(int gpus) {
    this.gpus = clusterCount("gpus", gpus, this.gpus);
    return this;
  }

  /**
   * The most instances (nodes) the job may use (default: as many as {@link #maxGpus} allows).
   *
   * @throws IllegalArgumentException if below 1 or above {@value GpuSizer#MAX_CLUSTER_GPUS}
   */
  public synchronized Sizer maxNodes(int maxNodes) {
    this.maxNodes = clusterCount("maxNodes", maxNodes, this.maxNodes);
    return this;
  }

  /**
   * A count of GPUs or nodes, checked: 1 up to {@value GpuSizer#MAX_CLUSTER_GPUS} (the largest cluster the estimator
   * models), and set once ({@code earlier} 0 where unset).
   */
  private int clusterCount(String name, int value, int earlier) {
    checkArgument(value >= 1, "%s must be >= 1, was %s", name, value);
    checkArgument(value <= GpuSizer.MAX_CLUSTER_GPUS, "%s must be <= %s (the largest cluster the estimator models), "
        + "was %s", name, GpuSizer.MAX_CLUSTER_GPUS, value);
    requireUnset(name, earlier == 0 ? null : earlier);
    return value;
  }

  /** Only offerings of these providers, e.g. {@code "aws", "aistudio"} (case-insensitive; default: all). */
  public synchronized Sizer providers(String... providers) {
    ImmutableSet<String> names = names("providers", providers);
    requireUnset("providers", this.providers);
    this.providers = names;
    return this;
  }

  /** Only offerings in these regions (case-insensitive; default: all). */
  public synchronized Sizer regions(String... regions) {
    ImmutableSet<String> names = names("regions", regions);
    requireUnset("regions", this.regions);
    this.regions = names;
    return this;
  }

  /**
   * Only these GPU models, by catalog id or name, e.g. {@code "a100-sxm4-80gb", "H100 SXM"} (default: all).
   * Names are resolved against the catalog by {@link #recommend()}.
   */
  public synchronized Sizer gpuModels(String... models) {
    ImmutableSet<String> names = names("gpuModels", models);
    requireUnset("gpuModels", this.gpuModels);
    this.gpuModels = names;
    return this;
  }

  /** How instances may be paid for (default: on-demand only). */
  public synchronized Sizer pricing(PricingMode first, PricingMode... more) {
    checkNotNull(first, "pricing");
    EnumSet<PricingMode> modes = EnumSet.of(first);
    for (PricingMode m : checkNotNull(more, "pricing")) {
      modes.add(checkNotNull(m, "pricing mode"));
    }
    requireUnset("pricing", this.pricing);
    this.pricing = ImmutableSet.copyOf(modes);
    return this;
  }

  /** On-demand and spot: the same as {@code pricing(ON_DEMAND, SPOT)}. */
  public Sizer allowSpot() {
    return pricing(PricingMode.ON_DEMAND, PricingMode.SPOT);
  }

  /**
   * The fraction of each GPU's memory that must stay free beyond the estimate, e.g. 0.1 for a 10% safety margin
   * (default 0: the estimate already counts the CUDA context and allocator overhead).
   *
   * @throws IllegalArgumentException unless in [0, 1)
   */
  public synchronized Sizer minHeadroom(double fraction) {
    checkArgument(fraction >= 0 && fraction < 1, "minHeadroom must be a fraction in [0, 1), was %s", fraction);
    requireUnset("minHeadroom", minHeadroomFraction != null ? minHeadroomFraction : minHeadroom);
    this.minHeadroomFraction = fraction;
    return this;
  }

  /** The memory per GPU that must stay free beyond the estimate, e.g. {@code DataSize.ofGiB(2)}. */
  public synchronized Sizer minHeadroom(DataSize size) {
    checkNotNull(size, "minHeadroom");
    requireUnset("minHeadroom", minHeadroomFraction != null ? minHeadroomFraction : minHeadroom);
    this.minHeadroom = size;
    return this;
  }

  /** What to optimise (default {@link Objective#CHEAPEST}). */
  public synchronized Sizer objective(Objective objective) {
    checkNotNull(objective, "objective");
    requireUnset("objective", this.objective);
    this.objective = objective;
    return this;
  }

  /**
   * The window of {@link Objective#BEST_VALUE}: options at most {@code factor} times as slow as the fastest
   * (default {@value GpuSizer#DEFAULT_BEST_VALUE_FACTOR}). Only with that objective.
   *
   * @throws IllegalArgumentException if below 1 or not finite
   */
  public synchronized Sizer bestValueFactor(double factor) {
    checkArgument(factor >= 1 && Double.isFinite(factor), "bestValueFactor must be >= 1, was %s", factor);
    requireUnset("bestValueFactor", this.bestValueFactor == 0 ? null : this.bestValueFactor);
    this.bestValueFactor = factor;
    return this;
  }

  /**
   * The currency costs are ranked and reported in, e.g. {@code "CNY"} (default: the budget's, else USD).
   *
   * @throws IllegalArgumentException if not an ISO 4217 code
   */
  public synchronized Sizer currency(String code) {
    Currency parsed = Money.currency(code);
    requireUnset("currency", this.currency);
    this.currency = parsed;
    return this;
  }

  /**
   * The CUDA version of the caller's software stack, e.g. {@code "11.8"}: GPUs that need a newer one are rejected
   * (an RTX 4090 needs 11.8, an H100 12.0).
   *
   * @throws IllegalArgumentException if not a version number
   */
  public synchronized Sizer cudaVersion(String version) {
    CudaVersion parsed = CudaVersion.parse(checkNotNull(version, "cudaVersion"));
    requireUnset("cudaVersion", this.cuda);
    this.cuda = parsed;
    return this;
  }

  /**
   * Independent runs of the task, e.g. a hyper-parameter sweep (default 1). Runs are packed onto the rented GPUs:
   * several per instance, or one per group of instances, as many at once as fit; the rest wait their turn.
   *
   * @throws IllegalArgumentException if below 1 or above 100,000
   */
  public synchronized Sizer runs(int runs) {
    checkArgument(runs >= 1 && runs <= 100_000, "runs must be in 1..100,000, was %s", runs);
    requireUnset("runs", this.runs == 0 ? null : this.runs);
    this.runs = runs;
    return this;
  }

  /** The estimator of memory and time (default {@link Estimator#defaults()}), e.g. with a measured efficiency. */
  public synchronized Sizer estimator(Estimator estimator) {
    checkNotNull(estimator, "estimator");
    requireUnset("estimator", this.estimator);
    this.estimator = estimator;
    return this;
  }

  /**
   * How billing is computed: minimum charges, storage (default {@link CostModel#defaults()}: per-second billing
   * with a 60 s minimum, bundled exchange rates).
   */
  public synchronized Sizer costModel(CostModel model) {
    checkNotNull(model, "costModel");
    requireUnset("costModel", this.costModel);
    this.costModel = model;
    return this;
  }

  /**
   * The exchange rates that convert prices into the ranking currency (default: the cost model's, which are the
   * {@link ExchangeRates#bundled() bundled} reference rates). Converted costs are marked in each option.
   */
  public synchronized Sizer exchangeRates(ExchangeRates rates) {
    checkNotNull(rates, "exchangeRates");
    requireUnset("exchangeRates", this.exchangeRates);
    this.exchangeRates = rates;
    return this;
  }

  /**
   * What every run pays besides its steps: start-up (provisioning, container, weights, data staging) and checkpoint
   * writes, in wall and billed time (default {@link FixedCosts#defaults()}, sourced there). Per-provider
   * provisioning with {@link FixedCosts#withProvisioning(String, Duration)}; {@link FixedCosts#none()} for step
   * time alone.
   */
  public synchronized Sizer fixedCosts(FixedCosts costs) {
    checkNotNull(costs, "fixedCosts");
    requireUnset("fixedCosts", this.fixedCosts);
    this.fixedCosts = costs;
    return this;
  }

  /**
   * Tries every number of instances up to the limits instead of the planner's ladder (every count up to 8 GPUs,
   * then steps of at most 25 %, plus the smallest count that meets the deadline). Slower; for those who want the
   * exact optimum of the model, which is rarely more than 1 % cheaper.
   */
  public synchronized Sizer exhaustive() {
    if (exhaustive) {
      throw new IllegalStateException("exhaustive was already set");
    }
    this.exhaustive = true;
    return this;
  }

  /**
   * Lets hardware on which no recipe surely fits run one whose nominal peak fits but whose memory interval reaches
   * past the card ({@link io.github.gpusizer.core.estimate.Fit#MAY_NOT_FIT}: the high end of the calibration band
   * of its workload class, {@code core/CALIBRATION.md}). By default such hardware is rejected, its reason giving
   * both figures: an option is a plan to launch, and one that may run out of memory is one to try first. Options
   * admitted this way carry a critical warning.
   */
  public synchronized Sizer allowTightMemory() {
    if (tightMemory) {
      throw new IllegalStateException("allowTightMemory was already set");
    }
    this.tightMemory = true;
    return this;
  }

  /**
   * How often spot instances are interrupted and how the job checkpoints, for every offering: spot options then
   * carry the expected time and cost of re-done work. Only with {@link PricingMode#SPOT} allowed. Without it, each
   * provider's sourced default rate applies ({@link #spotInterruptionRates}), with the checkpoint interval of the
   * {@link #fixedCosts fixed costs} (one an hour if they set none) and a restart of the provider's provisioning
   * time; a provider without a default is priced as never interrupted, with a warning.
   * {@link Interruptions#never()} prices every spot offering as never interrupted.
   */
  public synchronized Sizer spotInterruptions(Interruptions interruptions) {
    checkNotNull(interruptions, "spotInterruptions");
    requireUnset("spotInterruptions", this.spotInterruptions);
    this.spotInterruptions = interruptions;
    return this;
  }

  /**
   * The default spot interruption rate of each provider, for offerings {@link #spotInterruptions} does not cover
   * (default: {@link SpotInterruptionRates#bundled()}; {@link SpotInterruptionRates#none()} for none).
   */
  public synchronized Sizer spotInterruptionRates(SpotInterruptionRates rates) {
    checkNotNull(rates, "spotInterruptionRates");
    requireUnset("spotInterruptionRates", this.spotInterruptionRates);
    this.spotInterruptionRates = rates;
    return this;
  }

  /**
   * The clock whose date prices are judged against (default: the system clock, in UTC): an option whose price was
   * read more than {@link #staleAfter} before it carries a {@code price-stale} warning.
   */
  public synchronized Sizer clock(Clock clock) {
    checkNotNull(clock, "clock");
    requireUnset("clock", this.clock);
    this.clock = clock;
    return this;
  }

  /**
   * How old a price may be before its options warn that it is stale (default {@link Offering#STALE_AFTER}, 180
   * days).
   *
   * @throws IllegalArgumentException if the period is negative
   */
  public synchronized Sizer staleAfter(Period staleAfter) {
    checkNotNull(staleAfter, "staleAfter");
    checkArgument(!staleAfter.isNegative(), "staleAfter must be >= 0, was %s", staleAfter);
    requireUnset("staleAfter", this.staleAfter);
    this.staleAfter = staleAfter;
    return this;
  }

  /**
   * Sizes the task: every offering × every number of instances within the limits × the parallel layouts that
   * fit, ranked by the objective.
   *
   * @throws IllegalStateException if settings contradict each other (a best-value factor without
   *     {@link Objective#BEST_VALUE}; spot interruptions without spot pricing; a budget in a currency with no
   *     rate to the ranking currency; {@link #gpus} with {@link #minGpus} or {@link #maxGpus}; {@link #minGpus}
   *     above {@link #maxGpus})
   * @throws IllegalArgumentException if a provider or region is not in the catalog (the message lists the known
   *     ones)
   * @throws io.github.gpusizer.catalog.UnknownGpuException if a GPU model is not in the catalog (with the closest
   *     names)
   * @throws IllegalStateException if no catalog was given and the bundled one cannot be loaded
   */
  public Recommendation recommend() {
    return SizingEngine.recommend(settings());
  }

  private synchronized Settings settings() {
    Catalog cat = catalog != null ? catalog : Catalog.bundled();
    Objective obj = objective != null ? objective : Objective.CHEAPEST;
    if (bestValueFactor != 0 && obj != Objective.BEST_VALUE) {
      throw new IllegalStateException(
          "bestValueFactor applies only to Objective.BEST_VALUE; the objective is " + obj);
    }
    Currency cur = currency != null ? currency : budget != null ? budget.currency() : GpuSizer.DEFAULT_CURRENCY;
    ImmutableSet<PricingMode> modes = pricing != null ? pricing : ImmutableSet.of(PricingMode.ON_DEMAND);
    if (spotInterruptions != null && !modes.contains(PricingMode.SPOT)) {
      throw new IllegalStateException("spotInterruptions apply only when spot is allowed; pricing is " + modes);
    }
    CostModel model = costModel != null ? costModel : CostModel.defaults();
    ExchangeRates rates = exchangeRates != null ? exchangeRates : model.exchangeRates();
    model = model.withExchangeRates(rates);
    Optional<Money> budgetInCurrency = Optional.empty();
    if (budget != null) {
      try {
        budgetInCurrency = Optional.of(rates.convert(budget, cur).amount());
      } catch (UnknownExchangeRateException e) {
        throw new IllegalStateException("budget is in " + budget.currency() + " but costs are ranked in " + cur
            + "; no exchange rate from " + budget.currency() + " to " + cur + " is known", e);
      }
    }
    FixedCosts fixed = fixedCosts != null ? fixedCosts : FixedCosts.defaults();
    Estimator est = estimator != null ? estimator : Estimator.defaults();
    CostStep costs = new CostStep(model, Optional.ofNullable(spotInterruptions),
        Optional.of(CostStep.SpotDefaults.of(
            spotInterruptionRates != null ? spotInterruptionRates : SpotInterruptionRates.bundled(), fixed,
            () -> fixed.checkpointWrite(cat.offerings().isEmpty() ? DataSize.ZERO
                : est.checkpointSize(task, cat.offerings().get(0).gpu()), 1))),
        Optional.of(new CostStep.PriceAge(LocalDate.now(clock != null ? clock : Clock.systemUTC()),
            staleAfter != null ? staleAfter : Offering.STALE_AFTER)));
    if (gpus != 0 && (minGpus != 0 || maxGpus != 0)) {
      throw new IllegalStateException("gpus (" + gpus + ") fixes the number of GPUs; it cannot be given with "
          + (minGpus != 0 ? "minGpus (" + minGpus + ")" : "maxGpus (" + maxGpus + ")"));
    }
    int most = gpus != 0 ? gpus : maxGpus != 0 ? maxGpus : GpuSizer.DEFAULT_MAX_GPUS;
    int least = gpus != 0 ? gpus : minGpus != 0 ? minGpus : 1;
    if (least > most) {
      throw new IllegalStateException("minGpus (" + least + ") must be <= maxGpus (" + most + ")"
          + (maxGpus == 0 ? ", whose default is " + GpuSizer.DEFAULT_MAX_GPUS : ""));
    }
    int nodes = maxNodes != 0 ? maxNodes : most;
    return new Settings(task, cat, deadline != null ? deadline : GpuSizer.DEFAULT_DEADLINE, budgetInCurrency, most,
        nodes, least,
        known("provider", providers, cat, Offering::provider), known("region", regions, cat, Offering::region),
        gpuIds(cat), modes,
        minHeadroomFraction != null ? minHeadroomFraction : 0, minHeadroom != null ? minHeadroom : DataSize.ZERO,
        obj, bestValueFactor != 0 ? bestValueFactor : GpuSizer.DEFAULT_BEST_VALUE_FACTOR, cur, rates,
        Optional.ofNullable(cuda), runs != 0 ? runs : 1, est,
        costs, fixed, exhaustive, tightMemory);
  }

  /** Lower-cased names, each checked to occur in the catalog. */
  private static ImmutableSet<String> known(String what, ImmutableSet<String> names, Catalog catalog,
      java.util.function.Function<Offering, String> field) {
    if (names == null) {
      return ImmutableSet.of();
    }
    Set<String> present = new TreeSet<>();
    for (Offering o : catalog.offerings()) {
      present.add(field.apply(o).toLowerCase(Locale.ROOT));
    }
    for (String n : names) {
      checkArgument(present.contains(n), "%s '%s' is not in the catalog; it has %s", what, n, present);
    }
    return names;
  }

  private ImmutableSet<String> gpuIds(Catalog catalog) {
    if (gpuModels == null) {
      return ImmutableSet.of();
    }
    ImmutableSet.Builder<String> ids = ImmutableSet.builder();
    for (String name : gpuModels) {
      ids.add(catalog.gpu(name).id()); // UnknownGpuException suggests the closest names
    }
    return ids.build();
  }


  private static ImmutableSet<String> names(String setting, String... names) {
    checkNotNull(names, setting);
    checkArgument(names.length > 0, "%s needs at least one name", setting);
    ImmutableSet.Builder<String> out = ImmutableSet.builder();
    for (String n : names) {
      checkArgument(n != null && !n.isBlank(), "%s must not contain blank names, was %s", setting,
          Arrays.toString(names));
      out.add(n.strip().toLowerCase(Locale.ROOT));
    }
    return out.build();
  }

  private static void requireUnset(String setting, Object earlier) {
    if (earlier != null) {
      throw new IllegalStateException(setting + " was already set to " + describe(earlier));
    }
  }

  private static String describe(Object value) {
    if (value instanceof Catalog) {
      Catalog c = (Catalog) value;
      return "a catalog of " + c.gpus().size() + " GPUs and " + c.offerings().size() + " offerings";
    }
    if (value instanceof Duration) {
      Duration d = (Duration) value;
      return d + " (" + d.toMinutes() / 60.0 + " h)";
    }
    return String.valueOf(value);
  }

  @Override
  public synchronized String toString() {
    return "Sizer{task=" + task.model().name() + " " + task.kind() + ", deadline=" + deadline + ", budget="
        + budget + ", objective=" + objective + "}";
  }
}
