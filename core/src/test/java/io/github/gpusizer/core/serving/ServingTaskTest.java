package io.github.gpusizer.core.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.core.model.Presets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServingTaskTest {
  private static ServingTask.Builder llama() {
    return ServingTask.builder(Presets.get("llama-2-7b")).requestsPerSecond(2).promptTokens(500).outputTokens(100);
  }

  @Test
  void rejects_a_rate_that_is_not_positive_naming_the_field_and_the_value() {
    assertThatThrownBy(() -> ServingTask.builder(Presets.get("llama-2-7b")).requestsPerSecond(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("requestsPerSecond must be > 0 and finite, was 0.0");
  }

  @Test
  void rejects_a_setting_given_twice_with_the_earlier_value() {
    assertThatThrownBy(() -> llama().promptTokens(700))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("promptTokens was already set to 500");
  }

  @Test
  void rejects_a_p95_below_its_mean() {
    assertThatThrownBy(() -> llama().outputTokensP95(50).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("outputTokensP95 must be >= the mean outputTokens 100, was 50");
  }

  @Test
  void rejects_a_context_longer_than_the_model_takes() {
    assertThatThrownBy(() -> llama().promptTokensP95(4000).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must fit the context of llama-2-7b (4096 tokens)");
  }

  @Test
  void rejects_an_encoder_only_model() {
    assertThatThrownBy(() -> ServingTask.builder(Presets.get("bert-base")).requestsPerSecond(1).promptTokens(10)
        .outputTokens(1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("encoder-only");
  }

  @Test
  void requires_the_traffic() {
    assertThatThrownBy(() -> ServingTask.builder(Presets.get("llama-2-7b")).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("requestsPerSecond is required");
  }

  @Test
  void reads_a_per_user_speed_as_a_median_tpot_bound() {
    ServingTask task = llama().minTokensPerSecondPerUser(20).build();

    assertThat(task.targets().tpotP50()).contains(Duration.ofMillis(50));
  }

  @Test
  void keeps_weights_and_kv_cache_types_apart() {
    ServingTask task = llama().kvCache(Precision.FP8).build();

    assertThat(task.kvCacheBytes()).isEqualTo(1);
    assertThat(task.quantization()).isEqualTo(io.github.gpusizer.core.task.WeightQuantization.NONE);
  }

  @Test
  void rejects_a_kv_cache_type_no_engine_stores() {
    assertThatThrownBy(() -> llama().kvCache(Precision.INT8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("kvCache must be one of");
  }
}
