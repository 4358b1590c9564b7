package io.github.gpusizer.core.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.WeightQuantization;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServingSizerTest {
  /** USD offerings of AWS and Lambda: L4, L40S, A10G, A100 and H100 nodes. */
  static final Catalog USD = Catalog.bundled().withOfferings(Catalog.bundled().offerings().stream()
      .filter(o -> o.provider().equals("aws") || o.provider().equals("lambda")).toList());

  private static ServingTask.Builder llama70b() {
    return ServingTask.builder(Presets.get("llama-2-70b")).requestsPerSecond(5).promptTokens(1000)
        .outputTokens(200);
  }

  @Test
  void finds_a_plan_for_the_issues_llama_70b_example_that_meets_its_targets() {
    ServingTask task = llama70b().ttft(Duration.ofSeconds(2)).tpot(Duration.ofMillis(100)).build();

    ServingRecommendation rec = ServingSizer.forTask(task).catalog(USD).recommend();

    assertThat(rec.feasible()).isTrue();
    ServingPlan best = rec.best().orElseThrow();
    assertThat(best.ttftP95()).isLessThanOrEqualTo(Duration.ofSeconds(2));
    assertThat(best.tpotP95()).isLessThanOrEqualTo(Duration.ofMillis(100));
    assertThat(best.gpuCount() * best.gpu().memory().bytes()).isGreaterThan(2L * 69_000_000_000L);
    assertThat(best.rationale()).startsWith("cheapest of");
    assertThat(rec.options()).isSortedAccordingTo((a, b) -> a.costPerHour().compareTo(b.costPerHour()));
  }

  @Test
  void gives_each_rejection_the_number_the_target_misses_and_the_hardware() {
    ServingTask task = llama70b().tpot(Duration.ofMillis(30)).build();

    ServingRecommendation rec = ServingSizer.forTask(task).catalog(USD).recommend();

    assertThat(rec.rejected()).anySatisfy(r -> assertThat(r.reason())
        .matches("TPOT p95 \\d+ ms > 30 ms at batch \\d+ on \\d+× .*"));
  }

  @Test
  void suggests_the_loosest_reachable_targets_when_none_is_met() {
    ServingTask task = llama70b().tpot(Duration.ofMillis(1)).build();

    ServingRecommendation rec = ServingSizer.forTask(task).catalog(USD).recommend();

    assertThat(rec.feasible()).isFalse();
    assertThat(rec.suggestion()).hasValueSatisfying(s -> assertThat(s).contains("lowest reached"));
  }

  @Test
  void suggests_the_traffic_the_gpu_bound_carries_when_it_is_too_small() {
    ServingTask task = ServingTask.builder(Presets.get("llama-2-70b")).requestsPerSecond(2000).promptTokens(1000)
        .outputTokens(200).ttft(Duration.ofSeconds(5)).build();

    ServingRecommendation rec = ServingSizer.forTask(task).catalog(USD).maxGpus(8).recommend();

    assertThat(rec.feasible()).isFalse();
    assertThat(rec.suggestion()).hasValueSatisfying(s -> assertThat(s).contains("within 8 GPUs"));
  }

  @Test
  void charges_cost_per_million_output_tokens_as_cost_per_hour_over_tokens_per_hour() {
    ServingTask task = llama70b().build();

    ServingPlan best = ServingSizer.forTask(task).catalog(USD).recommend().best().orElseThrow();

    BigDecimal tokensPerHour = BigDecimal.valueOf(5.0 * 200 * 3600);
    BigDecimal expected = best.costPerHour().amount().multiply(BigDecimal.valueOf(1_000_000))
        .divide(tokensPerHour, MathContext.DECIMAL64);
    assertThat(best.costPerMillionOutputTokens().amount().doubleValue())
        .isCloseTo(expected.doubleValue(), within(1e-9 * expected.doubleValue()));
  }

  @Test
  void never_decodes_faster_than_reading_the_weights_once_per_token() {
    Transformer model = (Transformer) Presets.get("llama-2-7b");
    ServingTask task = ServingTask.builder(model).requestsPerSecond(0.01).promptTokens(100).outputTokens(100)
        .build();
    Catalog catalog = USD;

    for (ServingPlan plan : ServingSizer.forTask(task).catalog(catalog).recommend().options()) {
      double weightsPerGpu = plan.memoryPerGpu().weights().bytes();
      double floor = weightsPerGpu / (plan.gpu().memoryBandwidthGBps() * 1e9);
      assertThat(plan.tpotP50().toNanos() / 1e9).isGreaterThanOrEqualTo(floor);
    }
  }

  @Test
  void an_fp8_kv_cache_holds_twice_the_tokens_of_a_bf16_one() {
    ServingTask bf16 = llama70b().build();
    ServingTask fp8 = llama70b().kvCache(Precision.FP8).build();
    var h100 = Catalog.bundled().gpu("h100-sxm");

    long bf16Tokens = ReplicaModel.of(bf16, h100, 4, Estimator.defaults()).get().kvCache().tokens();
    long fp8Tokens = ReplicaModel.of(fp8, h100, 4, Estimator.defaults()).get().kvCache().tokens();

    assertThat((double) fp8Tokens / bf16Tokens).isCloseTo(2, within(0.01));
  }

  @Test
  void int4_weights_leave_more_room_for_the_kv_cache_than_16_bit_ones() {
    ServingTask plain = llama70b().build();
    ServingTask int4 = llama70b().quantization(WeightQuantization.INT4).build();
    var a100 = Catalog.bundled().gpu("a100-sxm4-80gb");

    long plainTokens = ReplicaModel.of(plain, a100, 2, Estimator.defaults()).get().kvCache().tokens();
    long int4Tokens = ReplicaModel.of(int4, a100, 2, Estimator.defaults()).get().kvCache().tokens();

    assertThat(int4Tokens).isGreaterThan(3 * plainTokens);
  }

  @Test
  void serves_with_continuous_batching_far_cheaper_than_one_eager_request_at_a_time() {
    ServingTask engine = ServingTask.builder(Presets.get("llama-2-7b")).requestsPerSecond(4).promptTokens(500)
        .outputTokens(200).build();
    ServingTask eager = ServingTask.builder(Presets.get("llama-2-7b")).requestsPerSecond(4).promptTokens(500)
        .outputTokens(200).engine(ExecutionMode.EAGER).build();

    ServingPlan batched = ServingSizer.forTask(engine).catalog(USD).recommend().best().orElseThrow();
    ServingPlan oneAtATime = ServingSizer.forTask(eager).catalog(USD).recommend().best().orElseThrow();

    assertThat(oneAtATime.costPerHour().amount())
        .isGreaterThan(batched.costPerHour().amount().multiply(BigDecimal.valueOf(5)));
    assertThat(oneAtATime.batch()).isEqualTo(1);
  }

  @Test
  void the_pareto_front_holds_the_cheapest_plan_and_no_dominated_one() {
    ServingTask task = llama70b().build();

    ServingRecommendation rec = ServingSizer.forTask(task).catalog(USD).recommend();

    assertThat(rec.paretoFront()).isNotEmpty();
    assertThat(rec.paretoFront().get(0).costPerHour()).isEqualTo(rec.best().orElseThrow().costPerHour());
    List<ServingPlan> front = rec.paretoFront();
    for (ServingPlan p : front) {
      for (ServingPlan q : rec.options()) {
        boolean dominates = q.costPerHour().compareTo(p.costPerHour()) <= 0
            && q.ttftP95().compareTo(p.ttftP95()) <= 0 && q.tpotP95().compareTo(p.tpotP95()) <= 0
            && (q.costPerHour().compareTo(p.costPerHour()) < 0 || q.ttftP95().compareTo(p.ttftP95()) < 0
                || q.tpotP95().compareTo(p.tpotP95()) < 0);
        assertThat(dominates).as("%s dominates %s", q.label(), p.label()).isFalse();
      }
    }
  }

  @Test
  void prices_offerings_in_other_currencies_through_the_exchange_rates() {
    ServingTask task = llama70b().build();
    List<Offering> cny = Catalog.bundled().offerings().stream().filter(o -> o.provider().equals("aistudio")).toList();

    ServingRecommendation rec = ServingSizer.forTask(task).catalog(Catalog.bundled().withOfferings(cny))
        .recommend();

    assertThat(rec.best().orElseThrow().costPerHour().currency().getCurrencyCode()).isEqualTo("USD");
  }

  @Test
  void the_kv_budget_leaves_the_engine_a_tenth_of_the_gpu() {
    var a100 = Catalog.bundled().gpu("a100-sxm4-80gb");
    Task task = Task.inference(Presets.get("llama-2-7b")).executionMode(ExecutionMode.SERVING_ENGINE)
        .sequenceLength(1000).build();

    var budget = Estimator.defaults().kvCacheBudget(task, Hardware.single(a100), Layout.single(), 2);

    long held = budget.memory().total().bytes() + Math.round(budget.capacity().bytes() * 1.04);
    assertThat((double) held).isCloseTo(a100.memory().bytes(), within(a100.memory().bytes() * 1e-6));
    // Llama-2-7B: 2 · 32 layers · 4096 · 2 bytes = 512 KiB per token
    assertThat(budget.bytesPerToken()).isEqualTo(524_288);
  }
}
