package io.github.gpusizer.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.testing.NullPointerTester;
import org.junit.jupiter.api.Test;

class PresetsTest {

  @Test
  void lookup_ignores_case_and_separators() {
    ModelSpec llama = Presets.get("llama-2-7b");
    assertThat(Presets.get("Llama_2_7B")).isSameAs(llama);
    assertThat(Presets.get("llama2-7b")).isSameAs(llama);
    assertThat(Presets.get("LLAMA 2 7b")).isSameAs(llama);
    assertThat(Presets.get("Qwen2.5-7B")).isSameAs(Presets.get("qwen2.5-7b"));
    assertThat(Presets.get("vit_b_16")).isSameAs(Presets.get("vit-b-16"));
  }

  @Test
  void unknown_id_suggests_the_closest_ids() {
    assertThatThrownBy(() -> Presets.get("llama2-8b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown model 'llama2-8b'; did you mean: llama-2-7b, llama-3-8b?");
  }

  @Test
  void unknown_id_far_from_every_preset_lists_them_all() {
    assertThatThrownBy(() -> Presets.get("a-completely-different-network"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unknown model 'a-completely-different-network'; known models: resnet18, resnet34,")
        .hasMessageEndingWith("gpt-j-6b, gnmt-v2, lstm-lm");
  }

  @Test
  void ids_cover_the_documented_presets_in_a_stable_order() {
    assertThat(Presets.ids()).startsWith("resnet18", "resnet34", "resnet50", "resnet101", "resnet152")
        .contains("vgg16", "mobilenet-v2", "efficientnet-b0", "vit-b-16", "vit-l-16", "convnext-tiny", "yolov8s",
            "yolov8m", "fasterrcnn-resnet50-fpn", "retinanet-resnet50-fpn", "ppo-atari-nature-cnn",
            "stable-diffusion-unet", "bert-base", "bert-large", "gpt2", "gpt2-medium", "gpt2-large",
            "gpt2-xl", "t5-base", "t5-3b", "whisper-small", "whisper-medium", "whisper-large-v3", "llama-2-7b",
            "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b",
            "llama-3.1-405b", "llama-3.2-3b", "mistral-7b", "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-72b",
            "tinyllama-1.1b", "mpt-7b", "mpt-30b", "gpt-j-6b", "gnmt-v2", "lstm-lm")
        .hasSize(45);
  }

  @Test
  void every_preset_has_a_source_and_its_own_name() {
    for (String id : Presets.ids()) {
      assertThat(Presets.source(id)).as(id).hasValueSatisfying(s -> assertThat(s).isNotBlank());
      assertThat(Presets.get(id).name()).isEqualTo(id);
    }
  }

  @Test
  void source_of_an_unknown_id_is_empty() {
    assertThat(Presets.source("no-such-model")).isEmpty();
  }

  @Test
  void source_cites_the_published_count() {
    assertThat(Presets.source("LLAMA-2-7B")).hasValueSatisfying(s -> assertThat(s)
        .contains("meta-llama/Llama-2-7b-hf").contains("6,738,415,616"));
  }

  @Test
  void public_methods_reject_null() {
    new NullPointerTester().testAllPublicStaticMethods(Presets.class);
  }

  @Test
  void gnmt_v2_from_its_dimensions_has_mlperfs_160671297_parameters() {
    // GIVEN GNMT v2: 4 + 4 LSTM layers of 1024, the first encoder layer bidirectional, attention, vocabulary 32320
    Recurrent gnmt = (Recurrent) Presets.get("gnmt-v2");
    // THEN its parameters are those NVIDIA's apex test lists for MLPerf GNMT, tensor by tensor: a shared embedding,
    // encoder layer 1 in both directions (input 1024), layer 2 reading both (input 2048), decoder layers 2-4 reading
    // the layer below and the attention context (input 2048), the attention, and an untied classifier
    assertThat(gnmt.parameters()).isEqualTo(160_671_297L);
    assertThat(gnmt.layerInput(1)).isEqualTo(2048);
    assertThat(gnmt.layerInput(4)).isEqualTo(1024);
    assertThat(gnmt.layerInput(5)).isEqualTo(2048);
    assertThat(gnmt.directions(0)).isEqualTo(2);
    assertThat(gnmt.totalLayers()).isEqualTo(8);
    // AND a language model keeps its count (the large tied LSTM of PyTorch's word_language_model)
    assertThat(Presets.get("lstm-lm").parameters())
        .isEqualTo(33278L * 1500 + 2 * 4 * (1500L * 1500 + 1500L * 1500 + 2 * 1500) + 33278);
  }
}
