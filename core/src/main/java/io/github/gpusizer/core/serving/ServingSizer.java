package io.github.gpusizer.core.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.estimate.Estimator;
import java.util.Currency;

/**
 * Sizes online inference: which offering, tensor-parallel degree and number of replicas serve a
 * {@link ServingTask}'s traffic within its latency targets for the least money per hour.
 *
 * <pre>{@code
 * ServingTask task = ServingTask.builder(Presets.get("llama-2-70b"))
 *     .requestsPerSecond(5).promptTokens(1000).outputTokens(200)
 *     .ttft(Duration.ofSeconds(2)).tpot(Duration.ofMillis(100)).build();
 * ServingRecommendation rec = ServingSizer.forTask(task).maxGpus(32).recommend();
 * rec.best().ifPresent(p -> System.out.println(p.rationale() + ", " + p.costPerMillionOutputTokens()));
 * }</pre>
 *
 * <p>A builder in the manner of {@code Sizer}'s: every setting is optional and checked at once (an
 * {@link IllegalArgumentException} naming it, the rule and the bad value), a setting given twice is a mistake
 * ({@link IllegalStateException} with the earlier value), and {@link #recommend()} leaves the builder unchanged.
 *
 * <p>Defaults: the bundled catalog with every offering at its on-demand price, at most {@link #DEFAULT_MAX_GPUS}
 * GPUs, costs in USD through the cost model's exchange rates, the calibrated estimator.
 */
public final class ServingSizer {
  /**
   * The default bound on GPUs per deployment: eight 8-GPU servers, the same bound {@code GpuSizer} uses for
   * training jobs.
   */
  public static final int DEFAULT_MAX_GPUS = 64;
  /** The ranking currency when none is given. */
  public static final Currency DEFAULT_CURRENCY = Currency.getInstance("USD");

  private final ServingTask task;
  private Catalog catalog;
  private Integer maxGpus;
  private Currency currency;
  private Estimator estimator;
  private CostModel costModel;

  private ServingSizer(ServingTask task) {
    this.task = task;
  }

  /** Starts sizing a serving task. */
  public static ServingSizer forTask(ServingTask task) {
    return new ServingSizer(checkNotNull(task, "task"));
  }

  private static void once(String setting, Object earlier) {
    checkState(earlier == null, "%s was already set to %s", setting, earlier);
  }

  /** The GPUs and priced offerings to choose from. */
  public ServingSizer catalog(Catalog v) {
    once("catalog", catalog);
    catalog = checkNotNull(v, "catalog");
    return this;
  }

  /** The most GPUs a deployment may rent. */
  public ServingSizer maxGpus(int v) {
    once("maxGpus", maxGpus);
    checkArgument(v >= 1, "maxGpus must be >= 1, was %s", v);
    maxGpus = v;
    return this;
  }

  /** The currency costs are ranked and reported in. */
  public ServingSizer currency(Currency v) {
    once("currency", currency);
    currency = checkNotNull(v, "currency");
    return this;
  }

  /** The estimator whose roofline times the passes. */
  public ServingSizer estimator(Estimator v) {
    once("estimator", estimator);
    estimator = checkNotNull(v, "estimator");
    return this;
  }

  /** The cost model whose exchange rates convert prices. */
  public ServingSizer costModel(CostModel v) {
    once("costModel", costModel);
    costModel = checkNotNull(v, "costModel");
    return this;
  }

  /**
   * Searches every offering × tensor-parallel degree × replica count and ranks the plans that meet the targets.
   * Never throws for an infeasible request: the recommendation then has no options and a suggestion.
   */
  public ServingRecommendation recommend() {
    Catalog c = catalog != null ? catalog : Catalog.bundled();
    CostModel cost = costModel != null ? costModel : CostModel.defaults();
    return new ServingSearch(task, c.offerings(), maxGpus != null ? maxGpus : DEFAULT_MAX_GPUS,
        estimator != null ? estimator : Estimator.defaults(), cost.exchangeRates(),
        currency != null ? currency : DEFAULT_CURRENCY).run();
  }
}
