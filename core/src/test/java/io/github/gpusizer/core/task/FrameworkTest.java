package io.github.gpusizer.core.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.model.ModelSpec;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FrameworkTest {
  private static final ModelSpec LLAMA = Presets.get("llama-2-7b");

  @Test
  void a_task_without_a_framework_assumes_pytorch_for_training_and_hugging_face_generate_for_inference() {
    Task train = Task.pretraining(LLAMA).build();
    Task infer = Task.inference(LLAMA).build();
    assertThat(train.framework()).isEqualTo(Framework.PYTORCH);
    assertThat(train.frameworkAssumed()).isTrue();
    assertThat(infer.framework()).isEqualTo(Framework.HF_GENERATE);
    assertThat(infer.frameworkAssumed()).isTrue();
  }

  @Test
  void a_given_framework_is_not_assumed_and_gives_its_settings() {
    Task tune = Task.lora(LLAMA, 8).framework(Framework.TORCHTUNE).build();
    assertThat(tune.frameworkAssumed()).isFalse();
    assertThat(tune.loss()).isEqualTo(LossKernel.CHUNKED);
    assertThat(tune.checkpointing()).isEqualTo(Checkpointing.FULL);
    assertThat(tune.precision()).isEqualTo(PrecisionMode.BF16_PURE);
    assertThat(Task.inference(LLAMA).framework(Framework.VLLM).build().executionMode())
        .isEqualTo(ExecutionMode.SERVING_ENGINE);
    assertThat(Task.pretraining(LLAMA).framework(Framework.TENSORFLOW).build().executionMode())
        .isEqualTo(ExecutionMode.TENSORFLOW_GRAPH);
  }

  @Test
  void an_explicit_setting_beats_the_profile_whatever_the_order_of_the_calls() {
    Task before = Task.lora(LLAMA, 8).loss(LossKernel.MATERIALIZED).framework(Framework.TORCHTUNE).build();
    Task after = Task.lora(LLAMA, 8).framework(Framework.TORCHTUNE).loss(LossKernel.MATERIALIZED).build();
    assertThat(before.loss()).isEqualTo(LossKernel.MATERIALIZED);
    assertThat(after.loss()).isEqualTo(LossKernel.MATERIALIZED);
    assertThat(after.checkpointing()).isEqualTo(Checkpointing.FULL);
  }

  @Test
  void another_framework_given_to_a_tasks_builder_replaces_the_settings_the_old_one_gave() {
    Task tune = Task.lora(LLAMA, 8).framework(Framework.TORCHTUNE).attention(AttentionKernel.EAGER).build();
    Task unsloth = tune.toBuilder().framework(Framework.UNSLOTH).build();
    assertThat(unsloth.loss()).isEqualTo(LossKernel.FUSED);
    assertThat(unsloth.attention()).as("given explicitly, so kept").isEqualTo(AttentionKernel.EAGER);
    assertThat(tune.toBuilder().build()).isEqualTo(tune);
  }

  @Test
  void a_serving_framework_refuses_a_training_task_and_names_the_training_frameworks() {
    assertThatThrownBy(() -> Task.pretraining(LLAMA).framework(Framework.VLLM).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("vllm serves inference only")
        .hasMessageContaining("hf-trainer");
  }

  @Test
  void names_are_unique_lower_case_and_found_whatever_their_case() {
    assertThat(Arrays.stream(Framework.values()).map(Framework::id).distinct()).hasSize(Framework.values().length);
    for (Framework f : Framework.values()) {
      assertThat(f.id()).isEqualTo(f.id().toLowerCase(java.util.Locale.ROOT));
      assertThat(Framework.of(f.id().toUpperCase(java.util.Locale.ROOT))).isEqualTo(f);
    }
    assertThatThrownBy(() -> Framework.of("vllmm")).hasMessageContaining("unknown framework 'vllmm'")
        .hasMessageContaining("vllm");
  }

  @Test
  void every_issue_named_framework_exists() {
    assertThat(Arrays.stream(Framework.values()).map(Framework::id)).contains("pytorch", "hf-trainer", "torchtitan",
        "megatron", "deepspeed", "torchtune", "unsloth", "litgpt", "llm-foundry", "nvidia-dle", "timm", "ffcv",
        "detectron2", "tensorflow", "jax", "hf-generate", "gpt-fast", "vllm", "sglang", "tensorrt-llm", "lmdeploy",
        "tgi", "deepspeed-inference", "llama.cpp", "exllamav2", "mlc-llm");
  }

  @Test
  void a_frameworks_recipe_is_a_default_that_a_gpu_without_it_replaces() {
    // GIVEN torchtune's pure BF16 on a V100, which has no BF16
    Task tune = Task.lora(LLAMA, 8).framework(Framework.TORCHTUNE).build();
    io.github.gpusizer.catalog.Gpu v100 = io.github.gpusizer.catalog.Catalog.bundled().gpu("v100-sxm2-16gb");
    // THEN the sizer's recipe for the V100 is FP16 mixed precision, and a chosen recipe stays
    assertThat(tune.forGpu(v100).precision()).isEqualTo(PrecisionMode.FP16_MIXED);
    assertThat(Task.lora(LLAMA, 8).precision(PrecisionMode.FP32).framework(Framework.TORCHTUNE).build().precision())
        .isEqualTo(PrecisionMode.FP32);
  }
}
