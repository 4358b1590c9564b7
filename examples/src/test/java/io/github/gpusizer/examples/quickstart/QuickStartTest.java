package io.github.gpusizer.examples.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.core.Option;
import io.github.gpusizer.core.Recommendation;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class QuickStartTest {
  @Test
  void recommends_a_fitting_option_within_a_day_cheapest_first() {
    Recommendation rec = QuickStart.recommend();
    Option best = rec.bestOrThrow();
    assertThat(best.memory().fits()).isTrue();
    assertThat(best.wallTime()).isLessThanOrEqualTo(Duration.ofHours(24));
    for (Option o : rec.options()) {
      assertThat(o.cost().compareTo(best.cost())).isGreaterThanOrEqualTo(0);
      assertThat(o.memory().perGpu()).isLessThanOrEqualTo(o.memory().capacity());
    }
    assertThat(best.rationale()).isNotBlank();
  }

  @Test
  void the_task_is_lora_of_llama_2_7b_on_50m_tokens() {
    assertThat(QuickStart.task().model().parameters()).isEqualTo(6_738_415_616L);
    assertThat(QuickStart.task().tokens()).hasValue(50e6);
    assertThat(QuickStart.task().loraRank()).isEqualTo(8);
  }
}
