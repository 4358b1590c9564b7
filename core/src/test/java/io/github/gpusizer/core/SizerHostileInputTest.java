package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Out-of-range and hostile sizer input: each bad number fails at once naming the setting and the rule, and numbers
 * that are legal but extreme are sized in bounded time, with every option still valid.
 */
class SizerHostileInputTest {
  private static final Catalog CATALOG = Fixtures.aws().merge(Fixtures.aistudio());
  /** Generous for two shared CI cores; the bug below took hours. */
  private static final Duration QUICKLY = Duration.ofSeconds(20);

  @Test
  void zero_batch_is_rejected_with_the_rule() {
    assertThatThrownBy(() -> Task.pretraining(Fixtures.GPT2).tokens(1e9).microBatch(0).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("micro-batch must be >= 1, was 0");
  }

  @ParameterizedTest
  @ValueSource(doubles = {0, -1, Double.NaN, Double.POSITIVE_INFINITY})
  void work_must_be_a_positive_finite_number_of_tokens(double tokens) {
    assertThatThrownBy(() -> Task.pretraining(Fixtures.GPT2).tokens(tokens).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("tokens must be > 0, was " + tokens);
  }

  @Test
  void zero_deadline_and_zero_gpus_are_rejected_at_the_setter() {
    Sizer sizer = GpuSizer.forTask(Fixtures.gpt2(1e9));
    assertThatThrownBy(() -> sizer.deadline(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("deadline must be > 0, was PT0S");
    assertThatThrownBy(() -> sizer.maxGpus(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxGpus must be >= 1, was 0");
    assertThatThrownBy(() -> sizer.budget(Money.of("-5", "USD"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("budget must be > 0, was -5 USD");
  }

  @Test
  void a_global_batch_near_the_int_limit_is_sized_quickly() {
    // GIVEN micro-batch and global batch of 2^31 - 1 (the layout search counted down from the micro-batch to 1
    // for every layout: billions of steps; found by fuzzing)
    Task task = Task.pretraining(Fixtures.GPT2).tokens(1e9).microBatch(Integer.MAX_VALUE)
        .globalBatch(Integer.MAX_VALUE).build();

    // WHEN sized  THEN it finishes quickly, and whatever it recommends fits
    Recommendation rec = assertTimeoutPreemptively(QUICKLY,
        () -> GpuSizer.forTask(task).catalog(CATALOG).recommend());
    assertThat(rec.options()).allSatisfy(o -> assertThat(o.memory().fits()).isTrue());
  }

  @Test
  void a_gpu_bound_beyond_any_cluster_is_rejected_at_the_setter() {
    // maxGpus(2^31 - 1) used to fail inside recommend() with "125001 nodes of 8 GPUs is beyond any cluster"
    assertThatThrownBy(() -> GpuSizer.forTask(Fixtures.gpt2(1e9)).maxGpus(Integer.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxGpus must be <= 1000000 (the largest cluster the estimator models), was 2147483647");
    assertThatThrownBy(() -> GpuSizer.forTask(Fixtures.gpt2(1e9)).maxNodes(1_000_001))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("maxNodes must be <= 1000000");
  }

  @Test
  void a_billion_token_sequence_is_sized_quickly() {
    // GIVEN a sequence of 10^9 tokens and a bound of 1,024 GPUs
    Task longSequence = Task.pretraining(Fixtures.GPT2).tokens(1e12).sequenceLength(1_000_000_000).build();
    Recommendation rec = assertTimeoutPreemptively(QUICKLY,
        () -> GpuSizer.forTask(longSequence).catalog(CATALOG).maxGpus(1024).recommend());

    // THEN nothing fits, and every offering says why
    assertThat(rec.isFeasible()).isFalse();
    assertThat(rec.rejected()).hasSize(CATALOG.offerings().size());
    assertThat(rec.suggestion()).isPresent();
  }

  @Test
  void a_budget_in_a_currency_without_a_rate_is_a_documented_illegal_state() {
    // GIVEN a budget in gold (XAU), for which the bundled rates have no USD rate, ranked in USD
    Sizer sizer = GpuSizer.forTask(Fixtures.gpt2(1e9)).catalog(CATALOG).budget(Money.of("1", "XAU"))
        .currency("USD");

    // WHEN sized  THEN the contradiction is named
    assertThatThrownBy(sizer::recommend).isInstanceOf(IllegalStateException.class).hasMessageContaining("XAU");
  }

  @Test
  void a_micro_batch_whose_global_batch_overflows_an_int_is_sized() {
    // GIVEN a micro-batch of 2^30 with "one micro-batch per rank": smaller micro-batches on 8 ranks would keep a
    // global batch of 2^33 (it wrapped negative and failed inside recommend(); found by fuzzing)
    Task task = Task.pretraining(Fixtures.GPT2).tokens(1e9).microBatch(1 << 30).build();

    // WHEN sized  THEN there is a recommendation, and its options fit
    Recommendation rec = assertTimeoutPreemptively(QUICKLY, () -> GpuSizer.forTask(task).catalog(CATALOG).recommend());
    assertThat(rec.options()).allSatisfy(o -> assertThat(o.memory().fits()).isTrue());
  }
}
