package io.github.gpusizer.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exact parameter counts of the transformer presets, each checked against a count published for the real model.
 * Sources (third column): keras-hub = github.com/keras-team/keras-hub, keras_hub/src/models/&lt;family&gt;/
 * &lt;family&gt;_presets.py "params" metadata; keras-nlp = the older keras_nlp/models/t5/t5_presets.py; HF = the
 * model's Hugging Face safetensors total or {@code model.num_parameters()} as reported for the checkpoint.
 */
class TransformerParametersTest {

  @ParameterizedTest(name = "{0} has {1} parameters ({2})")
  @CsvSource(delimiter = '|', textBlock = """
      llama-2-7b     | 6738415616   | keras-hub llama_presets.py llama2_7b_en
      llama-2-13b    | 13015864320  | HF meta-llama/Llama-2-13b-chat-hf num_parameters (also Zhang's LLaMA-2-13B derivation)
      llama-2-70b    | 68976648192  | HF togethercomputer/llama-2-70b parameter table; AuroraGPT-70B TOTAL_PARAMS
      llama-3-8b     | 8030261248   | keras-hub llama3_presets.py llama3_8b_en
      llama-3-70b    | 70553706496  | HF meta-llama/Llama-3.1-70B safetensors total
      llama-3.1-405b | 405853388800 | HF meta-llama/Llama-3.1-405B safetensors total
      llama-3.2-3b   | 3212749824   | HF meta-llama/Llama-3.2-3B-Instruct safetensors.parameters.BF16
      tinyllama-1.1b | 1100048384   | HF TinyLlama-1.1B num_parameters; safetensors F32 count
      mistral-7b     | 7241732096   | keras-hub mistral_presets.py mistral_7b_en
      mixtral-8x7b   | 46702792704  | keras-hub mixtral_presets.py mixtral_8_7b_en
      qwen2.5-7b     | 7615616512   | keras-hub qwen_presets.py qwen2.5_math_7b_en (Qwen2.5-7B architecture)
      qwen2.5-72b    | 72706203648  | keras-hub qwen_presets.py qwen2.5_instruct_72b_en
      gpt2           | 124439808    | keras-hub gpt2_presets.py gpt2_base_en
      gpt2-medium    | 354823168    | keras-hub gpt2_presets.py gpt2_medium_en
      gpt2-large     | 774030080    | keras-hub gpt2_presets.py gpt2_large_en
      gpt2-xl        | 1557611200   | keras-hub gpt2_presets.py gpt2_extra_large_en
      bert-base      | 109482240    | keras-hub bert_presets.py bert_base_en_uncased (BertModel with pooler)
      bert-large     | 335141888    | keras-hub bert_presets.py bert_large_en_uncased (BertModel with pooler)
      t5-base        | 222903552    | keras-nlp t5_presets.py t5_base
      t5-3b          | 2851598336   | keras-nlp t5_presets.py t5_3b
      whisper-small  | 241734912    | HF openai/whisper-small safetensors total
      mpt-7b         | 6649286656   | HF mosaicml/mpt-7b bf16 index total_size 13298573312 bytes / 2
      gpt-j-6b       | 6050882784   | GPTJForCausalLM count printed by a LoRA test of EleutherAI/gpt-j-6B
      lstm-lm        | 85974278     | 1500-wide 2-layer tied LSTM: 33278*1500 + 2*4*(1500*1500*2+3000) + 33278
      """)
  void preset_parameter_count_matches_the_published_count(String id, long expected, String source) {
    // GIVEN the preset, WHEN counting its parameters, THEN the count is exactly the published one
    assertThat(Presets.get(id).parameters()).as(source).isEqualTo(expected);
  }

  @Test
  void mixtral_routes_each_token_through_about_12_9_billion_parameters() {
    // GIVEN Mixtral 8x7B (2 of 8 experts per token; the Mixtral paper, arXiv:2401.04088, says 13B active)
    ModelSpec mixtral = Presets.get("mixtral-8x7b");
    // THEN the active count is all but six experts' MLPs: 12,879,925,248
    assertThat(mixtral.activeParameters()).isEqualTo(12_879_925_248L);
    assertThat(mixtral.activeParameters() / 1e9).isCloseTo(12.9, within(0.05));
  }

  @Test
  void mpt_30b_is_within_a_tenth_of_a_percent_of_its_model_card() {
    // The mosaicml/mpt-30b model card lists 29.95B parameters; the dimensions give 29,957,200,896.
    assertThat(Presets.get("mpt-30b").parameters()).isEqualTo(29_957_200_896L);
    assertThat(Presets.get("mpt-30b").parameters() / 29.95e9).isCloseTo(1.0, within(0.001));
  }

  @Test
  void qwen2_qkv_biases_add_exactly_q_plus_two_kv_widths_per_layer() {
    // GIVEN Qwen2.5-7B with and without its q/k/v biases
    Transformer qwen = (Transformer) Presets.get("qwen2.5-7b");
    Transformer noBias = qwen.toBuilder().extraBiases().build();
    // THEN the difference is layers × (q + 2 kv) = 28 × (3584 + 2 × 512)
    assertThat(qwen.parameters() - noBias.parameters()).isEqualTo(28L * (3584 + 2 * 512));
  }

  @Test
  void t5_relative_attention_tables_count_once_per_stack() {
    // GIVEN T5-base; its 32 buckets × 12 heads table sits in the first layer of the encoder and of the decoder
    Transformer t5 = (Transformer) Presets.get("t5-base");
    Transformer fewerBuckets = t5.toBuilder().relativeAttentionBuckets(16).build();
    assertThat(t5.parameters() - fewerBuckets.parameters()).isEqualTo(2L * 16 * 12);
  }

  @ParameterizedTest(name = "{0} has {1} parameters")
  @CsvSource(delimiter = '|', textBlock = """
      whisper-medium   | 763857920
      whisper-large-v3 | 1543490560
      """)
  void whisper_counts_match_hugging_face_rounded_sizes(String id, long expected) {
    // GIVEN the larger Whisper presets, whose exact totals we could not find published (Hugging Face shows 764M and
    // 1.54B), WHEN counted from config.json as WhisperForConditionalGeneration builds them, THEN these are the counts
    assertThat(Presets.get(id).parameters()).isEqualTo(expected);
  }

  @Test
  void whisper_small_adds_up_from_its_parts() {
    // GIVEN whisper-small: d 768, 12 + 12 layers, ffn 3072, vocab 51865, 80 mel bins, 1500 + 448 positions
    long d = 768;
    long attention = 4 * d * d + 3 * d; // q, k, v, out; biases on q, v and out only
    long mlp = 2 * d * 3072 + 3072 + d;
    long encoderLayer = attention + mlp + 2 * 2 * d;
    long decoderLayer = 2 * attention + mlp + 3 * 2 * d;
    long frontEnd = (3 * 80 * d + d) + (3 * d * d + d);
    long expected = 12 * encoderLayer + 12 * decoderLayer + frontEnd + 1500 * d + 448 * d + 51865 * d + 2 * 2 * d;
    // THEN the preset is exactly that sum
    assertThat(Presets.get("whisper-small").parameters()).isEqualTo(expected).isEqualTo(241_734_912L);
  }

  @Test
  void whisper_key_projection_has_no_bias() {
    // GIVEN whisper-small and the same model with biases on q, k and v
    Transformer whisper = (Transformer) Presets.get("whisper-small");
    Transformer keyBias = whisper.toBuilder()
        .extraBiases(BiasSite.QKV, BiasSite.ATTENTION_OUT, BiasSite.MLP).build();
    // THEN the difference is one d-wide bias per attention: 12 encoder self + 12 decoder self + 12 cross
    assertThat(keyBias.parameters() - whisper.parameters()).isEqualTo(36L * 768);
  }

  @Test
  void rejects_an_audio_front_end_on_a_decoder_only_model() {
    assertThatThrownBy(() -> Transformer.builder("gpt").layers(2).hidden(64).heads(8).vocab(10).melBins(80).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gpt: mel bins must be > 0 for an encoder-decoder model's audio front-end, or 0, was 80");
  }

  @Test
  void gpt_j_parallel_block_has_one_norm_per_layer() {
    Transformer gptj = (Transformer) Presets.get("gpt-j-6b");
    Transformer sequential = gptj.toBuilder().parallelBlock(false).build();
    assertThat(sequential.parameters() - gptj.parameters()).isEqualTo(28L * 2 * 4096);
  }

  @Test
  void bias_switches_on_attention_and_mlp_biases_but_not_the_head() {
    Transformer gpt2 = (Transformer) Presets.get("gpt2");
    assertThat(gpt2.hasBias(BiasSite.QKV)).isTrue();
    assertThat(gpt2.hasBias(BiasSite.ATTENTION_OUT)).isTrue();
    assertThat(gpt2.hasBias(BiasSite.MLP)).isTrue();
    assertThat(gpt2.hasBias(BiasSite.LM_HEAD)).isFalse();
    Transformer gptj = (Transformer) Presets.get("gpt-j-6b");
    assertThat(gptj.hasBias(BiasSite.QKV)).isFalse();
    assertThat(gptj.hasBias(BiasSite.LM_HEAD)).isTrue();
  }

  @Test
  void the_constructor_without_the_newer_components_keeps_working() {
    // GIVEN Llama-2-7B built with the original 20-argument constructor
    Transformer old = new Transformer("llama-2-7b", Stack.DECODER, 32, 0, 4096, 32, 32, 128, 11008, 32000, 4096,
        true, false, false, Norm.RMS_NORM, Positions.ROTARY, 0, false, 1, 1);
    // THEN it equals the preset
    assertThat(old).isEqualTo(Presets.get("llama-2-7b"));
  }

  @Test
  void rejects_dimensions_whose_parameter_count_overflows_a_long() {
    Transformer.Builder huge = Transformer.builder("huge").layers(Integer.MAX_VALUE).hidden(1 << 20).heads(1 << 10)
        .ffn(1 << 30).vocab(1000).experts(1 << 20).activeExperts(1);
    assertThatThrownBy(huge::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("huge: the parameter count of these dimensions overflows a long");
  }

  @Test
  void rejects_hidden_size_that_does_not_split_into_heads_without_an_explicit_head_dimension() {
    assertThatThrownBy(() -> Transformer.builder("odd").layers(2).hidden(100).heads(3).vocab(10).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("odd: hidden size 100 is not a multiple of the 3 heads; give the head dimension explicitly");
  }

  @Test
  void rejects_kv_heads_that_do_not_divide_the_heads() {
    assertThatThrownBy(() -> Transformer.builder("gqa").layers(2).hidden(64).heads(8).kvHeads(3).vocab(10).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gqa: KV heads must be > 0 and divide the 8 heads, was 3");
  }

  @Test
  void rejects_relative_buckets_without_relative_position_biases() {
    assertThatThrownBy(() -> Transformer.builder("x").layers(2).hidden(64).heads(8).vocab(10)
        .relativeAttentionBuckets(32).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("x: relative attention buckets must be > 0 with relative position biases and 0 otherwise,"
            + " was 32");
  }

  @Test
  void rejects_more_active_experts_than_experts() {
    assertThatThrownBy(() -> Transformer.builder("moe").layers(2).hidden(64).heads(8).vocab(10).experts(4)
        .activeExperts(5).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("moe: active experts must be in 1..4, was 5");
  }

  @Test
  void shape_arithmetic_of_llama_2_7b_lives_on_the_transformer() {
    // GIVEN Llama-2-7B (32 layers, width 4096, SwiGLU 11008, vocabulary 32000, untied head)
    Transformer llama = (Transformer) Presets.get("llama-2-7b");
    // THEN its shapes follow from the dimensions
    assertThat(llama.queryDim()).isEqualTo(4096);
    assertThat(llama.attentionWeights()).isEqualTo(4L * 4096 * 4096);
    assertThat(llama.mlpWeights()).isEqualTo(3L * 4096 * 11008);
    // 32 x (67,108,864 + 135,266,304): every linear layer inside the blocks
    assertThat(llama.quantizableWeights()).isEqualTo(6_476_005_376L);
    // all parameters less the 32000 x 4096 embedding table, which is looked up; the untied head is multiplied
    assertThat(llama.matmulParameters()).isEqualTo(6_738_415_616.0 - 32000.0 * 4096);
    assertThat(llama.matmulOutputWidths()).containsExactly(4096, 4096, 4096, 4096, 11008, 11008, 4096);
    assertThat(llama.hasLanguageHead()).isTrue();
    assertThat(llama.usesDropout()).isFalse();
    assertThat(((Transformer) Presets.get("bert-base")).hasLanguageHead()).isFalse();
    assertThat(((Transformer) Presets.get("bert-base")).usesDropout()).isTrue();
  }
}
