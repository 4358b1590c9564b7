package io.github.gpusizer.examples.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.core.Objective;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.TaskKind;
import org.junit.jupiter.api.Test;

class WordsTest {
  @Test
  void words_are_read_in_any_case_with_underscores_for_dashes() {
    assertThat(Words.OBJECTIVES.get("Fastest")).isEqualTo(Objective.FASTEST);
    assertThat(Words.OPTIMIZERS.get("ADAM_8BIT")).isEqualTo(Words.OPTIMIZERS.get("adam-8bit"));
  }

  @Test
  void an_unknown_word_names_the_option_or_the_field_and_every_accepted_word() {
    assertThatThrownBy(() -> Words.TASKS.get("pretrain"))
        .hasMessage("--task must be one of train, finetune, lora, qlora, infer, was 'pretrain'");
    assertThatThrownBy(() -> Words.TASKS.get("field 'task'", "pretrain"))
        .hasMessage("field 'task' must be one of train, finetune, lora, qlora, infer, was 'pretrain'");
  }

  @Test
  void a_misspelt_word_is_answered_with_the_closest_accepted_ones() {
    assertThatThrownBy(() -> Words.LOSSES.get("chunkd"))
        .hasMessage("--loss must be one of materialized, chunked, fused, was 'chunkd'; did you mean: chunked?");
    assertThatThrownBy(() -> Words.PRECISIONS.get("fp12")).hasMessageEndingWith("; did you mean: fp32, fp16?");
  }

  @Test
  void every_task_word_builds_a_task_of_its_kind() {
    for (String word : Words.TASKS.words()) {
      TaskKind kind = Words.TASKS.get(word);
      var task = Words.taskBuilder(kind, Presets.get("gpt2"), Words.DEFAULT_LORA_RANK).tokens(1e6).build();
      assertThat(task.kind()).as(word).isEqualTo(kind);
    }
  }
}
