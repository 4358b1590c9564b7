package io.github.gpusizer.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.testing.NullPointerTester;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Imports the config.json of each family. The files under test resources {@code hf/<preset>/config.json} copy the
 * fields of the published Hugging Face configs (meta-llama/Llama-2-7b-hf, meta-llama/Meta-Llama-3-8B,
 * meta-llama/Llama-3.2-3B, TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T, mistralai/Mistral-7B-v0.1,
 * mistralai/Mixtral-8x7B-v0.1, Qwen/Qwen2.5-7B, openai-community/gpt2, google-bert/bert-base-uncased,
 * google-t5/t5-base, EleutherAI/gpt-j-6b, mosaicml/mpt-7b); each must import as exactly the preset of that name.
 */
class HuggingFaceConfigTest {

  @TempDir Path dir;

  private static Path resource(String preset) throws URISyntaxException {
    URL url = HuggingFaceConfigTest.class.getResource("hf/" + preset + "/config.json");
    assertThat(url).as("test resource for %s", preset).isNotNull();
    return Path.of(url.toURI());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"llama-2-7b", "llama-3-8b", "llama-3.2-3b", "tinyllama-1.1b", "mistral-7b",
      "mixtral-8x7b", "qwen2.5-7b", "gpt2", "bert-base", "t5-base", "gpt-j-6b", "mpt-7b"})
  void imported_config_equals_the_preset(String preset) throws Exception {
    // GIVEN the published config.json of the model
    // WHEN it is imported
    Transformer imported = HuggingFaceConfig.read(resource(preset));
    // THEN it is the preset in every dimension but the name, so the parameter counts agree exactly
    Transformer expected = (Transformer) Presets.get(preset);
    assertThat(imported).usingRecursiveComparison().ignoringFields("name").isEqualTo(expected);
    assertThat(imported.parameters()).isEqualTo(expected.parameters());
  }

  @Test
  void name_comes_from_name_or_path_else_from_the_folder() throws Exception {
    assertThat(HuggingFaceConfig.read(resource("llama-2-7b")).name()).isEqualTo("Llama-2-7b-hf");
    assertThat(HuggingFaceConfig.read(resource("mistral-7b")).name()).isEqualTo("mistral-7b");
  }

  @Test
  void t5_v1_1_gated_feed_forward_and_untied_head_are_read() throws IOException {
    // google/t5-v1_1-base: gated-gelu, d_ff 2048, untied embeddings
    Path config = write("""
        {"model_type": "t5", "d_model": 768, "d_kv": 64, "d_ff": 2048, "num_layers": 12, "num_heads": 12,
         "vocab_size": 32128, "feed_forward_proj": "gated-gelu", "tie_word_embeddings": false}
        """);
    Transformer t5 = HuggingFaceConfig.read(config);
    assertThat(t5.gatedMlp()).isTrue();
    assertThat(t5.tiedEmbeddings()).isFalse();
    assertThat(t5.decoderLayers()).isEqualTo(12);
    // shared 32128×768, lm_head 32128×768, encoder 12 × (4·768² + 3·768·2048 + 2·768) + 384 + 768,
    // decoder 12 × (8·768² + 3·768·2048 + 3·768) + 384 + 768
    long h = 768;
    long expected = 2 * 32128 * h + 12 * (4 * h * h + 3 * h * 2048 + 2 * h) + 384 + h
        + 12 * (8 * h * h + 3 * h * 2048 + 3 * h) + 384 + h;
    assertThat(t5.parameters()).isEqualTo(expected);
  }

  @Test
  void gelu_new_is_read_as_the_composed_tanh_gelu_and_other_activations_as_fused() throws IOException {
    // GIVEN a GPT-2 config with transformers' "gelu_new" (NewGELUActivation) and one with the fused "gelu_pytorch_tanh"
    Path composed = write("""
        {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257,
         "activation_function": "gelu_new"}
        """);
    Path fused = write("""
        {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257,
         "activation_function": "gelu_pytorch_tanh"}
        """);
    Path bert = write("""
        {"model_type": "bert", "hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16,
         "intermediate_size": 4096, "vocab_size": 30522, "hidden_act": "gelu"}
        """);
    // WHEN read THEN only gelu_new keeps its intermediates; the parameter count does not depend on it
    assertThat(HuggingFaceConfig.read(composed).activation()).isEqualTo(Activation.COMPOSED_TANH_GELU);
    assertThat(HuggingFaceConfig.read(fused).activation()).isEqualTo(Activation.FUSED);
    assertThat(HuggingFaceConfig.read(bert).activation()).isEqualTo(Activation.FUSED);
    assertThat(HuggingFaceConfig.read(composed).parameters()).isEqualTo(HuggingFaceConfig.read(fused).parameters());
  }

  @Test
  void llama_attention_bias_adds_q_k_v_and_output_biases() throws IOException {
    Path config = write("""
        {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
         "intermediate_size": 128, "vocab_size": 100, "attention_bias": true}
        """);
    Transformer t = HuggingFaceConfig.read(config);
    assertThat(t.hasBias(BiasSite.QKV)).isTrue();
    assertThat(t.hasBias(BiasSite.ATTENTION_OUT)).isTrue();
    assertThat(t.hasBias(BiasSite.MLP)).isFalse();
    Transformer plain = t.toBuilder().extraBiases().build();
    assertThat(t.parameters() - plain.parameters()).isEqualTo(2 * 4 * 64);
  }

  @Test
  void unknown_model_type_lists_the_supported_ones() throws IOException {
    Path config = write("{\n  \"model_type\": \"falcon\",\n  \"hidden_size\": 4544\n}\n");
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(config + ":2:17: model_type 'falcon' is not supported; supported: bert, gpt2, gptj, llama,"
            + " mistral, mixtral, mpt, qwen2, t5");
  }

  @Test
  void missing_model_type_is_named() throws IOException {
    Path config = write("{\"hidden_size\": 4096}");
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(config + ": a Hugging Face config needs field 'model_type', which is missing");
  }

  @Test
  void missing_required_field_is_named() throws IOException {
    Path config = write("""
        {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
         "vocab_size": 32000}
        """);
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(config + ": model_type 'llama' needs field 'intermediate_size', which is missing");
  }

  @Test
  void null_required_field_is_reported_with_its_position() throws IOException {
    Path config = write("{\"model_type\": \"gpt2\",\n\"n_embd\": null}");
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(config + ":2:11: model_type 'gpt2' needs field 'n_embd', which is null");
  }

  @Test
  void wrong_type_names_field_expected_type_and_value_with_line_and_column() throws IOException {
    Path config = write("{\n  \"model_type\": \"gpt2\",\n  \"n_embd\": \"768\"\n}");
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOfSatisfying(ModelFileException.class, e -> {
          assertThat(e.file()).isEqualTo(config);
          assertThat(e.line()).hasValue(3);
          assertThat(e.column()).hasValue(13);
        })
        .hasMessage(config + ":3:13: field 'n_embd' must be an integer, was the string \"768\"");
  }

  @Test
  void fractional_number_for_an_integer_field_is_rejected() throws IOException {
    Path config = write("{\"model_type\": \"gpt2\", \"n_embd\": 768.5}");
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(config + ":1:34: field 'n_embd' must be an integer, was a number 768.5");
  }

  @Test
  void zero_dimension_is_rejected_with_the_rule() throws IOException {
    Path config = write("{\"model_type\": \"gpt2\", \"n_embd\": 0, \"n_layer\": 1, \"n_head\": 1, \"vocab_size\": 5}");
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(config + ":1:34: field 'n_embd' must be an integer from 1 to 2,147,483,647, was 0");
  }

  @Test
  void inconsistent_dimensions_are_reported_as_an_invalid_transformer() throws IOException {
    Path config = write("""
        {"model_type": "mistral", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
         "num_key_value_heads": 5, "intermediate_size": 14336, "vocab_size": 32000}
        """);
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(config + ": does not describe a valid transformer: " + dir.getFileName()
            + ": KV heads must be > 0 and divide the 32 heads, was 5");
  }

  @Test
  void file_not_found_is_reported() {
    Path missing = dir.resolve("nope/config.json");
    assertThatThrownBy(() -> HuggingFaceConfig.read(missing))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(missing + ": file not found");
  }

  @Test
  void a_directory_is_not_a_config_file() {
    assertThatThrownBy(() -> HuggingFaceConfig.read(dir))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(dir + ": is a directory, not a JSON file (give the config.json inside it)");
  }

  @Test
  void malformed_json_reports_line_and_column() throws IOException {
    Path config = write("{\n  \"model_type\": \"llama\",\n  \"hidden_size\": 4096,,\n}");
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOfSatisfying(ModelFileException.class, e -> assertThat(e.line()).hasValue(3))
        .hasMessageStartingWith(config + ":3:")
        .hasMessageContaining("not valid JSON");
  }

  @Test
  void duplicate_keys_are_rejected() throws IOException {
    Path config = write("{\"model_type\": \"gpt2\", \"model_type\": \"llama\"}");
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOf(ModelFileException.class)
        .hasMessageContaining("not valid JSON: Duplicate field 'model_type'");
  }

  @Test
  void empty_file_and_non_object_are_rejected() throws IOException {
    Path empty = write("");
    assertThatThrownBy(() -> HuggingFaceConfig.read(empty))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(empty + ": is empty; expected a JSON object");
    Path array = write("[1, 2]");
    assertThatThrownBy(() -> HuggingFaceConfig.read(array))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(array + ":1:1: must hold a JSON object, found an array");
  }

  @Test
  void trailing_content_is_rejected() throws IOException {
    Path config = write("{\"model_type\": \"gpt2\"} {}");
    assertThatThrownBy(() -> HuggingFaceConfig.read(config))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(config + ":1:24: unexpected content after the JSON object");
  }

  @Test
  void supported_model_types_are_listed() {
    assertThat(HuggingFaceConfig.supportedModelTypes())
        .containsExactly("bert", "gpt2", "gptj", "llama", "mistral", "mixtral", "mpt", "qwen2", "t5");
  }

  @Test
  void public_methods_reject_null() {
    new NullPointerTester().testAllPublicStaticMethods(HuggingFaceConfig.class);
  }

  private Path write(String json) throws IOException {
    Path file = Files.createTempFile(dir, "config", ".json");
    Files.writeString(file, json, StandardCharsets.UTF_8);
    return file;
  }
}
