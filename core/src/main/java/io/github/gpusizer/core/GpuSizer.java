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
import io.github.gpusizer.core.cost.UnknownExchangeRateException;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.FixedCosts;
import io.github.gpusizer.core.model.ConvNet;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.sizing.CostStep;
import io.github.gpusizer.core.sizing.Settings;
import io.github.gpusizer.core.sizing.Sizer;
import io.github.gpusizer.core.task.Dataset;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import java.util.Arrays;
import java.util.Currency;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Recommends hardware for a deep-learning job: which GPU, how many, on which priced offering, with which parallel
 * layout, how long and at what cost, and why.
 *
 * <pre>{@code
 * Recommendation rec = GpuSizer.forTask(task)
 *     .catalog(catalog)
 *     .deadline(Duration.ofHours(24))
 *     .budget(Money.of("2000", "CNY"))
 *     .maxGpus(16)
 *     .objective(Objective.BEST_VALUE)
 *     .recommend();
 * rec.best().ifPresent(o -> System.out.println(o.rationale()));
 * }</pre>
 *
 * <p>A builder in the manner of Caffeine's: every setting is optional, each setter checks its argument at once
 * ({@link IllegalArgumentException} naming the setting, the rule and the bad value), and giving a setting twice is
 * a mistake ({@link IllegalStateException} with the earlier value). Rules that involve several settings are
 * checked by {@link #recommend()}, which leaves the builder unchanged and may be called any number of times, from
 * any number of threads: a configured sizer can be shared. The same settings always give an equal recommendation.
 *
 * <p>Defaults: the bundled catalog, a deadline of {@link #DEFAULT_DEADLINE 24 hours}, no budget, at most
 * {@link #DEFAULT_MAX_GPUS 64} GPUs, any provider, region and GPU model, on-demand pricing, no memory headroom
 * beyond the estimator's own allowance, {@link Objective#CHEAPEST}, the budget's currency (else USD), one run.
 */
public final class GpuSizer {
  /**
   * A day: the seed guides advise a training run that finishes within 24 hours, so the model can be improved the
   * next day (seed 000, "选择 GPU 数量").
   */
  public static final Duration DEFAULT_DEADLINE = Duration.ofHours(24);
  /** The default window of {@link Objective#BEST_VALUE}: options at most 1.5 × as slow as the fastest. */
  public static final double DEFAULT_BEST_VALUE_FACTOR = 1.5;
  /**
   * The default bound on GPUs per job: eight 8-GPU servers, the seed guides' "classic" 8-GPU configuration (seed
   * 000) times eight. A search bound, not a physical limit: raise it with {@link #maxGpus(int)}; when nothing fits
   * within it the suggestion says how many GPUs would do.
   */
  public static final int DEFAULT_MAX_GPUS = 64;
  /**
   * The bound on {@link #maxGpus} and {@link #maxNodes}: the estimator's {@code Hardware} and {@code Layout} model
   * at most 1,000,000 GPUs ("beyond any cluster"); a larger bound used to fail deep inside {@link #recommend()}.
   */
  public static final int MAX_CLUSTER_GPUS = 1_000_000;
  /** The ranking currency when no budget says otherwise. */
  public static final Currency DEFAULT_CURRENCY = Currency.getInstance("USD");

  /** Hoffmann et al. 2022: compute-optimal training uses about 20 tokens per parameter. */
  private static final double CHINCHILLA_TOKENS_PER_PARAMETER = 20;
  /** He et al. 2016; Goyal et al. 2017: ResNet trains for 90 epochs on ImageNet. */
  private static final double RESNET_EPOCHS = 90;
  /** Goyal et al. 2017: 32 images per GPU. */
  private static final int GOYAL_IMAGES_PER_GPU = 32;

  private final Task task;
  private Catalog catalog;
  private Duration deadline;
  private Money budget;
  private int maxGpus;
  private int maxNodes;
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
  private FixedCosts fixedCosts;
  private boolean exhaustive;

  private GpuSizer(Task task) {
    this.task = task;
  }

  /**
   * Starts sizing a task.
   *
   * @throws IllegalArgumentException if the task has no amount of work (tokens, or samples × epochs): without it
   *     neither time nor cost can be estimated
   */
  public static GpuSizer forTask(Task task) {
    checkNotNull(task, "task");
    checkArgument(task.tokens().isPresent() || task.samples().isPresent(),
        "task must give its amount of work as tokens or samples × epochs to size time and cost; %s has neither",
        task.kind());
    return new GpuSizer(task);
  }

  /**
   * Starts sizing a preset model ({@link Presets#ids()}) with textbook defaults, for a first look:
   *
   * <ul>
   *   <li>a transformer is pre-trained from scratch on 20 tokens per parameter, the compute-optimal amount of
   *       Hoffmann et al. 2022 ("Training Compute-Optimal Large Language Models", arXiv:2203.15556), in sequences
   *       of its maximum length up to 2,048 (LLaMA's pre-training context, Touvron et al. 2023, arXiv:2302.13971),
   *       BF16 mixed precision, AdamW, micro-batch 1;
   *   <li>an image model is trained on ImageNet-1k for 90 epochs (1,281,167 training images, Russakovsky et al.
   *       2015; the 90-epoch ResNet schedule of He et al. 2016 and Goyal et al. 2017, arXiv:1706.02677) at its
   *       reference resolution, FP16 mixed precision, SGD with momentum, 32 images per GPU (Goyal et al.'s
   *       per-GPU batch).
   * </ul>
   *
   * <pre>{@code
   * Recommendation rec = GpuSizer.forModel("resnet50").recommend();
   * }</pre>
   *
   * @throws IllegalArgumentException for an unknown id (naming the closest known ones), or a model with no
   *     textbook workload (recurrent and generic models: describe the job with {@link #forTask(Task)})
   */
  public static GpuSizer forModel(String presetId) {
    ModelSpec model = Presets.get(checkNotNull(presetId, "presetId"));
    if (model instanceof Transformer) {
      Transformer t = (Transformer) model;
      return forTask(Task.pretraining(t).tokens(CHINCHILLA_TOKENS_PER_PARAMETER * t.parameters())
          .build());
    }
    if (model instanceof ConvNet) {
      ConvNet c = (ConvNet) model;
      return forTask(Task.pretraining(c).dataset(Dataset.IMAGENET_1K).epochs(RESNET_EPOCHS)
          .imageSize(c.referenceResolution()).microBatch(GOYAL_IMAGES_PER_GPU)
          .precision(PrecisionMode.FP16_MIXED).optimizer(Optimizer.SGD_MOMENTUM).build());
    }
    throw new IllegalArgumentException("preset '" + presetId + "' (" + model.getClass().getSimpleName()
        + ") has no textbook workload; describe the job with forTask(Task)");
  }

  /** The offerings to choose from (default: the bundled catalog). */
  public synchronized GpuSizer catalog(Catalog catalog) {
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
  public synchronized GpuSizer deadline(Duration deadline) {
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
  public synchronized GpuSizer budget(Money budget) {
    checkNotNull(budget, "budget");
    checkArgument(budget.amount().signum() > 0, "budget must be > 0, was %s", budget);
    requireUnset("budget", this.budget);
    this.budget = budget;
    return this;
  }

  /**
   * The most GPUs the job may use in all (default {@value #DEFAULT_MAX_GPUS}).
   *
   * @throws IllegalArgumentException if below 1 or above {@value #MAX_CLUSTER_GPUS}
   */
  public synchronized GpuSizer maxGpus(int maxGpus) {
    checkArgument(maxGpus >= 1, "maxGpus must be >= 1, was %s", maxGpus);
    checkArgument(maxGpus <= MAX_CLUSTER_GPUS, "maxGpus must be <= %s (the largest cluster the estimator models), "
        + "was %s", MAX_CLUSTER_GPUS, maxGpus);
    requireUnset("maxGpus", this.maxGpus == 0 ? null : this.maxGpus);
    this.maxGpus = maxGpus;
    return this;
  }

  /**
   * The most instances (nodes) the job may use (default: as many as {@link #maxGpus} allows).
   *
   * @throws IllegalArgumentException if below 1 or above {@value #MAX_CLUSTER_GPUS}
   */
  public synchronized GpuSizer maxNodes(int maxNodes) {
    checkArgument(maxNodes >= 1, "maxNodes must be >= 1, was %s", maxNodes);
    checkArgument(maxNodes <= MAX_CLUSTER_GPUS, "maxNodes must be <= %s (the largest cluster the estimator "
        + "models), was %s", MAX_CLUSTER_GPUS, maxNodes);
    requireUnset("maxNodes", this.maxNodes == 0 ? null : this.maxNodes);
    this.maxNodes = maxNodes;
    return this;
  }

  /** Only offerings of these providers, e.g. {@code "aws", "aistudio"} (case-insensitive; default: all). */
  public synchronized GpuSizer providers(String... providers) {
    ImmutableSet<String> names = names("providers", providers);
    requireUnset("providers", this.providers);
    this.providers = names;
    return this;
  }

  /** Only offerings in these regions (case-insensitive; default: all). */
  public synchronized GpuSizer regions(String... regions) {
    ImmutableSet<String> names = names("regions", regions);
    requireUnset("regions", this.regions);
    this.regions = names;
    return this;
  }

  /**
   * Only these GPU models, by catalog id or name, e.g. {@code "a100-sxm4-80gb", "H100 SXM"} (default: all).
   * Names are resolved against the catalog by {@link #recommend()}.
   */
  public synchronized GpuSizer gpuModels(String... models) {
    ImmutableSet<String> names = names("gpuModels", models);
    requireUnset("gpuModels", this.gpuModels);
    this.gpuModels = names;
    return this;
  }

  /** How instances may be paid for (default: on-demand only). */
  public synchronized GpuSizer pricing(PricingMode first, PricingMode... more) {
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
  public GpuSizer allowSpot() {
    return pricing(PricingMode.ON_DEMAND, PricingMode.SPOT);
  }

  /**
   * The fraction of each GPU's memory that must stay free beyond the estimate, e.g. 0.1 for a 10% safety margin
   * (default 0: the estimate already counts the CUDA context and allocator overhead).
   *
   * @throws IllegalArgumentException unless in [0, 1)
   */
  public synchronized GpuSizer minHeadroom(double fraction) {
    checkArgument(fraction >= 0 && fraction < 1, "minHeadroom must be a fraction in [0, 1), was %s", fraction);
    requireUnset("minHeadroom", minHeadroomFraction != null ? minHeadroomFraction : minHeadroom);
    this.minHeadroomFraction = fraction;
    return this;
  }

  /** The memory per GPU that must stay free beyond the estimate, e.g. {@code DataSize.ofGiB(2)}. */
  public synchronized GpuSizer minHeadroom(DataSize size) {
    checkNotNull(size, "minHeadroom");
    requireUnset("minHeadroom", minHeadroomFraction != null ? minHeadroomFraction : minHeadroom);
    this.minHeadroom = size;
    return this;
  }

  /** What to optimise (default {@link Objective#CHEAPEST}). */
  public synchronized GpuSizer objective(Objective objective) {
    checkNotNull(objective, "objective");
    requireUnset("objective", this.objective);
    this.objective = objective;
    return this;
  }

  /**
   * The window of {@link Objective#BEST_VALUE}: options at most {@code factor} times as slow as the fastest
   * (default {@value #DEFAULT_BEST_VALUE_FACTOR}). Only with that objective.
   *
   * @throws IllegalArgumentException if below 1 or not finite
   */
  public synchronized GpuSizer bestValueFactor(double factor) {
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
  public synchronized GpuSizer currency(String code) {
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
  public synchronized GpuSizer cudaVersion(String version) {
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
  public synchronized GpuSizer runs(int runs) {
    checkArgument(runs >= 1 && runs <= 100_000, "runs must be in 1..100,000, was %s", runs);
    requireUnset("runs", this.runs == 0 ? null : this.runs);
    this.runs = runs;
    return this;
  }

  /** The estimator of memory and time (default {@link Estimator#defaults()}), e.g. with a measured efficiency. */
  public synchronized GpuSizer estimator(Estimator estimator) {
    checkNotNull(estimator, "estimator");
    requireUnset("estimator", this.estimator);
    this.estimator = estimator;
    return this;
  }

  /**
   * How billing is computed: minimum charges, storage (default {@link CostModel#defaults()}: per-second billing
   * with a 60 s minimum, bundled exchange rates).
   */
  public synchronized GpuSizer costModel(CostModel model) {
    checkNotNull(model, "costModel");
    requireUnset("costModel", this.costModel);
    this.costModel = model;
    return this;
  }

  /**
   * The exchange rates that convert prices into the ranking currency (default: the cost model's, which are the
   * {@link ExchangeRates#bundled() bundled} reference rates). Converted costs are marked in each option.
   */
  public synchronized GpuSizer exchangeRates(ExchangeRates rates) {
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
  public synchronized GpuSizer fixedCosts(FixedCosts costs) {
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
  public synchronized GpuSizer exhaustive() {
    if (exhaustive) {
      throw new IllegalStateException("exhaustive was already set");
    }
    this.exhaustive = true;
    return this;
  }

  /**
   * How often spot instances are interrupted and how the job checkpoints: spot options then carry the expected
   * time and cost of re-done work. Only with {@link PricingMode#SPOT} allowed. Without it, spot is priced as if
   * never interrupted, with a warning.
   */
  public synchronized GpuSizer spotInterruptions(Interruptions interruptions) {
    checkNotNull(interruptions, "spotInterruptions");
    requireUnset("spotInterruptions", this.spotInterruptions);
    this.spotInterruptions = interruptions;
    return this;
  }

  /**
   * Sizes the task: every offering × every number of instances within the limits × the parallel layouts that
   * fit, ranked by the objective.
   *
   * @throws IllegalStateException if settings contradict each other (a best-value factor without
   *     {@link Objective#BEST_VALUE}; spot interruptions without spot pricing; a budget in a currency with no
   *     rate to the ranking currency)
   * @throws IllegalArgumentException if a provider or region is not in the catalog (the message lists the known
   *     ones)
   * @throws io.github.gpusizer.catalog.UnknownGpuException if a GPU model is not in the catalog (with the closest
   *     names)
   * @throws IllegalStateException if no catalog was given and the bundled one cannot be loaded
   */
  public Recommendation recommend() {
    return Sizer.recommend(settings());
  }

  private synchronized Settings settings() {
    Catalog cat = catalog != null ? catalog : Catalog.bundled();
    Objective obj = objective != null ? objective : Objective.CHEAPEST;
    if (bestValueFactor != 0 && obj != Objective.BEST_VALUE) {
      throw new IllegalStateException(
          "bestValueFactor applies only to Objective.BEST_VALUE; the objective is " + obj);
    }
    Currency cur = currency != null ? currency : budget != null ? budget.currency() : DEFAULT_CURRENCY;
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
    int gpus = maxGpus != 0 ? maxGpus : DEFAULT_MAX_GPUS;
    int nodes = maxNodes != 0 ? maxNodes : gpus;
    return new Settings(task, cat, deadline != null ? deadline : DEFAULT_DEADLINE, budgetInCurrency, gpus, nodes,
        known("provider", providers, cat, Offering::provider), known("region", regions, cat, Offering::region),
        gpuIds(cat), modes,
        minHeadroomFraction != null ? minHeadroomFraction : 0, minHeadroom != null ? minHeadroom : DataSize.ZERO,
        obj, bestValueFactor != 0 ? bestValueFactor : DEFAULT_BEST_VALUE_FACTOR, cur, rates,
        Optional.ofNullable(cuda), runs != 0 ? runs : 1, estimator != null ? estimator : Estimator.defaults(),
        new CostStep(model, Optional.ofNullable(spotInterruptions)),
        fixedCosts != null ? fixedCosts : FixedCosts.defaults(), exhaustive);
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
    return "GpuSizer{task=" + task.model().name() + " " + task.kind() + ", deadline=" + deadline + ", budget="
        + budget + ", objective=" + objective + "}";
  }
}
