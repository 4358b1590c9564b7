package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import io.github.gpusizer.catalog.EditDistance;
import com.google.common.base.CharMatcher;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Well-known models by name, each with the source its architecture comes from.
 *
 * <pre>{@code
 * ModelSpec llama = Presets.get("llama-2-7b");   // also "Llama_2_7B", "llama2-7b"
 * long n = llama.parameters();                   // 6,738,415,616
 * String cite = Presets.source("llama-2-7b").orElseThrow();
 * }</pre>
 *
 * <p>Transformers are given by their Hugging Face {@code config.json} dimensions and count their parameters from
 * them; image models are walked layer by layer from their reference implementation (torchvision, diffusers, Ultralytics) at
 * their reference resolution; nothing is a parameter count typed in by hand.
 */
public final class Presets {
  private Presets() {}

  private record Preset(ModelSpec model, String source) {}

  /** Citation pattern of a torchvision model: the file and the weights' metadata the numbers are pinned to. */
  private static final String TORCHVISION = "torchvision %s (github.com/pytorch/vision, torchvision/models/%s.py);"
      + " parameters pinned to the weights' \"num_params\" %s, FLOPs to \"_ops\" %s GMACs at 224x224";

  /**
   * Whisper's encoder positions: 30 s of audio at 100 mel frames per second, halved by the stride-2 second
   * convolution ({@code max_source_positions} in every openai/whisper-* config.json).
   */
  private static final int WHISPER_SOURCE_POSITIONS = 1500;

  /** Whisper's decoder positions ({@code max_target_positions} in every openai/whisper-* config.json). */
  private static final int WHISPER_TARGET_POSITIONS = 448;

  /** Ids in a stable order: image models, encoders, decoders by family, others. */
  private static final ImmutableMap<String, Preset> PRESETS = build();

  /** Normalised id (lower case, no {@code - _ .} or spaces) to id. */
  private static final ImmutableMap<String, String> BY_KEY = index();

  /** How far (in edits of the normalised name) a misspelling may be from a suggestion. */
  private static final int MAX_SUGGESTION_DISTANCE = 3;

  /**
   * The preset of that id, matched ignoring case and the separators {@code -}, {@code _}, {@code .} and spaces.
   *
   * @throws IllegalArgumentException for an unknown id, naming the closest known ids
   */
  public static ModelSpec get(String id) {
    checkNotNull(id, "id");
    String known = BY_KEY.get(key(id));
    if (known == null) {
      throw new IllegalArgumentException(unknown(id));
    }
    return PRESETS.get(known).model();
  }

  /** All preset ids, in a stable order. */
  public static ImmutableSet<String> ids() {
    return PRESETS.keySet();
  }

  /** Where the preset's architecture comes from (paper, configuration file, reference code); empty if unknown. */
  public static Optional<String> source(String id) {
    checkNotNull(id, "id");
    return Optional.ofNullable(BY_KEY.get(key(id))).map(k -> PRESETS.get(k).source());
  }

  private static String key(String id) {
    return CharMatcher.anyOf("-_. ").removeFrom(id.toLowerCase(Locale.ROOT));
  }

  private static String unknown(String id) {
    String k = key(id);
    Map<String, Integer> distance = new HashMap<>();
    BY_KEY.forEach((normalised, known) -> distance.put(known, EditDistance.between(k, normalised)));
    int best = distance.values().stream().min(Integer::compare).orElse(Integer.MAX_VALUE);
    if (best > MAX_SUGGESTION_DISTANCE) {
      return String.format("unknown model '%s'; known models: %s", id, String.join(", ", PRESETS.keySet()));
    }
    List<String> closest = distance.entrySet().stream().filter(e -> e.getValue() == best).map(Map.Entry::getKey)
        .sorted(Comparator.naturalOrder()).collect(Collectors.toList());
    return String.format("unknown model '%s'; did you mean: %s?", id, String.join(", ", closest));
  }

  private static ImmutableMap<String, String> index() {
    Map<String, String> byKey = new LinkedHashMap<>();
    for (String id : PRESETS.keySet()) {
      String previous = byKey.put(key(id), id);
      checkState(previous == null, "preset ids %s and %s are ambiguous without case and separators", previous, id);
    }
    return ImmutableMap.copyOf(byKey);
  }

  private static ImmutableMap<String, Preset> build() {
    ImmutableMap.Builder<String, Preset> p = ImmutableMap.builder();
    int side = Architectures.IMAGENET_SIDE;

    // Image models, walked layer by layer at 224x224.
    image(p, "resnet18", Architectures.resnet(false, new int[] {2, 2, 2, 2}, side),
        torchvision("resnet18", "resnet", "11,689,512", "1.814") + "; He et al. 2016, arXiv:1512.03385");
    image(p, "resnet34", Architectures.resnet(false, new int[] {3, 4, 6, 3}, side),
        torchvision("resnet34", "resnet", "21,797,672", "3.664") + "; He et al. 2016, arXiv:1512.03385");
    image(p, "resnet50", Architectures.resnet(true, new int[] {3, 4, 6, 3}, side),
        torchvision("resnet50 (v1.5)", "resnet", "25,557,032", "4.089") + "; He et al. 2016, arXiv:1512.03385");
    image(p, "resnet101", Architectures.resnet(true, new int[] {3, 4, 23, 3}, side),
        torchvision("resnet101 (v1.5)", "resnet", "44,549,160", "7.801") + "; He et al. 2016, arXiv:1512.03385");
    image(p, "resnet152", Architectures.resnet(true, new int[] {3, 8, 36, 3}, side),
        torchvision("resnet152 (v1.5)", "resnet", "60,192,808", "11.514") + "; He et al. 2016, arXiv:1512.03385");
    image(p, "vgg16", Architectures.vgg16(side),
        torchvision("vgg16", "vgg", "138,357,544", "15.47") + "; Simonyan & Zisserman 2015, arXiv:1409.1556");
    image(p, "mobilenet-v2", Architectures.mobileNetV2(side),
        torchvision("mobilenet_v2", "mobilenetv2", "3,504,872", "0.301") + "; Sandler et al. 2018, arXiv:1801.04381");
    image(p, "efficientnet-b0", Architectures.efficientNetB0(side),
        torchvision("efficientnet_b0", "efficientnet", "5,288,548", "0.386") + "; Tan & Le 2019, arXiv:1905.11946");
    image(p, "convnext-tiny", Architectures.convNextTiny(side),
        torchvision("convnext_tiny", "convnext", "28,589,128", "4.456") + "; Liu et al. 2022, arXiv:2201.03545");
    image(p, "vit-b-16", Architectures.vit(12, 768, 12, 3072, side),
        torchvision("vit_b_16", "vision_transformer", "86,567,656", "17.564")
            + "; Dosovitskiy et al. 2021, arXiv:2010.11929 (modelled as image-model numbers, not a Transformer)");
    image(p, "vit-l-16", Architectures.vit(24, 1024, 16, 4096, side),
        torchvision("vit_l_16", "vision_transformer", "304,326,632", "61.555")
            + "; Dosovitskiy et al. 2021, arXiv:2010.11929 (modelled as image-model numbers, not a Transformer)");
    int yolo = Architectures.YOLO_SIDE;
    p.put("yolov8s", new Preset(Architectures.yolov8(0.33, 0.50, 1024, yolo).toConvNet("yolov8s", yolo),
        yolov8Source("s", "[0.33, 0.50, 1024]", "11,166,560", "225", "11.2", "28.6")));
    p.put("yolov8m", new Preset(Architectures.yolov8(0.67, 0.75, 768, yolo).toConvNet("yolov8m", yolo),
        yolov8Source("m", "[0.67, 0.75, 768]", "25,902,640", "295", "25.9", "78.9")));
    int detection = Architectures.DETECTION_SIDE;
    p.put("fasterrcnn-resnet50-fpn", new Preset(Architectures.fasterRcnnResnet50Fpn(detection,
        Architectures.FASTER_RCNN_TRAINING_ROIS)
        .toConvNet("fasterrcnn-resnet50-fpn", detection), detectionSource("faster_rcnn.py",
        "fasterrcnn_resnet50_fpn", "41,755,286", "134.38",
        "; the box head runs on the 512 regions a training image samples (1,000 proposals at inference);"
            + " Ren et al. 2015, arXiv:1506.01497; Lin et al. 2017, arXiv:1612.03144")));
    p.put("retinanet-resnet50-fpn", new Preset(Architectures.retinaNetResnet50Fpn(detection)
        .toConvNet("retinanet-resnet50-fpn", detection), detectionSource("retinanet.py",
        "retinanet_resnet50_fpn", "34,014,999", "151.54", "; Lin et al. 2017, arXiv:1708.02002")));
    p.put("ppo-atari-nature-cnn", new Preset(Architectures.natureCnn(4, Architectures.ATARI_SIDE)
        .toConvNet("ppo-atari-nature-cnn", Architectures.ATARI_SIDE),
        "PPO's actor-critic for Atari as CleanRL writes it (github.com/vwxyzjn/cleanrl, cleanrl/ppo_atari.py, Agent:"
            + " the Nature DQN convolutions over 4 stacked 84x84 frames, 512 hidden, actor and critic heads), with"
            + " Breakout's 4 actions: 1,686,693 parameters; Mnih et al. 2015, Nature 518:529; Schulman et al. 2017,"
            + " arXiv:1707.06347. The environments step on the CPU: give Task.cpuMsPerSample the CPU time of one"
            + " agent step divided by PPO's update epochs (each step is trained on that many times); EnvPool steps"
            + " ALE at about 1 ms per agent step (frame skip 4) per core, 1 M frames/s on 256 cores (sail-sg/envpool"
            + " README), and Python subprocess vector environments at about 3 times that on 12 cores"));
    int sdImage = Architectures.SD_VAE_FACTOR * 64;
    p.put("stable-diffusion-unet", new Preset(
        Architectures.stableDiffusionUnet(64).toConvNet("stable-diffusion-unet", sdImage),
        "Stable Diffusion 1.5 UNet2DConditionModel (huggingface.co/runwayml/stable-diffusion-v1-5 unet/config.json;"
            + " diffusers unet_2d_condition.py), 859,520,964 parameters; one denoising step of one sample, walked at"
            + " the 64x64 latent of a 512x512 image with 77 text tokens (the reference resolution is the image side,"
            + " 512, the default image size of a task); Rombach et al. 2022, arXiv:2112.10752"));

    // Encoders.
    p.put("bert-base", new Preset(bert("bert-base", 12, 768, 12),
        "BERT-base uncased, BertModel with pooler (huggingface.co/google-bert/bert-base-uncased config.json);"
            + " 109,482,240 parameters as keras-hub bert_presets.py \"bert_base_en_uncased\"; Devlin et al. 2019,"
            + " arXiv:1810.04805"));
    p.put("bert-large", new Preset(bert("bert-large", 24, 1024, 16),
        "BERT-large uncased, BertModel with pooler (huggingface.co/google-bert/bert-large-uncased config.json);"
            + " 335,141,888 parameters as keras-hub bert_presets.py \"bert_large_en_uncased\"; Devlin et al. 2019,"
            + " arXiv:1810.04805"));

    // GPT-2.
    p.put("gpt2", new Preset(gpt2("gpt2", 12, 768, 12), gpt2Source("openai-community/gpt2", "124,439,808",
        "gpt2_base_en")));
    p.put("gpt2-medium", new Preset(gpt2("gpt2-medium", 24, 1024, 16),
        gpt2Source("openai-community/gpt2-medium", "354,823,168", "gpt2_medium_en")));
    p.put("gpt2-large", new Preset(gpt2("gpt2-large", 36, 1280, 20),
        gpt2Source("openai-community/gpt2-large", "774,030,080", "gpt2_large_en")));
    p.put("gpt2-xl", new Preset(gpt2("gpt2-xl", 48, 1600, 25),
        gpt2Source("openai-community/gpt2-xl", "1,557,611,200", "gpt2_extra_large_en")));

    // T5 (original, ReLU MLP, tied embeddings).
    p.put("t5-base", new Preset(t5("t5-base", 12, 768, 12, 64, 3072),
        "T5-base (huggingface.co/google-t5/t5-base config.json: d_model 768, d_kv 64, d_ff 3072, 12+12 layers,"
            + " 32 relative buckets, tied); 222,903,552 parameters as keras-nlp t5_presets.py \"t5_base\";"
            + " Raffel et al. 2020, arXiv:1910.10683"));
    p.put("t5-3b", new Preset(t5("t5-3b", 24, 1024, 32, 128, 16384),
        "T5-3B (huggingface.co/google-t5/t5-3b config.json: d_model 1024, d_kv 128, 32 heads, d_ff 16384,"
            + " 24+24 layers); 2,851,598,336 parameters as keras-nlp t5_presets.py \"t5_3b\"; Raffel et al. 2020"));

    // Whisper (encoder-decoder over a log-mel spectrogram).
    p.put("whisper-small", new Preset(whisper("whisper-small", 12, 768, 12, 3072, 51865, 80),
        whisperSource("openai/whisper-small", "d_model 768, 12+12 layers, 12 heads, ffn 3072, vocab 51865, 80 mel bins",
            "241,734,912 parameters (Hugging Face safetensors total; card: 244M)")));
    p.put("whisper-medium", new Preset(whisper("whisper-medium", 24, 1024, 16, 4096, 51865, 80),
        whisperSource("openai/whisper-medium",
            "d_model 1024, 24+24 layers, 16 heads, ffn 4096, vocab 51865, 80 mel bins",
            "763,857,920 parameters counted as WhisperForConditionalGeneration's (Hugging Face: 764M; card: 769M)")));
    p.put("whisper-large-v3", new Preset(whisper("whisper-large-v3", 32, 1280, 20, 5120, 51866, 128),
        whisperSource("openai/whisper-large-v3",
            "d_model 1280, 32+32 layers, 20 heads, ffn 5120, vocab 51866, 128 mel bins",
            "1,543,490,560 parameters counted as WhisperForConditionalGeneration's (Hugging Face: 1.54B; card:"
                + " 1550M)")));

    // Llama family.
    p.put("llama-2-7b", new Preset(llama("llama-2-7b", 32, 4096, 32, 32, 11008, 32000, 4096, false),
        "Llama 2 7B (huggingface.co/meta-llama/Llama-2-7b-hf config.json); 6,738,415,616 parameters as keras-hub"
            + " llama_presets.py \"llama2_7b_en\"; Touvron et al. 2023, arXiv:2307.09288"));
    p.put("llama-2-13b", new Preset(llama("llama-2-13b", 40, 5120, 40, 40, 13824, 32000, 4096, false),
        "Llama 2 13B (huggingface.co/meta-llama/Llama-2-13b-hf config.json); 13,015,864,320 parameters;"
            + " Touvron et al. 2023, arXiv:2307.09288"));
    p.put("llama-2-70b", new Preset(llama("llama-2-70b", 80, 8192, 64, 8, 28672, 32000, 4096, false),
        "Llama 2 70B (huggingface.co/meta-llama/Llama-2-70b-hf config.json, GQA with 8 KV heads);"
            + " 68,976,648,192 parameters; Touvron et al. 2023, arXiv:2307.09288"));
    p.put("llama-3-8b", new Preset(llama("llama-3-8b", 32, 4096, 32, 8, 14336, 128256, 8192, false),
        "Llama 3 8B (huggingface.co/meta-llama/Meta-Llama-3-8B config.json); 8,030,261,248 parameters as"
            + " keras-hub llama3_presets.py \"llama3_8b_en\"; Llama Team 2024, arXiv:2407.21783"));
    p.put("llama-3-70b", new Preset(llama("llama-3-70b", 80, 8192, 64, 8, 28672, 128256, 8192, false),
        "Llama 3 70B (huggingface.co/meta-llama/Meta-Llama-3-70B config.json); 70,553,706,496 parameters"
            + " (Hugging Face safetensors total); Llama Team 2024, arXiv:2407.21783"));
    p.put("llama-3.1-405b", new Preset(llama("llama-3.1-405b", 126, 16384, 128, 8, 53248, 128256, 131072, false),
        "Llama 3.1 405B (huggingface.co/meta-llama/Llama-3.1-405B config.json); 405,853,388,800 parameters"
            + " (Hugging Face safetensors total); Llama Team 2024, arXiv:2407.21783, table 3"));
    p.put("llama-3.2-3b", new Preset(llama("llama-3.2-3b", 28, 3072, 24, 8, 8192, 128256, 131072, true),
        "Llama 3.2 3B (huggingface.co/meta-llama/Llama-3.2-3B config.json: head_dim 128, tied embeddings);"
            + " 3,212,749,824 parameters (Hugging Face safetensors BF16 total)"));
    p.put("tinyllama-1.1b", new Preset(llama("tinyllama-1.1b", 22, 2048, 32, 4, 5632, 32000, 2048, false),
        "TinyLlama 1.1B (huggingface.co/TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T config.json);"
            + " 1,100,048,384 parameters (model.num_parameters()); Zhang et al. 2024, arXiv:2401.02385"));
    p.put("mistral-7b", new Preset(llama("mistral-7b", 32, 4096, 32, 8, 14336, 32000, 32768, false),
        "Mistral 7B v0.1 (huggingface.co/mistralai/Mistral-7B-v0.1 config.json); 7,241,732,096 parameters as"
            + " keras-hub mistral_presets.py \"mistral_7b_en\"; Jiang et al. 2023, arXiv:2310.06825"));
    p.put("mixtral-8x7b", new Preset(
        llama("mixtral-8x7b", 32, 4096, 32, 8, 14336, 32000, 32768, false).toBuilder()
            .experts(8).activeExperts(2).build(),
        "Mixtral 8x7B v0.1 (huggingface.co/mistralai/Mixtral-8x7B-v0.1 config.json: 8 experts, 2 per token);"
            + " 46,702,792,704 parameters as keras-hub mixtral_presets.py \"mixtral_8_7b_en\", about 12.9B active;"
            + " Jiang et al. 2024, arXiv:2401.04088"));
    p.put("qwen2.5-7b", new Preset(qwen("qwen2.5-7b", 28, 3584, 28, 4, 18944, 131072),
        "Qwen2.5-7B (huggingface.co/Qwen/Qwen2.5-7B config.json: q/k/v biases only); 7,615,616,512 parameters as"
            + " keras-hub qwen_presets.py \"qwen2.5_math_7b_en\" (same architecture); Qwen Team 2024,"
            + " arXiv:2412.15115"));
    p.put("qwen2.5-72b", new Preset(qwen("qwen2.5-72b", 80, 8192, 64, 8, 29568, 131072),
        "Qwen2.5-72B (huggingface.co/Qwen/Qwen2.5-72B config.json); 72,706,203,648 parameters as keras-hub"
            + " qwen_presets.py \"qwen2.5_instruct_72b_en\"; Qwen Team 2024, arXiv:2412.15115"));

    // Others.
    p.put("mpt-7b", new Preset(mpt("mpt-7b", 32, 4096, 32, 2048),
        "MPT-7B (huggingface.co/mosaicml/mpt-7b config.json: no_bias, ALiBi, tied, vocab 50432); 6,649,286,656"
            + " parameters = half of the bfloat16 checkpoint's index total_size 13,298,573,312 bytes (card: 6.7B)"));
    p.put("mpt-30b", new Preset(mpt("mpt-30b", 48, 7168, 64, 8192),
        "MPT-30B (huggingface.co/mosaicml/mpt-30b config.json: d_model 7168, 48 layers, 64 heads); model card:"
            + " 29.95B parameters"));
    p.put("gpt-j-6b", new Preset(Transformer.builder("gpt-j-6b")
            .layers(28).hidden(4096).heads(16).ffn(16384).vocab(50400).maxPositions(2048)
            .norm(Norm.LAYER_NORM).positions(Positions.ROTARY).bias(false)
            .extraBiases(BiasSite.MLP, BiasSite.LM_HEAD).parallelBlock(true).tiedEmbeddings(false)
            .activation(Activation.COMPOSED_TANH_GELU).build(), // config: "gelu_new"
        "GPT-J-6B (huggingface.co/EleutherAI/gpt-j-6b config.json; Hugging Face GPTJForCausalLM: one LayerNorm per"
            + " parallel block, bias-free attention, MLP and lm_head biases); 6,050,882,784 parameters as counted"
            + " for the PyTorch model (the card's 6,053,381,344 is mesh-transformer-jax's count)"));
    p.put("gnmt-v2", new Preset(Recurrent.gnmt("gnmt-v2", 4, 4, 1024, 32320),
        "GNMT v2 as NVIDIA trains it for MLPerf (NVIDIA/DeepLearningExamples PyTorch/Translation/GNMT README: 4-layer"
            + " LSTM encoder, the first layer bidirectional, 4-layer LSTM decoder, hidden 1024, shared embeddings,"
            + " normalised Bahdanau attention whose context feeds every later decoder layer; WMT16 en-de BPE"
            + " vocabulary padded to 32,320); 160,671,297 parameters as NVIDIA/apex's distributed-optimizer test"
            + " states (\"MLPerf GNMT has 160671297 parameters\", with the tensor shapes); Wu et al. 2016,"
            + " arXiv:1609.08144"));
    p.put("lstm-lm", new Preset(new Recurrent("lstm-lm", Recurrent.Cell.LSTM, 2, 1500, 1500, 33278, true),
        "PyTorch examples word_language_model, large tied LSTM (README: --emsize 1500 --nhid 1500 --tied,"
            + " 2 layers by default) on WikiText-2 (vocabulary 33,278: Merity et al. 2016, arXiv:1609.07843)"));
    return p.buildOrThrow();
  }

  private static String torchvision(String model, String file, String params, String gmacs) {
    return String.format(TORCHVISION, model, file, params, gmacs);
  }

  private static String yolov8Source(String scale, String multiples, String params, String layers, String millions,
      String gflops) {
    return "Ultralytics YOLOv8" + scale + " detection (github.com/ultralytics/ultralytics,"
        + " ultralytics/cfg/models/v8/yolov8.yaml scale " + scale + ": " + multiples + " depth, width, max channels;"
        + " C2f and SPPF in nn/modules/block.py, Detect with DFL reg_max 16 in nn/modules/head.py, 80 COCO classes);"
        + " parameters pinned to the yaml's model summary \"" + layers + " layers, " + params + " parameters\" (docs: "
        + millions + "M), FLOPs to the docs' " + gflops + " GFLOPs at 640x640 (fused, 2 per MAC); walked at 640x640"
        + ", the default image size of a task";
  }

  private static String detectionSource(String file, String builder, String params, String gmacs, String more) {
    return "torchvision " + builder + " v1 (pytorch/vision torchvision/models/detection/" + file + ", COCO_V1 weights"
        + " meta: num_params " + params + ", _ops " + gmacs + " GFLOPS, counted one per multiply-accumulate at"
        + " min_size 800; ResNet-50 body with FrozenBatchNorm2d, FPN, 91 COCO categories); walked layer by layer at"
        + " 800x800 (COCO's 4:3 images resize to about 800x1066, a third more pixels: give an image size of 924 for"
        + " that area)" + more;
  }

  private static void image(ImmutableMap.Builder<String, Preset> p, String id, LayerCalculator c, String source) {
    p.put(id, new Preset(c.toConvNet(id, Architectures.IMAGENET_SIDE), source));
  }

  private static Transformer bert(String name, int layers, int hidden, int heads) {
    return Transformer.builder(name).stack(Stack.ENCODER).layers(layers).hidden(hidden).heads(heads)
        .vocab(30522).maxPositions(512).typeVocab(2).pooler(true).tiedEmbeddings(true).build();
  }

  private static Transformer gpt2(String name, int layers, int hidden, int heads) {
    return Transformer.builder(name).layers(layers).hidden(hidden).heads(heads).vocab(50257).maxPositions(1024)
        .tiedEmbeddings(true).activation(Activation.COMPOSED_TANH_GELU).build(); // config: "gelu_new"
  }

  private static String gpt2Source(String repo, String params, String keras) {
    return "GPT-2 (huggingface.co/" + repo + " config.json: vocab 50257, 1024 positions, tied); " + params
        + " parameters as keras-hub gpt2_presets.py \"" + keras + "\"; Radford et al. 2019";
  }

  private static Transformer t5(String name, int layers, int hidden, int heads, int headDim, int ffn) {
    return Transformer.builder(name).stack(Stack.ENCODER_DECODER).layers(layers).decoderLayers(layers)
        .hidden(hidden).heads(heads).headDim(headDim).ffn(ffn).vocab(32128).maxPositions(512)
        .norm(Norm.RMS_NORM).positions(Positions.RELATIVE_BIAS).bias(false).tiedEmbeddings(true).build();
  }

  /**
   * Whisper as Hugging Face's {@code WhisperForConditionalGeneration} builds it: LayerNorm, GELU MLP with biases,
   * q/v/out biases but none on k, learned decoder positions ({@code max_target_positions}), a stored sinusoidal
   * encoder table ({@code max_source_positions}), the two-convolution front-end, and {@code proj_out} tied to the
   * token embedding.
   */
  private static Transformer whisper(String name, int layers, int hidden, int heads, int ffn, int vocab,
      int melBins) {
    return Transformer.builder(name).stack(Stack.ENCODER_DECODER).layers(layers).decoderLayers(layers)
        .hidden(hidden).heads(heads).ffn(ffn).vocab(vocab).maxPositions(WHISPER_TARGET_POSITIONS)
        .encoderPositions(WHISPER_SOURCE_POSITIONS).melBins(melBins).norm(Norm.LAYER_NORM)
        .positions(Positions.LEARNED).bias(false)
        .extraBiases(BiasSite.QUERY_VALUE, BiasSite.ATTENTION_OUT, BiasSite.MLP).tiedEmbeddings(true).build();
  }

  private static String whisperSource(String repo, String dims, String params) {
    return "Whisper (huggingface.co/" + repo + " config.json: " + dims + ", max_source_positions "
        + WHISPER_SOURCE_POSITIONS + ", max_target_positions " + WHISPER_TARGET_POSITIONS + "; transformers"
        + " modeling_whisper.py: k_proj without bias, two kernel-3 Conv1d, sinusoidal encoder positions stored as a"
        + " frozen embedding, tied proj_out); " + params + "; Radford et al. 2022, arXiv:2212.04356";
  }

  private static Transformer llama(String name, int layers, int hidden, int heads, int kvHeads, int ffn, int vocab,
      int maxPositions, boolean tied) {
    return Transformer.builder(name).layers(layers).hidden(hidden).heads(heads).kvHeads(kvHeads).ffn(ffn)
        .vocab(vocab).maxPositions(maxPositions).gatedMlp(true).norm(Norm.RMS_NORM).positions(Positions.ROTARY)
        .bias(false).tiedEmbeddings(tied).build();
  }

  private static Transformer qwen(String name, int layers, int hidden, int heads, int kvHeads, int ffn,
      int maxPositions) {
    return llama(name, layers, hidden, heads, kvHeads, ffn, 152064, maxPositions, false).toBuilder()
        .extraBiases(BiasSite.QKV).build();
  }

  private static Transformer mpt(String name, int layers, int hidden, int heads, int maxPositions) {
    return Transformer.builder(name).layers(layers).hidden(hidden).heads(heads).ffn(4 * hidden).vocab(50432)
        .maxPositions(maxPositions).norm(Norm.LAYER_NORM_NO_BIAS).positions(Positions.ALIBI).bias(false)
        .tiedEmbeddings(true).build();
  }
}
