package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.cost.SpotInterruptionRates;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.FixedCosts;
import io.github.gpusizer.core.estimate.Warning;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Task;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.Currency;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Spot is priced with each provider's sourced default interruption rate unless the caller says otherwise (#15). */
class SpotDefaultRatesTest {
  private static final Task LLAMA_FT = Fixtures.llamaFineTune(200e6);

  private static Offering spot(String provider) {
    return Fixtures.offering(provider, "a100x8", "r1", Fixtures.A100_80, 8, "20", "USD", BillingMode.PER_SECOND,
        Optional.of("6"), Optional.empty());
  }

  private static Option best(Sizer sizer) {
    return sizer.maxGpus(8).pricing(PricingMode.SPOT).recommend().bestOrThrow();
  }

  @Test
  void aws_spot_without_a_stated_rate_carries_the_default_interruptions_in_time_cost_and_rationale() {
    // GIVEN an AWS spot offering and no interruption model from the caller
    Option never = best(GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(spot("aws")))
        .spotInterruptions(Interruptions.never()));
    Option byDefault = best(GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(spot("aws"))));

    // THEN the run takes longer and costs more than if never interrupted, and says why
    assertThat(byDefault.wallTime()).isGreaterThan(never.wallTime());
    assertThat(byDefault.cost()).isGreaterThan(never.cost());
    assertThat(byDefault.warnings()).filteredOn(w -> w.code().equals("spot-interruptions")).singleElement()
        .satisfies(w -> {
          assertThat(w.message()).contains("aws's default rate", "Spot Instance Advisor",
              "Young's optimum for that rate", "restart");
          assertThat(w.fix()).isPresent();
        });
    assertThat(byDefault.rationale()).contains("spot interruptions expected");
    assertThat(byDefault.warnings()).extracting(Warning::code).doesNotContain("spot-uninterrupted");
  }

  @Test
  void the_expected_extra_time_follows_the_default_rate_checkpoint_and_restart() {
    // GIVEN the caller's checkpoint interval: 30 min, so each interruption loses 15 min plus a 45 s restart
    FixedCosts fixed = FixedCosts.defaults().withCheckpointInterval(Duration.ofMinutes(30));
    Option never = best(GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(spot("gcp"))).fixedCosts(fixed)
        .spotInterruptions(Interruptions.never()));
    Option o = best(GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(spot("gcp"))).fixedCosts(fixed));

    // THEN wall = work / (1 - n x lambda x (c/2 + R)) with GCP's one preemption per 24 h per instance
    double lambda = o.instances() / 24.0;
    double lost = lambda * (0.25 + 45 / 3600.0);
    double expected = never.wallTime().toNanos() / 1e9 / (1 - lost);
    assertThat(o.instances()).isEqualTo(never.instances());
    assertThat(o.wallTime().toNanos() / 1e9).isCloseTo(expected, org.assertj.core.data.Offset.offset(1.0));
    assertThat(o.warnings()).filteredOn(w -> w.code().equals("spot-interruptions")).singleElement()
        .satisfies(w -> assertThat(w.message()).contains("every 30 min)").doesNotContain("Young"));
  }

  @Test
  void without_an_interval_from_the_caller_checkpoints_come_every_youngs_optimum_for_the_providers_rate() {
    // GIVEN AWS's default rate, and the checkpoint of the fine-tune written at the default storage rate
    Option o = best(GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(spot("aws"))));
    double perHour = SpotInterruptionRates.bundled().rate("aws").orElseThrow().perHour();
    Duration write = FixedCosts.defaults().checkpointWrite(
        Estimator.defaults().checkpointSize(LLAMA_FT, Fixtures.A100_80), 1);

    // THEN the interval is sqrt(2 x write x MTBF) (Young 1974), as the warning says
    Duration young = Interruptions.youngInterval(write, perHour);
    assertThat(young).isBetween(Duration.ofHours(1), Duration.ofDays(30));
    assertThat(o.warnings()).filteredOn(w -> w.code().equals("spot-interruptions")).singleElement()
        .satisfies(w -> assertThat(w.message()).contains("every " + Texts.hoursMinutes(young)
            + ", Young's optimum for that rate"));
  }

  @Test
  void interruptions_never_prices_spot_at_the_spot_rate_for_the_uninterrupted_time() {
    Option o = best(GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(spot("aws")))
        .spotInterruptions(Interruptions.never()));
    assertThat(o.cost().amount()).isEqualByComparingTo(new BigDecimal(6 * o.instances())
        .multiply(BigDecimal.valueOf(o.billedTime().getSeconds())).divide(BigDecimal.valueOf(3600),
            MathContext.DECIMAL128));
  }

  @Test
  void a_provider_without_a_default_is_priced_as_never_interrupted_and_warned_about() {
    Option o = best(GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(spot("vast"))));
    assertThat(o.warnings()).filteredOn(w -> w.code().equals("spot-uninterrupted")).singleElement()
        .satisfies(w -> assertThat(w.message()).contains("vast has no default interruption rate"));
    assertThat(o.rationale()).doesNotContain("interruptions expected");
  }

  @Test
  void the_callers_rates_replace_the_bundled_defaults() {
    Option o = best(GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(spot("vast")))
        .spotInterruptionRates(SpotInterruptionRates.bundled()
            .with("vast", new SpotInterruptionRates.Rate(0.02, "measured on our fleet"))));
    assertThat(o.warnings()).filteredOn(w -> w.code().equals("spot-interruptions")).singleElement()
        .satisfies(w -> assertThat(w.message()).contains("vast's default rate of 0.020", "measured on our fleet"));
  }

  @Test
  void screening_prices_default_interruptions_per_provider_as_the_reference_does() {
    // GIVEN the bundled catalog with spot allowed: AWS, GCP and Azure spot rows each get their provider's rate
    Task task = Task.lora(Presets.get("llama-2-7b"), 8).tokens(5e7).microBatch(1).globalBatch(128)
        .sequenceLength(1024).build();
    for (Objective objective : Objective.values()) {
      CostModel costs = CostModel.defaults();
      Settings settings = new Settings(task, Catalog.bundled(), Duration.ofHours(24), Optional.empty(), 16, 16, 1,
          ImmutableSet.of(), ImmutableSet.of(), ImmutableSet.of(),
          ImmutableSet.of(PricingMode.ON_DEMAND, PricingMode.SPOT), 0, DataSize.ZERO, objective, 1.5,
          Currency.getInstance("USD"), costs.exchangeRates(), Optional.empty(), 1, Estimator.defaults(),
          new CostStep(costs, Optional.empty(), Optional.of(CostStep.SpotDefaults.of(SpotInterruptionRates.bundled(),
              FixedCosts.defaults(), () -> Duration.ofMinutes(2))), Optional.empty()),
          FixedCosts.defaults(), false, false);

      // WHEN sized by the fast path and by the reference
      Recommendation fast = SizingEngine.recommend(settings);
      Recommendation reference = SizingEngine.reference(settings);

      // THEN they agree, and some spot option carries interruptions
      assertThat(fast).as("%s", objective).isEqualTo(reference);
      assertThat(reference.options()).as("%s", objective)
          .anySatisfy(op -> assertThat(op.rationale()).contains("spot interruptions expected"));
    }
  }
}
