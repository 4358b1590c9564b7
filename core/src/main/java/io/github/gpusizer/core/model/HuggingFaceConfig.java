package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableSortedSet;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Reads a local Hugging Face {@code config.json} into a {@link Transformer}, so that its parameter count and shapes
 * follow from the file. No network access: point it at a file you downloaded.
 *
 * <pre>{@code
 * Transformer model = HuggingFaceConfig.read(Path.of("Llama-2-7b-hf/config.json"));
 * model.parameters(); // 6,738,415,616
 * }</pre>
 *
 * <p>Supported {@code model_type}s and the fields each reads (defaults as in the {@code transformers} config
 * classes):
 *
 * <ul>
 *   <li>{@code llama}, {@code mistral}, {@code qwen2}, {@code mixtral}: {@code hidden_size},
 *       {@code num_hidden_layers}, {@code num_attention_heads}, {@code intermediate_size}, {@code vocab_size};
 *       optional {@code num_key_value_heads}, {@code head_dim}, {@code max_position_embeddings} (2048; 32768 for
 *       Qwen2; 131072 for Mistral and Mixtral), {@code tie_word_embeddings} (false), {@code attention_bias} and
 *       {@code mlp_bias} (Llama, false); Qwen2 always has q/k/v biases; Mixtral reads {@code num_local_experts} (8)
 *       and {@code num_experts_per_tok} (2).
 *   <li>{@code gpt2}: {@code n_embd}, {@code n_layer}, {@code n_head}, {@code vocab_size}; optional
 *       {@code n_inner} (4 × n_embd), {@code n_positions} (1024), {@code tie_word_embeddings} (true).
 *   <li>{@code gptj}: as GPT-2 plus parallel attention/MLP blocks, bias-free attention and an output bias;
 *       {@code n_positions} defaults to 2048 and {@code tie_word_embeddings} to false.
 *   <li>{@code bert}: {@code hidden_size}, {@code num_hidden_layers}, {@code num_attention_heads},
 *       {@code intermediate_size}, {@code vocab_size}; optional {@code max_position_embeddings} (512),
 *       {@code type_vocab_size} (2); counted as {@code BertModel} with its pooler.
 *   <li>{@code t5}: {@code d_model}, {@code num_layers}, {@code num_heads}, {@code d_kv}, {@code d_ff},
 *       {@code vocab_size}; optional {@code num_decoder_layers} (= num_layers), {@code feed_forward_proj}
 *       ("relu"; "gated-…" means a gated MLP as in T5 v1.1), {@code relative_attention_num_buckets} (32),
 *       {@code n_positions} (512), {@code tie_word_embeddings} (true).
 *   <li>{@code mpt}: {@code d_model}, {@code n_layers}, {@code n_heads}, {@code vocab_size}; optional
 *       {@code expansion_ratio} (4), {@code max_seq_len} (2048), {@code no_bias} (true),
 *       {@code attn_config.alibi} (false), {@code attn_config.rope} (false), {@code learned_pos_emb} (true; a
 *       learned position table only without ALiBi and RoPE), {@code tie_word_embeddings} (true).
 * </ul>
 *
 * <p>The model's name is the last part of {@code _name_or_path} if present, else the name of the folder holding
 * the file.
 */
public final class HuggingFaceConfig {
  private HuggingFaceConfig() {}

  private static final ImmutableSortedSet<String> SUPPORTED =
      ImmutableSortedSet.of("bert", "gpt2", "gptj", "llama", "mistral", "mixtral", "mpt", "qwen2", "t5");

  /** The {@code model_type} values this reader understands, in alphabetical order. */
  public static ImmutableSortedSet<String> supportedModelTypes() {
    return SUPPORTED;
  }

  /**
   * Reads the configuration file.
   *
   * @throws ModelFileException if the file is missing or not JSON (with line and column), its {@code model_type} is
   *     absent or unsupported (listing the supported ones), a required field is missing, a field has the wrong type
   *     or is out of range, or the dimensions do not make a valid transformer
   * @throws UncheckedIOException if reading the file fails for another reason
   */
  public static Transformer read(Path configJson) {
    checkNotNull(configJson, "configJson");
    JsonConfig c = JsonConfig.read(configJson);
    String type = c.requireString("model_type", "a Hugging Face config");
    String name = name(c);
    Transformer.Builder b = switch (type) {
      case "llama" -> llamaLike(c, name, type, 2048)
          .extraBiases(llamaBiases(c));
      case "mistral" -> llamaLike(c, name, type, 131072);
      case "qwen2" -> llamaLike(c, name, type, 32768).extraBiases(BiasSite.QKV);
      case "mixtral" -> llamaLike(c, name, type, 131072)
          .experts(c.positiveInt("num_local_experts").orElse(8))
          .activeExperts(c.positiveInt("num_experts_per_tok").orElse(2));
      case "gpt2" -> gpt2Like(c, name, type, 1024, true);
      case "gptj" -> gpt2Like(c, name, type, 2048, false).positions(Positions.ROTARY).bias(false)
          .extraBiases(BiasSite.MLP, BiasSite.LM_HEAD).parallelBlock(true);
      case "bert" -> bert(c, name, type);
      case "t5" -> t5(c, name, type);
      case "mpt" -> mpt(c, name, type);
      default -> throw c.error("model_type", String.format("model_type '%s' is not supported; supported: %s",
          type, String.join(", ", SUPPORTED)));
    };
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new ModelFileException(configJson, "does not describe a valid transformer: " + e.getMessage(), e);
    }
  }

  private static String name(JsonConfig c) {
    return c.string("_name_or_path").filter(s -> !s.isBlank())
        .map(s -> s.replaceAll("[/\\\\]+$", ""))
        .map(s -> s.substring(Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\')) + 1))
        .filter(s -> !s.isBlank())
        .orElseGet(() -> {
          Path parent = c.file().toAbsolutePath().getParent();
          Path folder = parent == null ? null : parent.getFileName();
          return folder == null ? "model" : folder.toString();
        });
  }

  private static String needs(String type) {
    return "model_type '" + type + "'";
  }

  private static Transformer.Builder llamaLike(JsonConfig c, String name, String type, int defaultPositions) {
    String why = needs(type);
    int heads = c.requirePositiveInt("num_attention_heads", why);
    Transformer.Builder b = Transformer.builder(name)
        .layers(c.requirePositiveInt("num_hidden_layers", why))
        .hidden(c.requirePositiveInt("hidden_size", why))
        .heads(heads)
        .kvHeads(c.positiveInt("num_key_value_heads").orElse(heads))
        .ffn(c.requirePositiveInt("intermediate_size", why))
        .vocab(c.requirePositiveInt("vocab_size", why))
        .maxPositions(c.positiveInt("max_position_embeddings").orElse(defaultPositions))
        .gatedMlp(true).norm(Norm.RMS_NORM).positions(Positions.ROTARY).bias(false)
        .tiedEmbeddings(c.bool("tie_word_embeddings", false));
    c.positiveInt("head_dim").ifPresent(b::headDim);
    return b;
  }

  private static BiasSite[] llamaBiases(JsonConfig c) {
    boolean attention = c.bool("attention_bias", false);
    boolean mlp = c.bool("mlp_bias", false);
    if (attention && mlp) {
      return new BiasSite[] {BiasSite.QKV, BiasSite.ATTENTION_OUT, BiasSite.MLP};
    } else if (attention) {
      return new BiasSite[] {BiasSite.QKV, BiasSite.ATTENTION_OUT};
    } else if (mlp) {
      return new BiasSite[] {BiasSite.MLP};
    }
    return new BiasSite[0];
  }

  private static Transformer.Builder gpt2Like(JsonConfig c, String name, String type, int defaultPositions,
      boolean tied) {
    String why = needs(type);
    int hidden = c.requirePositiveInt("n_embd", why);
    return Transformer.builder(name)
        .layers(c.requirePositiveInt("n_layer", why))
        .hidden(hidden)
        .heads(c.requirePositiveInt("n_head", why))
        .ffn(c.positiveInt("n_inner").orElse(product(c, "n_embd", 4, hidden)))
        .vocab(c.requirePositiveInt("vocab_size", why))
        .maxPositions(c.positiveInt("n_positions").orElse(defaultPositions))
        .norm(Norm.LAYER_NORM).positions(Positions.LEARNED).bias(true)
        .tiedEmbeddings(c.bool("tie_word_embeddings", tied))
        .activation(activation(c, "activation_function", "gelu_new"));
  }

  /**
   * The activation's implementation from a config's activation name (transformers' {@code ACT2FN}): {@code gelu_new}
   * is {@code NewGELUActivation}, the tanh approximation in Python operations; every other name maps to one fused
   * kernel ({@code gelu} and {@code gelu_pytorch_tanh} to {@code F.gelu}, {@code silu}, {@code relu}).
   */
  private static Activation activation(JsonConfig c, String key, String absent) {
    return "gelu_new".equals(c.string(key).orElse(absent)) ? Activation.COMPOSED_TANH_GELU : Activation.FUSED;
  }

  /** {@code a × b} as an FFN width, which must fit an int. */
  private static int product(JsonConfig c, String key, int a, int b) {
    long p = (long) a * b;
    if (p > Integer.MAX_VALUE) {
      throw c.error(key, String.format("field '%s' makes an FFN width of %,d, more than %,d", key, p,
          Integer.MAX_VALUE));
    }
    return (int) p;
  }

  private static Transformer.Builder bert(JsonConfig c, String name, String type) {
    String why = needs(type);
    return Transformer.builder(name).stack(Stack.ENCODER)
        .layers(c.requirePositiveInt("num_hidden_layers", why))
        .hidden(c.requirePositiveInt("hidden_size", why))
        .heads(c.requirePositiveInt("num_attention_heads", why))
        .ffn(c.requirePositiveInt("intermediate_size", why))
        .vocab(c.requirePositiveInt("vocab_size", why))
        .maxPositions(c.positiveInt("max_position_embeddings").orElse(512))
        .typeVocab(c.positiveInt("type_vocab_size").orElse(2))
        .norm(Norm.LAYER_NORM).positions(Positions.LEARNED).bias(true).pooler(true)
        .tiedEmbeddings(true) // BertModel has no output head
        .activation(activation(c, "hidden_act", "gelu"));
  }

  private static Transformer.Builder t5(JsonConfig c, String name, String type) {
    String why = needs(type);
    int layers = c.requirePositiveInt("num_layers", why);
    String mlp = c.string("feed_forward_proj").orElse("relu");
    return Transformer.builder(name).stack(Stack.ENCODER_DECODER)
        .layers(layers)
        .decoderLayers(c.positiveInt("num_decoder_layers").orElse(layers))
        .hidden(c.requirePositiveInt("d_model", why))
        .heads(c.requirePositiveInt("num_heads", why))
        .headDim(c.requirePositiveInt("d_kv", why))
        .ffn(c.requirePositiveInt("d_ff", why))
        .vocab(c.requirePositiveInt("vocab_size", why))
        .maxPositions(c.positiveInt("n_positions").orElse(512))
        .gatedMlp(mlp.startsWith("gated-"))
        .norm(Norm.RMS_NORM).positions(Positions.RELATIVE_BIAS).bias(false)
        .relativeAttentionBuckets(
            c.positiveInt("relative_attention_num_buckets").orElse(Transformer.T5_RELATIVE_BUCKETS))
        .tiedEmbeddings(c.bool("tie_word_embeddings", true));
  }

  private static Transformer.Builder mpt(JsonConfig c, String name, String type) {
    String why = needs(type);
    int hidden = c.requirePositiveInt("d_model", why);
    int ratio = c.positiveInt("expansion_ratio").orElse(4);
    boolean noBias = c.bool("no_bias", true);
    // llm-foundry drops the learned position table when ALiBi or RoPE is on (MPTConfig.__init__: "alibi or rope is
    // turned on, setting learned_pos_emb to False"), which is
    // why mosaicml/mpt-7b's checkpoint holds no wpe although its config says learned_pos_emb: true.
    Positions positions = c.bool("attn_config.alibi", false) ? Positions.ALIBI
        : c.bool("attn_config.rope", false) || !c.bool("learned_pos_emb", true) ? Positions.ROTARY
        : Positions.LEARNED;
    return Transformer.builder(name)
        .layers(c.requirePositiveInt("n_layers", why))
        .hidden(hidden)
        .heads(c.requirePositiveInt("n_heads", why))
        .ffn(product(c, "expansion_ratio", ratio, hidden))
        .vocab(c.requirePositiveInt("vocab_size", why))
        .maxPositions(c.positiveInt("max_seq_len").orElse(2048))
        .norm(noBias ? Norm.LAYER_NORM_NO_BIAS : Norm.LAYER_NORM)
        .positions(positions)
        .bias(!noBias)
        .tiedEmbeddings(c.bool("tie_word_embeddings", true));
  }
}
