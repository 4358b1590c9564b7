package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.testing.NullPointerTester;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.UnknownGpuException;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.cost.ExchangeRates;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The builder contract: validate at once, set once, cross-field rules in recommend(), which may be repeated. */
class GpuSizerBuilderTest {

  private static Sizer sizer() {
    return GpuSizer.forTask(Fixtures.gpt2(1e9)).catalog(Fixtures.aws());
  }

  @Test
  void rejects_a_deadline_given_twice_naming_the_earlier_value() {
    // GIVEN a sizer with a deadline
    Sizer s = sizer().deadline(Duration.ofHours(12));
    // WHEN it is given again THEN the error names the setting and the earlier value
    assertThatThrownBy(() -> s.deadline(Duration.ofHours(6)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("deadline was already set to PT12H");
  }

  @Test
  void rejects_every_setting_given_twice() {
    assertThatThrownBy(() -> sizer().catalog(Fixtures.aws())).hasMessageContaining("catalog was already set");
    assertThatThrownBy(() -> sizer().budget(Money.of("10", "USD")).budget(Money.of("20", "USD")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("budget was already set to 10 USD");
    assertThatThrownBy(() -> sizer().maxGpus(8).maxGpus(16)).hasMessageContaining("maxGpus was already set to 8");
    assertThatThrownBy(() -> sizer().maxNodes(2).maxNodes(4)).hasMessageContaining("maxNodes was already set to 2");
    assertThatThrownBy(() -> sizer().providers("aws").providers("gcp"))
        .hasMessageContaining("providers was already set to [aws]");
    assertThatThrownBy(() -> sizer().regions("us-east-1").regions("eu-west-1"))
        .hasMessageContaining("regions was already set to [us-east-1]");
    assertThatThrownBy(() -> sizer().gpuModels("t4").gpuModels("h100"))
        .hasMessageContaining("gpuModels was already set to [t4]");
    assertThatThrownBy(() -> sizer().allowSpot().pricing(PricingMode.MONTHLY))
        .hasMessageContaining("pricing was already set to [ON_DEMAND, SPOT]");
    assertThatThrownBy(() -> sizer().minHeadroom(0.1).minHeadroom(DataSize.ofGiB(2)))
        .hasMessageContaining("minHeadroom was already set to 0.1");
    assertThatThrownBy(() -> sizer().objective(Objective.FASTEST).objective(Objective.CHEAPEST))
        .hasMessageContaining("objective was already set to FASTEST");
    assertThatThrownBy(() -> sizer().bestValueFactor(2).bestValueFactor(3))
        .hasMessageContaining("bestValueFactor was already set to 2.0");
    assertThatThrownBy(() -> sizer().currency("CNY").currency("USD"))
        .hasMessageContaining("currency was already set to CNY");
    assertThatThrownBy(() -> sizer().cudaVersion("11.8").cudaVersion("12.1"))
        .hasMessageContaining("cudaVersion was already set to 11.8");
    assertThatThrownBy(() -> sizer().runs(2).runs(3)).hasMessageContaining("runs was already set to 2");
    assertThatThrownBy(() -> sizer().costModel(CostModel.defaults()).costModel(CostModel.defaults()))
        .hasMessageContaining("costModel was already set");
    assertThatThrownBy(() -> sizer().exchangeRates(ExchangeRates.empty()).exchangeRates(ExchangeRates.bundled()))
        .hasMessageContaining("exchangeRates was already set");
  }

  @Test
  void rejects_bad_values_at_once_naming_setting_rule_and_value() {
    assertThatThrownBy(() -> sizer().deadline(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("deadline must be > 0, was PT0S");
    assertThatThrownBy(() -> sizer().deadline(Duration.ofHours(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("deadline must be > 0, was PT-1H");
    assertThatThrownBy(() -> sizer().budget(Money.of("0", "USD")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("budget must be > 0, was 0 USD");
    assertThatThrownBy(() -> sizer().maxGpus(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxGpus must be >= 1, was 0");
    assertThatThrownBy(() -> sizer().maxNodes(-2))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxNodes must be >= 1, was -2");
    assertThatThrownBy(() -> sizer().minHeadroom(1.0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("minHeadroom must be a fraction in [0, 1), was 1.0");
    assertThatThrownBy(() -> sizer().minHeadroom(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was NaN");
    assertThatThrownBy(() -> sizer().bestValueFactor(0.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("bestValueFactor must be >= 1, was 0.5");
    assertThatThrownBy(() -> sizer().bestValueFactor(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was Infinity");
    assertThatThrownBy(() -> sizer().currency("XYZ1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ISO 4217").hasMessageContaining("XYZ1");
    assertThatThrownBy(() -> sizer().cudaVersion("twelve"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'twelve'");
    assertThatThrownBy(() -> sizer().runs(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("runs must be in 1..100,000, was 0");
    assertThatThrownBy(() -> sizer().providers())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("providers needs at least one name");
    assertThatThrownBy(() -> sizer().regions("us-east-1", " "))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("regions must not contain blank names");
  }

  @Test
  void a_failed_setter_leaves_the_setting_unset() {
    Sizer s = sizer();
    assertThatThrownBy(() -> s.maxGpus(0)).isInstanceOf(IllegalArgumentException.class);
    s.maxGpus(8); // allowed: the bad value was never stored
    assertThatThrownBy(() -> s.maxGpus(4)).hasMessageContaining("was already set to 8");
  }

  @Test
  void rejects_a_task_without_an_amount_of_work() {
    Task noWork = Task.pretraining(Fixtures.GPT2).build();
    assertThatThrownBy(() -> GpuSizer.forTask(noWork))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task must give its amount of work as tokens or samples");
  }

  @Test
  void rejects_a_best_value_factor_without_the_best_value_objective_in_recommend() {
    // GIVEN a factor with the default objective: each setter alone is fine
    Sizer s = sizer().bestValueFactor(2);
    // WHEN recommending THEN the contradiction is reported
    assertThatThrownBy(s::recommend)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("bestValueFactor applies only to Objective.BEST_VALUE; the objective is CHEAPEST");
  }

  @Test
  void rejects_a_budget_in_a_currency_with_no_rate_to_the_ranking_currency() {
    Sizer s = sizer().budget(Money.of("2000", "CNY")).currency("USD").exchangeRates(ExchangeRates.empty());
    assertThatThrownBy(s::recommend)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("budget is in CNY but costs are ranked in USD");
  }

  @Test
  void rejects_spot_interruptions_without_spot_pricing_in_recommend() {
    Sizer s = sizer().spotInterruptions(Interruptions.of(0.05, Duration.ofMinutes(30), Duration.ofMinutes(5)));
    assertThatThrownBy(s::recommend)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("spotInterruptions apply only when spot is allowed; pricing is [ON_DEMAND]");
  }

  @Test
  void rejects_unknown_providers_regions_and_gpu_models_naming_the_known_ones() {
    assertThatThrownBy(() -> sizer().providers("asw").recommend())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("provider 'asw' is not in the catalog; it has [aws]");
    assertThatThrownBy(() -> sizer().regions("mars-1").recommend())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("region 'mars-1' is not in the catalog; it has [us-east-1]");
    assertThatThrownBy(() -> sizer().gpuModels("a100-sxm4-80g").recommend())
        .isInstanceOf(UnknownGpuException.class)
        .hasMessageContaining("'a100-sxm4-80g'").hasMessageContaining("a100-sxm4-80gb");
  }

  @Test
  void recommend_leaves_the_builder_unchanged_and_may_be_called_again() {
    Sizer s = sizer().deadline(Duration.ofHours(48));
    Recommendation first = s.recommend();
    Recommendation second = s.recommend();
    assertThat(second).isEqualTo(first);
    assertThatThrownBy(() -> s.deadline(Duration.ofHours(1))).hasMessageContaining("PT48H");
  }

  @Test
  void public_entry_points_reject_nulls() {
    NullPointerTester npe = new NullPointerTester()
        .setDefault(io.github.gpusizer.core.task.Task.class, Fixtures.gpt2(1e9))
        .setDefault(io.github.gpusizer.core.estimate.Hardware.class,
            io.github.gpusizer.core.estimate.Hardware.single(Fixtures.H100))
        .setDefault(io.github.gpusizer.core.task.Layout.class, io.github.gpusizer.core.task.Layout.single())
        .setDefault(io.github.gpusizer.core.estimate.Estimator.class,
            io.github.gpusizer.core.estimate.Estimator.defaults());
    npe.testAllPublicStaticMethods(GpuSizer.class);
    npe.testAllPublicInstanceMethods(sizer());
  }
}
