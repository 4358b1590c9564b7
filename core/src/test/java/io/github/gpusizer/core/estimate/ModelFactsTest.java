package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.LoraTarget;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The estimator's memo of per-task and per-GPU quantities ({@link ModelFacts}, the GPU's GEMM class) gives exactly
 * what working them out afresh gives, whatever the order in which tasks and GPUs are estimated.
 */
class ModelFactsTest {
  private static final List<Task> TASKS = List.of(
      Task.lora(TestModels.LLAMA2_7B, 8).tokens(1e6).build(),
      Task.lora(TestModels.LLAMA2_7B, 16).tokens(1e6).build(),
      Task.lora(TestModels.LLAMA2_7B, 8).loraTargets(EnumSet.allOf(LoraTarget.class)).tokens(1e6).build(),
      Task.qlora(TestModels.LLAMA2_13B, 64).tokens(1e6).checkpointing(Checkpointing.FULL).build(),
      Task.fullFineTuning(TestModels.LLAMA2_7B).tokens(1e6).build(),
      Task.pretraining(TestModels.GPT_1_7B).tokens(1e9).build(),
      Task.pretraining(TestModels.T0_3B).tokens(1e9).build(),
      Task.inference(TestModels.LLAMA2_7B).sequenceLength(512).generatedTokens(64).build(),
      Task.pretraining(TestModels.RESNET50).samples(1e6).build());
  private static final List<Hardware> HARDWARE = List.of(Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1),
      Hardware.of(TestGpus.H100_SXM, 8, 2), Hardware.of(TestGpus.V100_SXM2_16GB, 4, 1),
      Hardware.of(TestGpus.H200_SXM, 8, 1));

  @Test
  void facts_equal_the_models_own_counts() {
    for (Task task : TASKS) {
      // WHEN the facts of a task are worked out
      ModelFacts facts = ModelFacts.of(task);
      // THEN they are the model's counts, describe the task, and describe another task only if its facts are equal
      assertThat(facts.parameters).isEqualTo((double) task.model().parameters());
      if (task.model() instanceof Transformer t) {
        assertThat(facts.matmulParameters).isEqualTo(t.matmulParameters());
        assertThat(facts.loraParameters).isEqualTo(task.kind().isAdapter()
            ? LoraTarget.adapterParameters(t, task.loraRank(), task.loraTargets()) : 0);
        assertThat(facts.loraWidths).hasSize(task.kind().isAdapter() ? task.loraTargets().size() : 0);
      }
      assertThat(facts.describes(task)).isTrue();
      for (Task other : TASKS) {
        if (facts.describes(other)) {
          ModelFacts theirs = ModelFacts.of(other);
          assertThat(theirs.parameters).isEqualTo(facts.parameters);
          assertThat(theirs.matmulParameters).isEqualTo(facts.matmulParameters);
          assertThat(theirs.loraParameters).isEqualTo(facts.loraParameters);
          assertThat(theirs.loraWidths).containsExactly(facts.loraWidths);
        }
      }
    }
  }

  @Test
  void a_memoised_estimate_equals_a_fresh_one_in_any_order() {
    // GIVEN the expected results, each from an estimator that has seen nothing before
    Layout[] layouts = new Layout[HARDWARE.size()];
    for (int h = 0; h < layouts.length; h++) {
      Hardware hw = HARDWARE.get(h);
      layouts[h] = new Layout(hw.gpus() / 2, 2, 1, ZeroStage.STAGE_1, hw.gpusPerNode());
    }
    Object[][] expected = new Object[TASKS.size()][HARDWARE.size()];
    for (int t = 0; t < TASKS.size(); t++) {
      for (int h = 0; h < HARDWARE.size(); h++) {
        expected[t][h] = outcome(Estimator.defaults().withLinkEfficiency(0.8), TASKS.get(t), HARDWARE.get(h),
            layouts[h]);
      }
    }
    // WHEN one estimator estimates them in a random order, switching task and GPU between calls
    Estimator shared = Estimator.defaults().withLinkEfficiency(0.8);
    Random random = new Random(7);
    for (int k = 0; k < 400; k++) {
      int t = random.nextInt(TASKS.size());
      int h = random.nextInt(HARDWARE.size());
      // THEN each result equals the fresh one
      assertThat(outcome(shared, TASKS.get(t), HARDWARE.get(h), layouts[h])).isEqualTo(expected[t][h]);
    }
  }

  /** The estimate, or the message of the estimator's refusal. */
  private static Object outcome(Estimator estimator, Task task, Hardware hw, Layout layout) {
    // non-transformers take no tensor parallelism: the estimator refuses, and the refusal is compared too
    try {
      return List.of(estimator.estimate(task, hw, layout), estimator.memory(task, hw, layout),
          estimator.performance(task, hw, layout));
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  @Test
  void the_first_letter_filter_matches_as_region_matches_does() {
    // GIVEN architecture names in many spellings, with letters that case-map to ASCII (Kelvin sign, long s)
    List<String> names = List.of("Hopper", "HOPPER", "Grace Hopper", "hopper", "Blackwell", "BLACKWELL Ultra",
        "Ampere", "Ada Lovelace", "Volta", "Turing", "CDNA 3", "TPU v5e", "hoppe", "\u212Aelvin", "\u017Fhopper",
        "Hop\u017Fer", "", "h", "b", "bLaCkWeLl");
    for (String name : names) {
      for (String part : List.of("hopper", "blackwell")) {
        boolean expected = false;
        for (int i = 0; i + part.length() <= name.length(); i++) {
          expected |= name.regionMatches(true, i, part, 0, part.length());
        }
        // THEN the filtered scan agrees with the plain one
        assertThat(Efficiency.containsIgnoringCase(name, part)).as("%s in %s", part, name).isEqualTo(expected);
      }
    }
  }
}
