package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.FixedCosts;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.testing.SyntheticCatalogs;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Currency;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sizer's fast path (memory plans shared by hardware that differs only in host and network, recipes timed
 * without host sizing and warnings, full estimates worked out only for what is shown) gives exactly the
 * recommendation of the straightforward path: the same options in the same order with the same costs, times,
 * estimates, host sizing, warnings and rationales; the same Pareto front; the same rejections with the same
 * reasons; the same suggestion. Over seeded, generated tasks, constraints and catalogs.
 */
class FastPathEquivalenceTest {
  private static final long SEED = 42;
  private static final int CASES = 48;
  private static final List<String> MODELS = List.of("gpt2", "gpt2-medium", "bert-base", "llama-2-7b", "llama-2-13b",
      "resnet50", "vit-b-16", "t5-base", "mistral-7b");
  private static final Catalog SYNTHETIC = SyntheticCatalogs.catalog(150, SyntheticCatalogs.SEED);
  private static final Currency USD = Currency.getInstance("USD");

  /** One generated case: a task, the settings around it, and a name that says what it is. */
  record Case(String name, Settings settings) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    Random random = new Random(SEED);
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      String id = MODELS.get(random.nextInt(MODELS.size()));
      ModelSpec model = Presets.get(id);
      boolean image = id.startsWith("resnet") || id.startsWith("vit");
      int kind = random.nextInt(5);
      Task.Builder b;
      switch (kind) {
        case 0 -> b = Task.pretraining(model);
        case 1 -> b = Task.fullFineTuning(model);
        case 2 -> b = Task.lora(model, 8 << random.nextInt(3));
        case 3 -> b = Task.qlora(model, 16);
        default -> b = Task.inference(model);
      }
      if (image) {
        b.samples(1e5 * (1 + random.nextInt(20))).epochs(1 + random.nextInt(5));
      } else {
        b.tokens(Math.pow(10, 6 + random.nextInt(4)) * (1 + random.nextInt(9)));
      }
      b.microBatch(1 << random.nextInt(5));
      if (kind <= 1 && random.nextBoolean()) {
        b.precision(random.nextBoolean() ? PrecisionMode.BF16_MIXED : PrecisionMode.FP16_MIXED);
      }
      if (kind <= 2 && random.nextInt(3) == 0) {
        b.checkpointing(Checkpointing.values()[random.nextInt(Checkpointing.values().length)]);
      }
      // Beside the main draw, so that the cases above stay as they were: a data set that some hosts' RAM cannot hold
      // (staged to local disk, a longer start-up), and filters by region and provider.
      Random extra = new Random(SEED + i);
      if (extra.nextInt(3) == 0) {
        b.datasetSize(DataSize.ofGiB(16 << extra.nextInt(7)));
      }
      ImmutableSet<String> regions = extra.nextInt(4) == 0
          ? ImmutableSet.of("us-east-1", "eu-west-1", "cn-guangdong-b", "us-central1", "ap-south-1") : ImmutableSet.of();
      ImmutableSet<String> providers = extra.nextInt(6) == 0
          ? ImmutableSet.of("aws", "gcp", "lambda", "aistudio", "runpod") : ImmutableSet.of();
      // and a floor on the GPUs in all (drawn last, so the draws above stay as they were)
      boolean floor = extra.nextInt(5) == 0;
      Task task;
      try {
        task = b.build();
      } catch (IllegalArgumentException e) {
        continue; // a combination the task model rules out (e.g. LoRA of an image model): not a sizing case
      }
      boolean synthetic = random.nextInt(3) == 0;
      Catalog catalog = synthetic ? SYNTHETIC : Catalog.bundled();
      Duration deadline = Duration.ofHours(1 + random.nextInt(200));
      Optional<Money> budget = random.nextInt(3) == 0
          ? Optional.of(Money.of(BigDecimal.valueOf(10L << random.nextInt(14)), USD)) : Optional.empty();
      int maxGpus = new int[] {1, 4, 8, 16, 32, 64}[random.nextInt(6)];
      EnumSet<PricingMode> pricing = EnumSet.of(PricingMode.ON_DEMAND);
      if (random.nextBoolean()) {
        pricing.add(PricingMode.SPOT);
      }
      if (random.nextInt(4) == 0) {
        pricing.add(PricingMode.MONTHLY);
      }
      Optional<Interruptions> interruptions = pricing.contains(PricingMode.SPOT) && random.nextBoolean()
          ? Optional.of(Interruptions.of(0.05, Duration.ofMinutes(30), Duration.ofMinutes(5))) : Optional.empty();
      Objective objective = Objective.values()[random.nextInt(Objective.values().length)];
      int runs = random.nextInt(4) == 0 ? 2 + random.nextInt(3) : 1;
      double headroom = random.nextInt(4) == 0 ? 0.1 : 0;
      CostModel costs = CostModel.defaults();
      int minGpus = floor ? Math.max(1, maxGpus / 2) : 1;
      Settings settings = new Settings(task, catalog, deadline, budget, maxGpus, maxGpus, minGpus, providers,
          regions, ImmutableSet.of(), ImmutableSet.copyOf(pricing), headroom, DataSize.ZERO, objective,
          1.5, USD, costs.exchangeRates(), Optional.empty(), runs, Estimator.defaults(),
          new CostStep(costs, interruptions), random.nextBoolean() ? FixedCosts.defaults() : FixedCosts.none(),
          false, i % 2 == 1);
      cases.add(new Case(String.format("#%d %s %s, %s catalog, %s, %d GPUs, %s, %d run(s)%s%s%s", i, task.kind(), id,
          synthetic ? "synthetic" : "bundled", objective, maxGpus, pricing, runs,
          task.datasetSize().map(d -> ", data set " + d).orElse(""), regions.isEmpty() ? "" : ", regions " + regions,
          providers.isEmpty() ? "" : ", providers " + providers)
          + (minGpus > 1 ? ", at least " + minGpus + " GPUs" : ""), settings));
    }
    return cases.stream();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void fast_path_gives_the_reference_recommendation(Case c) {
    // WHEN the same settings are sized both ways
    Recommendation fast = SizingEngine.recommend(c.settings());
    Recommendation reference = SizingEngine.reference(c.settings());

    // THEN everything matches: options and their order, costs, reasons, rejections, front and suggestion
    assertThat(fast.options()).extracting(Option::offering, Option::pricing, Option::instances, Option::cost)
        .containsExactlyElementsOf(reference.options().stream()
            .map(o -> org.assertj.core.groups.Tuple.tuple(o.offering(), o.pricing(), o.instances(), o.cost()))
            .toList());
    assertThat(fast.rejected()).isEqualTo(reference.rejected());
    assertThat(fast.paretoFront()).isEqualTo(reference.paretoFront());
    assertThat(fast.suggestion()).isEqualTo(reference.suggestion());
    assertThat(fast).isEqualTo(reference);
    // AND where the deadline bound says no offering can meet the deadline (the case that skips the screen), the
    // reference finds nothing feasible
    if (c.settings().runs() == 1 && new Pass(c.settings(), new LayoutSearch(c.settings())).deadlineOutOfReach()) {
      assertThat(reference.isFeasible()).isFalse();
    }
  }

  /**
   * A catalog where screening matters: each synthetic offering sold again under other prices (cheaper, dearer,
   * equal in another region, zero, a price of 25 significant digits), so groups of one shape hold many offerings
   * with price ties.
   */
  private static final Catalog CROWDED = crowded();

  private static Catalog crowded() {
    Catalog base = SyntheticCatalogs.catalog(60, SyntheticCatalogs.SEED + 1);
    List<io.github.gpusizer.catalog.Offering> out = new ArrayList<>();
    String[] factors = {"1", "0.5", "1", "2", "0", "1.0000000000000000000000001"};
    int k = 0;
    for (io.github.gpusizer.catalog.Offering o : base.offerings()) {
      for (String f : factors) {
        BigDecimal factor = new BigDecimal(f);
        out.add(repriced(o, o.region() + "-" + k++, factor, factor, factor));
      }
    }
    return base.withOfferings(out);
  }

  /** {@code o} in another region, its on-demand, spot and subscription prices times the factors given. */
  private static io.github.gpusizer.catalog.Offering repriced(io.github.gpusizer.catalog.Offering o, String region,
      BigDecimal onDemand, BigDecimal spot, BigDecimal subscriptions) {
    return new io.github.gpusizer.catalog.Offering(o.provider(), o.instanceType(), region, o.gpu(), o.gpuCount(),
        o.vcpus(), o.ram(), o.localDisk(), o.onDemandPerHour().times(onDemand), o.spotPerHour().map(m -> m.times(spot)),
        o.billing(), o.monthly().map(m -> m.times(subscriptions)), o.yearly().map(m -> m.times(subscriptions)),
        o.networkGbps(), o.fabric(), o.priceDate(), o.source());
  }

  static Stream<Case> crowdedCases() {
    List<Case> cases = new ArrayList<>();
    Task task = Task.lora(Presets.get("gpt2"), 8).tokens(2e10).build();
    int i = 0;
    for (Objective objective : Objective.values()) {
      for (Duration deadline : List.of(Duration.ofHours(6), Duration.ofMinutes(75))) {
      for (boolean spot : new boolean[] {false, true}) {
        EnumSet<PricingMode> pricing = spot ? EnumSet.of(PricingMode.ON_DEMAND, PricingMode.SPOT, PricingMode.MONTHLY)
            : EnumSet.of(PricingMode.ON_DEMAND);
        Optional<Interruptions> interruptions = spot
            ? Optional.of(Interruptions.of(0.05, Duration.ofMinutes(30), Duration.ofMinutes(5))) : Optional.empty();
        CostModel costs = CostModel.defaults();
        Settings open = new Settings(task, CROWDED, deadline, Optional.empty(), 16, 16, 1, ImmutableSet.of(),
            ImmutableSet.of(), ImmutableSet.of(), ImmutableSet.copyOf(pricing), 0, DataSize.ZERO, objective, 1.5, USD,
            costs.exchangeRates(), Optional.empty(), 1, Estimator.defaults(), new CostStep(costs, interruptions),
            FixedCosts.defaults(), false, false);
        cases.add(new Case("crowded #" + i++ + " " + objective + ", " + deadline + ", " + pricing, open));
        // budgets exactly at the cost of some options: the screening's exact comparison decides
        List<Option> options = SizingEngine.reference(open).options();
        for (int pick : new int[] {0, options.size() / 3, options.size() / 2}) {
          if (pick < options.size() && options.get(pick).cost().amount().signum() > 0) {
            Money budget = options.get(pick).cost();
            cases.add(new Case("crowded #" + i++ + " " + objective + ", " + pricing + ", budget " + budget,
                new Settings(task, CROWDED, deadline, Optional.of(budget), 16, 16, 1, ImmutableSet.of(),
                    ImmutableSet.of(), ImmutableSet.of(), ImmutableSet.copyOf(pricing), 0, DataSize.ZERO, objective,
                    1.5, USD, costs.exchangeRates(), Optional.empty(), 1, Estimator.defaults(),
                    new CostStep(costs, interruptions), FixedCosts.defaults(), false, false)));
          }
        }
      }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest
  @MethodSource("crowdedCases")
  void screening_many_offerings_of_one_shape_gives_the_reference_recommendation(Case c) {
    // WHEN the same settings are sized both ways, on a catalog of many offerings per shape with price ties
    Recommendation fast = SizingEngine.recommend(c.settings());
    Recommendation reference = SizingEngine.reference(c.settings());

    // THEN the recommendations are equal
    assertThat(fast.rejected()).isEqualTo(reference.rejected());
    assertThat(fast.paretoFront()).isEqualTo(reference.paretoFront());
    assertThat(fast).isEqualTo(reference);
  }

  @Test
  void generated_cases_cover_feasible_and_infeasible_sizings_on_both_catalogs() {
    // GIVEN the generated cases, WHEN sized
    List<Case> all = cases().toList();
    List<Recommendation> recs = all.stream().map(c -> SizingEngine.recommend(c.settings())).toList();

    // THEN the comparison above is exercised on options, rejections and suggestions, not on empty results
    assertThat(all).hasSizeGreaterThan(CASES * 2 / 3);
    assertThat(all).anyMatch(c -> c.settings().catalog() == SYNTHETIC)
        .anyMatch(c -> c.settings().catalog() == Catalog.bundled());
    assertThat(recs.stream().filter(Recommendation::isFeasible).count()).isGreaterThan(all.size() / 3);
    assertThat(recs).anyMatch(r -> r.suggestion().isPresent()).anyMatch(r -> r.options().size() > 10)
        .anyMatch(r -> !r.rejected().isEmpty());
    // AND some feasible cases set a floor on the GPUs in all
    assertThat(all.stream().filter(c -> c.settings().minGpus() > 1)
        .filter(c -> SizingEngine.recommend(c.settings()).isFeasible()).count()).isGreaterThanOrEqualTo(2);
  }

  /** CHEAPEST, no budget, one run, the default costs and fixed costs: the settings the cases below vary. */
  private static Settings cheapest(Task task, Catalog catalog, Duration deadline, int maxGpus,
      Set<PricingMode> pricing) {
    return settings(task, catalog, deadline, Optional.empty(), maxGpus, pricing, Objective.CHEAPEST, false);
  }

  /** One run, the default costs (no spot interruptions) and fixed costs, and the rest as given. */
  private static Settings settings(Task task, Catalog catalog, Duration deadline, Optional<Money> budget,
      int maxGpus, Set<PricingMode> pricing, Objective objective, boolean exhaustive) {
    return settings(task, catalog, deadline, budget, maxGpus, pricing, objective, exhaustive, FixedCosts.defaults());
  }

  private static Settings settings(Task task, Catalog catalog, Duration deadline, Optional<Money> budget,
      int maxGpus, Set<PricingMode> pricing, Objective objective, boolean exhaustive, FixedCosts fixed) {
    CostModel costs = CostModel.defaults();
    return new Settings(task, catalog, deadline, budget, maxGpus, maxGpus, 1, ImmutableSet.of(), ImmutableSet.of(),
        ImmutableSet.of(), ImmutableSet.copyOf(pricing), 0, DataSize.ZERO, objective, 1.5, USD, costs.exchangeRates(),
        Optional.empty(), 1, Estimator.defaults(), new CostStep(costs, Optional.empty()), fixed, exhaustive, false);
  }

  @Test
  void a_bounded_screen_that_passes_over_nothing_says_why_each_offering_that_fits_nowhere_was_rejected() {
    // GIVEN LoRA of Llama-3-70B at sequence 4096 on AIStudio's four A100-40GB machines: only the 8-GPU one fits,
    // and it is also the cheapest, so CHEAPEST's bounded screen takes every offering and passes over none
    Settings settings = cheapest(Task.lora(Presets.get("llama-3-70b"), 8).tokens(20e6).sequenceLength(4096).build(),
        Fixtures.of(Fixtures.AISTUDIO_A100_1, Fixtures.AISTUDIO_A100_2, Fixtures.AISTUDIO_A100_4,
            Fixtures.AISTUDIO_A100_8), Duration.ofHours(24), 64, Set.of(PricingMode.ON_DEMAND));
    assertThat(new Pass(settings, new LayoutSearch(settings)).screen(true).complete()).isTrue();
    // WHEN recommended
    Recommendation fast = SizingEngine.recommend(settings);
    // THEN the three smaller machines are rejected for memory, with the reference's reasons (the bounded screen
    // left them without one: "no number of instances within the limits was tried")
    assertThat(fast.options()).hasSize(1);
    assertThat(fast.rejected()).hasSize(3).allSatisfy(r -> assertThat(r.kind()).isEqualTo(Rejection.Kind.MEMORY));
    assertThat(fast).isEqualTo(SizingEngine.reference(settings));
  }

  @Test
  void the_bounded_screen_passes_over_offerings_and_keeps_the_best_option() {
    // GIVEN the README's task (LoRA of Llama-2-7B on 50 M tokens) with the defaults, on the bundled catalog
    Settings settings = cheapest(Task.lora(Presets.get("llama-2-7b"), 8).tokens(50e6).build(), Catalog.bundled(),
        Duration.ofHours(24), 64, Set.of(PricingMode.ON_DEMAND));
    // WHEN CHEAPEST's bounded screen runs
    Found bounded = new Pass(settings, new LayoutSearch(settings)).screen(true);
    // THEN it passes over offerings that cannot cost less (so the cases above exercise the bound), it holds fewer
    // candidates than the complete screen, and the best option is the reference's, first of the reference's list
    assertThat(bounded.complete()).isFalse();
    assertThat(bounded.fitting().size())
        .isLessThan(new Pass(settings, new LayoutSearch(settings)).screen(false).fitting().size());
    assertThat(SizingEngine.recommend(settings).bestOrThrow())
        .isEqualTo(SizingEngine.reference(settings).options().get(0));
  }

  @Test
  void an_infeasible_sizing_without_a_budget_reports_the_references_fastest_attempts() {
    // GIVEN a pre-training no offering finishes in time: Llama-2-7B on 1 T tokens in 24 h on at most 256 GPUs
    Settings settings = cheapest(Task.pretraining(Presets.get("llama-2-7b")).tokens(1e12).build(), Catalog.bundled(),
        Duration.ofHours(24), 256, Set.of(PricingMode.ON_DEMAND));
    // WHEN the bounded screen runs, THEN it finds nothing and leaves counts out (so the pass after it places only
    // the counts that can be each offering's fastest)
    Found bounded = new Pass(settings, new LayoutSearch(settings)).screen(true);
    assertThat(bounded.fitting()).isEmpty();
    assertThat(bounded.complete()).isFalse();
    // (and the least wall time of every offering at 256 GPUs is past the deadline: the recommendation skips the
    // screen altogether)
    assertThat(new Pass(settings, new LayoutSearch(settings)).deadlineOutOfReach()).isTrue();
    // AND the recommendation is the reference's: the same rejections with the same reasons, the same suggestion
    Recommendation fast = SizingEngine.recommend(settings);
    Recommendation reference = SizingEngine.reference(settings);
    assertThat(fast.isFeasible()).isFalse();
    assertThat(fast.rejected()).isEqualTo(reference.rejected());
    assertThat(fast.suggestion()).isEqualTo(reference.suggestion());
    assertThat(fast).isEqualTo(reference);
  }

  /**
   * Pairs of offerings of one shape whose prices order the other way in each pricing mode (one dear on demand and
   * cheap as spot, the other the reverse): a bounded screen takes the first by its cheapest mode, and must not size
   * the other's cheap mode with the counts the first's dear price allowed.
   */
  private static final Catalog CROSSED = crossed();

  private static Catalog crossed() {
    Catalog base = SyntheticCatalogs.catalog(40, SyntheticCatalogs.SEED + 2);
    List<io.github.gpusizer.catalog.Offering> out = new ArrayList<>();
    int k = 0;
    for (io.github.gpusizer.catalog.Offering o : base.offerings()) {
      if (o.spotPerHour().isEmpty()) {
        continue;
      }
      for (String[] f : new String[][] {{"100", "0.9"}, {"1", "50"}}) {
        out.add(repriced(o, o.region() + "-" + k++, new BigDecimal(f[0]), new BigDecimal(f[1]), BigDecimal.ONE));
      }
    }
    return base.withOfferings(out);
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {360, 75, 30})
  void offerings_whose_prices_cross_between_modes_give_the_reference_recommendation(int deadlineMinutes) {
    // GIVEN CHEAPEST over on-demand and spot on the crossed catalog
    Settings settings = cheapest(Task.lora(Presets.get("gpt2"), 8).tokens(2e10).build(), CROSSED,
        Duration.ofMinutes(deadlineMinutes), 64, Set.of(PricingMode.ON_DEMAND, PricingMode.SPOT));
    // WHEN sized both ways, THEN the best option and every list are the reference's
    Recommendation fast = SizingEngine.recommend(settings);
    Recommendation reference = SizingEngine.reference(settings);
    assertThat(fast.best()).isEqualTo(reference.best());
    assertThat(fast).isEqualTo(reference);
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {75, 30})
  void a_budget_beyond_the_limits_on_offerings_of_one_shape_gives_the_references_suggestion(int deadlineMinutes) {
    // GIVEN the crowded catalog (each shape sold at several prices), at most 2 GPUs, and a budget that the
    // cheapest option beyond the limits meets and its dearer copies do not
    Task task = Task.lora(Presets.get("gpt2"), 8).tokens(2e10).build();
    Duration deadline = Duration.ofMinutes(deadlineMinutes);
    Settings wide = cheapest(task, CROWDED, deadline, 64, Set.of(PricingMode.ON_DEMAND));
    Option cheapestBeyond = SizingEngine.reference(wide).options().stream()
        .filter(o -> o.cost().amount().signum() > 0 && o.gpus() > 2).findFirst().orElseThrow();
    Settings settings = settings(task, CROWDED, deadline, Optional.of(cheapestBeyond.cost()), 2,
        Set.of(PricingMode.ON_DEMAND), Objective.CHEAPEST, false);
    // WHEN sized both ways
    Recommendation fast = SizingEngine.recommend(settings);
    Recommendation reference = SizingEngine.reference(settings);
    // THEN nothing is feasible within the limits, more GPUs are suggested, and the suggestion is the reference's
    // (the budget, not only the shape, decides how many instances each offering needs)
    assertThat(reference.isFeasible()).isFalse();
    assertThat(reference.suggestion().orElseThrow().gpus()).isPresent();
    assertThat(fast.suggestion()).isEqualTo(reference.suggestion());
    assertThat(fast).isEqualTo(reference);
  }

  /** Each synthetic offering sold again under every billing unit (per second, minute, hour), at its own prices. */
  private static Catalog rebilled() {
    Catalog base = SyntheticCatalogs.catalog(30, SyntheticCatalogs.SEED + 3);
    List<io.github.gpusizer.catalog.Offering> out = new ArrayList<>();
    int k = 0;
    for (io.github.gpusizer.catalog.Offering o : base.offerings()) {
      for (io.github.gpusizer.catalog.BillingMode billing : io.github.gpusizer.catalog.BillingMode.values()) {
        out.add(new io.github.gpusizer.catalog.Offering(o.provider(), o.instanceType(), o.region() + "-" + k++,
            o.gpu(), o.gpuCount(), o.vcpus(), o.ram(), o.localDisk(), o.onDemandPerHour(), o.spotPerHour(), billing,
            o.monthly(), o.yearly(), o.networkGbps(), o.fabric(), o.priceDate(), o.source()));
      }
    }
    return base.withOfferings(out);
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {360, 75, 20})
  void offerings_of_one_shape_billed_by_other_units_give_the_reference_recommendation(int deadlineMinutes) {
    // GIVEN offerings alike but for the billing unit, whose rounding decides where a count is billed a unit less
    Catalog catalog = rebilled();
    for (Objective objective : Objective.values()) {
      Settings settings = rebilledSettings(catalog, deadlineMinutes, objective, false);
      // WHEN sized both ways, THEN the recommendations are equal
      Recommendation fast = SizingEngine.recommend(settings);
      Recommendation reference = SizingEngine.reference(settings);
      assertThat(fast.options()).as("%s", objective).isEqualTo(reference.options());
      assertThat(fast).as("%s", objective).isEqualTo(reference);
    }
    // AND CHEAPEST's choice for each offering costs what every count's would, within the tie: the ladder holds the
    // counts where each billing unit rounds one unit less (a count search shared across billing units would not)
    Settings ladder = rebilledSettings(catalog, deadlineMinutes, Objective.CHEAPEST, false);
    Map<io.github.gpusizer.catalog.Offering, Money> every = new HashMap<>();
    for (Option o : SizingEngine.recommend(rebilledSettings(catalog, deadlineMinutes, Objective.CHEAPEST, true))
        .options()) {
      every.put(o.offering(), o.cost());
    }
    List<Option> chosen = SizingEngine.recommend(ladder).options();
    assertThat(chosen).hasSameSizeAs(every.keySet()).isNotEmpty();
    for (Option o : chosen) {
      assertThat(o.cost().amount().doubleValue()).as("%s", o)
          .isLessThanOrEqualTo(every.get(o.offering()).amount().doubleValue() * (1 + TieRule.COST_TIE));
    }
  }

  /** QLoRA of T5-base on 2 G tokens over the re-billed catalog, at most 16 GPUs, on demand. */
  private static Settings rebilledSettings(Catalog catalog, int deadlineMinutes, Objective objective,
      boolean exhaustive) {
    return settings(Task.qlora(Presets.get("t5-base"), 8).tokens(2e9).build(), catalog,
        Duration.ofMinutes(deadlineMinutes), Optional.empty(), 16, Set.of(PricingMode.ON_DEMAND), objective,
        exhaustive);
  }

  @Test
  void hardware_that_may_not_fit_is_rejected_or_ranked_alike_on_both_paths() {
    // GIVEN QLoRA of Llama-3-70B on the bundled catalog, where AIStudio's 2 x A100-40GB fits only nominally
    Task qlora = Task.qlora(Presets.get("llama-3-70b"), 8).tokens(20e6).build();
    for (boolean tight : new boolean[] {false, true}) {
      Settings base = cheapest(qlora, Catalog.bundled(), Duration.ofHours(24), 16, Set.of(PricingMode.ON_DEMAND));
      CostModel costs = CostModel.defaults();
      Settings settings = new Settings(qlora, base.catalog(), base.deadline(), base.budget(), 16, 16, 1,
          ImmutableSet.of(), ImmutableSet.of(), ImmutableSet.of(), base.pricing(), 0, DataSize.ZERO,
          Objective.CHEAPEST, 1.5, USD, costs.exchangeRates(), Optional.empty(), 1, Estimator.defaults(),
          new CostStep(costs, Optional.empty()), FixedCosts.defaults(), false, tight);
      // WHEN sized both ways, THEN every list is the reference's: the rejection with its reason, or the option
      Recommendation fast = SizingEngine.recommend(settings);
      Recommendation reference = SizingEngine.reference(settings);
      assertThat(fast.rejected()).as("tight %s", tight).isEqualTo(reference.rejected());
      assertThat(fast).as("tight %s", tight).isEqualTo(reference);
      assertThat(reference.rejected().stream().anyMatch(r -> r.reason().startsWith("may not fit")))
          .as("tight %s", tight).isEqualTo(!tight);
    }
  }

  @Test
  void an_infeasible_pipelined_pre_training_reports_the_references_fastest_attempts() {
    // GIVEN a pre-training that needs pipeline stages and that nothing finishes in time: Llama-3-70B on 1 T tokens in
    // 24 h on at most 2,048 GPUs (its recipe changes between rungs of the ladder, where the fastest count may lie)
    Settings settings = cheapest(Task.pretraining(Presets.get("llama-3-70b")).tokens(1e12).build(), Catalog.bundled(),
        Duration.ofHours(24), 2048, Set.of(PricingMode.ON_DEMAND));
    // WHEN sized both ways, THEN each offering's fastest attempt, the suggestion and every list are the reference's
    Recommendation fast = SizingEngine.recommend(settings);
    Recommendation reference = SizingEngine.reference(settings);
    assertThat(reference.isFeasible()).isFalse();
    assertThat(fast.rejected()).isEqualTo(reference.rejected());
    assertThat(fast).isEqualTo(reference);
  }

  @Test
  void a_dearer_copy_of_an_offering_stays_off_the_pareto_front() {
    // GIVEN the bundled catalog and a copy of Azure's Standard_NC4as_T4_v3 in another region at 1.43x its price:
    // the screen keeps of the copy only the counts its choices need, while the original has all of them
    Catalog bundled = Catalog.bundled();
    List<io.github.gpusizer.catalog.Offering> offerings = new ArrayList<>(bundled.offerings());
    io.github.gpusizer.catalog.Offering t4 = offerings.stream()
        .filter(o -> o.instanceType().equals("Standard_NC4as_T4_v3")).findFirst().orElseThrow();
    BigDecimal dearer = new BigDecimal("1.43");
    offerings.add(repriced(t4, "westus", dearer, dearer, dearer));
    Catalog catalog = bundled.withOfferings(offerings);
    Task task = Task.qlora(Presets.get("gpt2"), 16).tokens(2e6).microBatch(1).sequenceLength(1024).build();
    for (Objective objective : Objective.values()) {
      Settings settings = settings(task, catalog, Duration.ofHours(49), Optional.empty(), 16,
          Set.of(PricingMode.ON_DEMAND), objective, false, FixedCosts.none());
      // WHEN sized both ways, THEN the fronts are the reference's, and the copy (dearer at every count) is on neither
      Recommendation fast = SizingEngine.recommend(settings);
      Recommendation reference = SizingEngine.reference(settings);
      assertThat(fast.paretoFront()).as("%s", objective).isEqualTo(reference.paretoFront());
      assertThat(fast.paretoFront()).noneMatch(o -> o.offering().region().equals("westus"));
      assertThat(fast).as("%s", objective).isEqualTo(reference);
    }
  }
  @Test
  void a_cheaper_host_that_stages_the_data_set_does_not_hide_a_dearer_one_that_does_not() {
    // GIVEN two offerings of one class (provider, GPU, GPUs per instance, currency): the cheaper by 2 % has too
    // little RAM for the 2 TiB data set, which it stages to disk at start-up; the other holds it in RAM
    io.github.gpusizer.catalog.Offering t4 = Catalog.bundled().offerings().stream()
        .filter(o -> o.instanceType().equals("Standard_NC4as_T4_v3")).findFirst().orElseThrow();
    io.github.gpusizer.catalog.Offering small = repriced(t4, "eastus", BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE);
    io.github.gpusizer.catalog.Offering large = new io.github.gpusizer.catalog.Offering(t4.provider(),
        "Standard_NC4as_T4_v3_bigram", "westus", t4.gpu(), t4.gpuCount(), t4.vcpus(), DataSize.ofGiB(4096),
        t4.localDisk(), t4.onDemandPerHour().times(new BigDecimal("1.02")), Optional.empty(), t4.billing(),
        Optional.empty(), Optional.empty(), t4.networkGbps(), t4.fabric(), t4.priceDate(), t4.source());
    Catalog catalog = Catalog.bundled().withOfferings(List.of(small, large));
    Task task = Task.qlora(Presets.get("gpt2"), 16).tokens(2e6).datasetSize(DataSize.ofGiB(2048)).build();
    Settings settings = cheapest(task, catalog, Duration.ofHours(49), 4, Set.of(PricingMode.ON_DEMAND));
    // WHEN sized both ways, THEN the best option is the host that does not stage, as the reference has it
    Recommendation fast = SizingEngine.recommend(settings);
    assertThat(fast.bestOrThrow().offering()).isEqualTo(large);
    assertThat(fast).isEqualTo(SizingEngine.reference(settings));
  }
}
