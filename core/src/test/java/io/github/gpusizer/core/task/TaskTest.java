package io.github.gpusizer.core.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Presets;
import org.junit.jupiter.api.Test;

class TaskTest {

  private static final ModelSpec LLAMA = Presets.get("llama-2-7b");

  @Test
  void builds_a_lora_task_with_defaults() {
    Task task = Task.lora(LLAMA, 8).tokens(50e6).build();
    assertThat(task.kind()).isEqualTo(TaskKind.LORA);
    assertThat(task.loraRank()).isEqualTo(8);
    assertThat(task.loraTargets()).containsExactly(LoraTarget.Q, LoraTarget.V);
    assertThat(task.precision()).isEqualTo(PrecisionMode.BF16_PURE);
    assertThat(task.tokens()).hasValue(50e6);
  }

  @Test
  void the_sequence_length_defaults_to_the_model_context_up_to_8192_tokens() {
    assertThat(Task.pretraining(Presets.get("bert-base")).tokens(1e9).build().sequenceLength()).isEqualTo(512);
    assertThat(Task.pretraining(Presets.get("gpt2")).tokens(1e9).build().sequenceLength()).isEqualTo(1024);
    assertThat(Task.lora(LLAMA, 8).tokens(1e9).build().sequenceLength()).isEqualTo(4096);
    assertThat(Task.pretraining(Presets.get("llama-3.1-405b")).tokens(1e9).build().sequenceLength())
        .isEqualTo(Task.Builder.LONGEST_DEFAULT_SEQUENCE);
    assertThat(Task.lora(LLAMA, 8).tokens(1e9).sequenceLength(128).build().sequenceLength()).isEqualTo(128);
  }

  @Test
  void the_largest_useful_global_batch_follows_deepseeks_batch_law() {
    // GIVEN Llama-3-70B pre-trained on 1 T tokens in 8,192-token sequences: C = 6 N D FLOPs
    Task llama = Task.pretraining(Presets.get("llama-3-70b")).tokens(1e12).build();
    double flops = 6.0 * llama.model().parameters() * 1e12;

    // THEN the batch is DeepSeek LLM's B = 0.2920 C^0.3271 tokens, in sequences, and lands within 5 % of the
    // 16 M tokens Llama 3 trained with at that scale (Llama Team 2024, §3.4.1)
    long expected = Math.round(0.2920 * Math.pow(flops, 0.3271) / 8192);
    assertThat(llama.largestUsefulGlobalBatch()).hasValue((int) expected);
    assertThat(expected * 8192.0).isCloseTo(16e6, org.assertj.core.data.Percentage.withPercentage(5));

    // AND a job smaller than the law's smallest budget (1e17 FLOPs) gets the law's value there
    Task tiny = Task.pretraining(Presets.get("gpt2")).tokens(1e6).build();
    assertThat(tiny.largestUsefulGlobalBatch())
        .hasValue((int) Math.round(0.2920 * Math.pow(1e17, 0.3271) / 1024));
    // AND image nets stop at Goyal et al.'s 8k, inference has none
    assertThat(Task.pretraining(Presets.get("resnet50")).samples(1e6).build().largestUsefulGlobalBatch())
        .hasValue(8192);
    assertThat(Task.inference(LLAMA).samples(1e3).build().largestUsefulGlobalBatch()).isEmpty();
  }

  @Test
  void the_image_size_defaults_to_the_models_own_resolution() {
    assertThat(Task.pretraining(Presets.get("resnet50")).samples(1e6).build().imageSize()).isEqualTo(224);
    assertThat(Task.pretraining(Presets.get("yolov8m")).samples(1e6).build().imageSize()).isEqualTo(640);
    assertThat(Task.pretraining(Presets.get("stable-diffusion-unet")).samples(1e6).build().imageSize())
        .isEqualTo(512);
    assertThat(Task.pretraining(Presets.get("yolov8m")).samples(1e6).imageSize(320).build().imageSize())
        .isEqualTo(320);
  }

  @Test
  void a_gpu_without_bf16_gets_fp16_mixed_only_when_the_precision_was_left_open() {
    io.github.gpusizer.catalog.Gpu v100 = io.github.gpusizer.catalog.Catalog.bundled().gpu("v100-sxm2-16gb");
    io.github.gpusizer.catalog.Gpu p40 = io.github.gpusizer.catalog.Catalog.bundled().gpu("p40");
    Task open = Task.pretraining(LLAMA).tokens(1e9).build();
    assertThat(open.precisionFor(v100)).isEqualTo(PrecisionMode.FP16_MIXED);
    assertThat(open.precisionFor(p40)).isEqualTo(PrecisionMode.FP32); // Pascal: no tensor cores, no TF32
    Task fixed = Task.pretraining(LLAMA).tokens(1e9).precision(PrecisionMode.BF16_MIXED).build();
    assertThat(fixed.precisionFor(v100)).isEqualTo(PrecisionMode.BF16_MIXED);
    assertThat(fixed.forGpu(v100)).isSameAs(fixed);
  }

  @Test
  void trainable_parameters_are_all_for_training_the_adapters_for_lora_and_none_for_inference() {
    assertThat(Task.lora(LLAMA, 8).tokens(1e9).build().trainableParameters()).isEqualTo(4_194_304L);
    assertThat(Task.fullFineTuning(LLAMA).tokens(1e9).build().trainableParameters()).isEqualTo(6_738_415_616L);
    assertThat(Task.inference(LLAMA).tokens(1e9).build().trainableParameters()).isZero();
  }

  @Test
  void rejects_lora_rank_above_the_hidden_size() {
    assertThatThrownBy(() -> Task.lora(LLAMA, 4097).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LoRA rank 4097 must be <= the hidden size 4096 of llama-2-7b");
  }

  @Test
  void rejects_a_serving_engine_for_training_naming_the_modes_that_train() {
    assertThatThrownBy(() -> Task.fullFineTuning(LLAMA).executionMode(ExecutionMode.SERVING_ENGINE).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a serving engine only runs inference; FULL_FINE_TUNING needs eager or compiled execution");
  }

  @Test
  void keeps_the_execution_mode_through_to_builder() {
    Task served = Task.inference(LLAMA).executionMode(ExecutionMode.SERVING_ENGINE).build();
    assertThat(served.toBuilder().microBatch(4).build().executionMode()).isEqualTo(ExecutionMode.SERVING_ENGINE);
  }

  @Test
  void accepts_lora_rank_equal_to_the_hidden_size() {
    assertThat(Task.qlora(LLAMA, 4096).build().loraRank()).isEqualTo(4096);
  }

  @Test
  void rejects_zero_lora_rank() {
    assertThatThrownBy(() -> Task.lora(LLAMA, 0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LORA needs a LoRA rank >= 1, was 0");
  }

  @Test
  void rejects_zero_micro_batch() {
    assertThatThrownBy(() -> Task.pretraining(LLAMA).microBatch(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("micro-batch must be >= 1, was 0");
  }

  @Test
  void rejects_global_batch_below_the_micro_batch() {
    assertThatThrownBy(() -> Task.pretraining(LLAMA).microBatch(8).globalBatch(4).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("global batch must be 0 (one micro-batch per rank) or >= the micro-batch 8, was 4");
  }

  @Test
  void rejects_negative_sequence_length_and_image_size() {
    assertThatThrownBy(() -> Task.inference(LLAMA).sequenceLength(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sequence length must be >= 1 token, was -1");
    assertThatThrownBy(() -> Task.pretraining(Presets.get("resnet50")).imageSize(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("image size must be 1..65536 px, was 0");
  }

  @Test
  void rejects_an_image_side_beyond_the_limit_and_samples_times_epochs_that_overflow() {
    assertThatThrownBy(() -> Task.pretraining(Presets.get("resnet50")).imageSize(Task.MAX_IMAGE_SIZE + 1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("image size must be 1..65536 px, was 65537");
    assertThatThrownBy(() -> Task.pretraining(Presets.get("resnet50")).samples(1e300).epochs(1e300).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("samples per epoch × epochs must be a finite number, was 1.0E300 × 1.0E300");
  }

  @Test
  void rejects_non_positive_amounts_of_work() {
    assertThatThrownBy(() -> Task.pretraining(LLAMA).tokens(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tokens must be > 0, was 0.0");
    assertThatThrownBy(() -> Task.pretraining(LLAMA).samples(-5).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("samples per epoch must be > 0, was -5.0");
    assertThatThrownBy(() -> Task.pretraining(LLAMA).samples(1000).epochs(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("epochs must be > 0, was 0.0");
  }

  @Test
  void rejects_work_given_both_as_tokens_and_as_samples() {
    assertThatThrownBy(() -> Task.pretraining(LLAMA).tokens(1e9).samples(1000).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("give the amount of work as tokens or as samples, not both");
  }

  @Test
  void rejects_negative_generated_tokens() {
    assertThatThrownBy(() -> Task.inference(LLAMA).generatedTokens(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("generated tokens must be >= 0, was -1");
  }

  @Test
  void samples_times_epochs_is_the_total_work() {
    Task task = Task.pretraining(Presets.get("resnet50")).samples(1_281_167).epochs(90).build();
    assertThat(task.samples()).hasValue(1_281_167.0 * 90);
    assertThat(task.isImageModel()).isTrue();
  }
}
