package io.github.gpusizer.examples.cli;

import static com.google.common.base.Preconditions.checkArgument;
import static io.github.gpusizer.examples.support.Words.ATTENTION;
import static io.github.gpusizer.examples.support.Words.CHECKPOINTING;
import static io.github.gpusizer.examples.support.Words.DEFAULT_LORA_RANK;
import static io.github.gpusizer.examples.support.Words.DROPOUT;
import static io.github.gpusizer.examples.support.Words.ENGINES;
import static io.github.gpusizer.examples.support.Words.LORA_TARGETS;
import static io.github.gpusizer.examples.support.Words.LOSSES;
import static io.github.gpusizer.examples.support.Words.ON_OFF;
import static io.github.gpusizer.examples.support.Words.OPTIMIZERS;
import static io.github.gpusizer.examples.support.Words.PRECISIONS;
import static io.github.gpusizer.examples.support.Words.QUANT;
import static io.github.gpusizer.examples.support.Words.TASKS;

import com.google.common.base.Splitter;
import io.github.gpusizer.core.model.Generic;
import io.github.gpusizer.core.model.HuggingFaceConfig;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Norm;
import io.github.gpusizer.core.model.Positions;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.model.Safetensors;
import io.github.gpusizer.core.model.SafetensorsInfo;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Dataset;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.LoraTarget;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.TaskKind;
import io.github.gpusizer.core.task.ZeroStage;
import io.github.gpusizer.examples.support.Quantities;
import io.github.gpusizer.examples.support.Words;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Option;

/** The options that describe a task, shared by {@code estimate}, {@code recommend} and {@code check}. */
final class TaskOptions {

  // ---- the model: exactly one source
  @Option(names = "--model", paramLabel = "ID", description = "A preset model, e.g. llama-2-7b, resnet50, gpt2.")
  String model;

  @Option(names = "--hf-config", paramLabel = "PATH", description = "A local Hugging Face config.json.")
  Path hfConfig;

  @Option(names = "--safetensors", paramLabel = "PATH",
      description = "A local .safetensors file (its header gives the exact parameter count).")
  Path safetensors;

  @Option(names = "--transformer", paramLabel = "SPEC",
      description = "layers=L,hidden=H,heads=A[,kv-heads=K,ffn=F,vocab=V,glu=true|false,tied=true|false]")
  String transformer;

  @Option(names = "--params", paramLabel = "N", converter = Converters.Count.class,
      description = "Only a parameter count (7B, 1.5e9); FLOPs assumed 2 per parameter per token or sample.")
  Long params;

  // ---- what is done
  @Option(names = "--task", completionCandidates = Completions.Tasks.class, paramLabel = "train|finetune|lora|qlora|infer", defaultValue = "train",
      description = "What is done with the model (default: ${DEFAULT-VALUE}).")
  String task = "train";

  @Option(names = "--precision", completionCandidates = Completions.Precisions.class, paramLabel = "fp32|tf32|fp16|bf16|bf16-pure|fp8",
      description = "Numeric recipe; bf16-pure keeps weights, gradients and optimizer state in BF16 "
          + "(default: bf16 for training, bf16-pure for LoRA, QLoRA and inference).")
  String precision;

  @Option(names = "--optimizer", completionCandidates = Completions.Optimizers.class, paramLabel = "NAME",
      description = "sgd, sgd-momentum, adam, adamw (default), adam-8bit, adafactor or lamb.")
  String optimizer;

  @Option(names = "--micro-batch", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Samples per GPU per step (default: the largest that fits at the high end of the memory "
          + "estimate and divides --global-batch, in recommend, estimate and compare alike).")
  Integer microBatch;

  /**
   * The task at the micro-batch {@code recommend} would run it at on this hardware and layout where --micro-batch was
   * not given ({@link io.github.gpusizer.core.GpuSizer#largestMicroBatch}), the task as it is otherwise (also where
   * none fits: the estimate then says so).
   */
  io.github.gpusizer.core.task.Task withOpenMicroBatch(io.github.gpusizer.core.task.Task task,
      io.github.gpusizer.core.estimate.Hardware hardware, io.github.gpusizer.core.task.Layout layout,
      io.github.gpusizer.core.estimate.Estimator estimator) {
    if (microBatch != null) {
      return task;
    }
    // sized with the recipe the estimate runs on this GPU (BF16 becomes FP16 mixed on a V100)
    java.util.OptionalInt mb = io.github.gpusizer.core.GpuSizer.largestMicroBatch(task.forGpu(hardware.gpu()),
        hardware, layout, estimator);
    return mb.isPresent() && mb.getAsInt() != task.microBatch() ? task.toBuilder().microBatch(mb.getAsInt()).build()
        : task;
  }

  /** What the output says of a micro-batch the tool chose ({@link #withOpenMicroBatch}); empty if the user gave one. */
  java.util.Optional<String> microBatchNote(io.github.gpusizer.core.task.Task task) {
    return microBatch != null ? java.util.Optional.empty() : java.util.Optional.of("micro-batch " + task.microBatch()
        + ", the largest that fits; give --micro-batch to fix it");
  }

  @Option(names = "--global-batch", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Samples per optimizer step over all GPUs (default: one micro-batch per GPU).")
  Integer globalBatch;

  @Option(names = "--seq", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Tokens per sample (default: the model's own context, at most 8192; for infer see --prompt).")
  Integer seq;

  @Option(names = "--image-size", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Image side in pixels for image models (default: the model's own resolution, e.g. "
          + "224 for ResNet, 640 for YOLOv8, 512 for the Stable Diffusion UNet).")
  Integer imageSize;

  @Option(names = "--checkpointing", completionCandidates = Completions.CheckpointingModes.class, paramLabel = "none|selective|full", description = "Activation recomputation.")
  String checkpointing;

  @Option(names = "--zero", paramLabel = "0..3", description = "ZeRO stage; 3 = FSDP full shard (default 0).")
  Integer zero;

  @Option(names = "--tp", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Tensor-parallel degree (default 1).")
  Integer tp;

  @Option(names = "--pp", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Pipeline-parallel degree (default 1).")
  Integer pp;

  @Option(names = "--framework", completionCandidates = Completions.Frameworks.class, paramLabel = "NAME",
      description = "The software stack, whose settings (execution mode, attention and loss kernels, recomputation, "
          + "precision, gradient-reduction format, quantised kernels) fill every option left open: pytorch "
          + "(default for training), hf-trainer, torchtitan, megatron, deepspeed, torchtune, unsloth, litgpt, "
          + "llm-foundry, nvidia-dle, timm, ffcv, detectron2, tensorflow, jax; hf-generate (default for --task "
          + "infer), gpt-fast, vllm, sglang, tensorrt-llm, lmdeploy, tgi, deepspeed-inference, llama.cpp, exllamav2, "
          + "mlc-llm. Options given explicitly override it.")
  String framework;

  @Option(names = "--engine", completionCandidates = Completions.Engines.class,
      paramLabel = "eager|compiled|serving|tensorflow",
      description = "How the kernels run: eager PyTorch (default; ~1.2 ms of Python per transformer layer, ~20 us "
          + "per kernel), compiled (torch.compile / CUDA graphs: no per-kernel host time), serving "
          + "(vLLM / TensorRT-LLM: CUDA graphs and its own memory pool of 90%% of the GPU; infer only), or "
          + "tensorflow (a TensorFlow graph: its executor, and its BFC allocator, which leaves 5%% of the free memory "
          + "to the system).")
  String engine;

  @Option(names = "--flash-attention", completionCandidates = Completions.OnOff.class, paramLabel = "on|off", description = "Fused attention (default on); --attention says which kernel.")
  String flashAttention;

  @Option(names = "--attention", completionCandidates = Completions.Attention.class,
      paramLabel = "flash|fused-softmax|eager",
      description = "The attention kernel: flash (FlashAttention / SDPA, the default: no scores stored), "
          + "fused-softmax (Megatron-LM's fused 16-bit softmax between two matmuls) or eager (operator by operator, "
          + "the softmax kept in FP32 under autocast).")
  String attention;

  @Option(names = "--loss", completionCandidates = Completions.Losses.class, paramLabel = "materialized|chunked|fused",
      description = "How the logits are held for the loss: materialized (Hugging Face, LitGPT: all of them, upcast to "
          + "FP32; the default), chunked (torchtune's chunked cross-entropy: one FP32 chunk of 8 at a time) or fused "
          + "(Liger Kernel's or Unsloth's fused linear cross-entropy: never all of them).")
  String loss;

  @Option(names = "--dropout", completionCandidates = Completions.Dropouts.class, paramLabel = "pytorch|tensorflow",
      description = "How the transformer's dropout keeps its state for the backward pass: pytorch (a one-byte mask, "
          + "the default) or tensorflow (tf.nn.dropout: a mask in the activations' format, as Google's and "
          + "NVIDIA's TensorFlow BERT).")
  String dropout;

  @Option(names = "--shard-group", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Data-parallel ranks that share one copy of the ZeRO-sharded state (HSDP, FSDP's HYBRID_SHARD: "
          + "e.g. the GPUs of one node); default all of them (estimate only).")
  Integer shardGroup;

  @Option(names = "--virtual-stages", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Model chunks per pipeline rank in an interleaved 1F1B schedule (Megatron-LM's virtual pipeline "
          + "stages; needs --pp 2 or more); default 1 (estimate only).")
  Integer virtualStages;

  @Option(names = {"--cp", "--context-parallel"}, paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Context-parallel degree: GPUs that split each sequence between them (Megatron-LM's context "
          + "parallelism, ring attention); divides --gpus and the sequence length, needs FlashAttention; "
          + "default 1 (estimate only).")
  Integer contextParallel;

  @Option(names = "--lora-rank", paramLabel = "R", converter = Converters.PositiveInt.class,
      description = "LoRA rank (default " + DEFAULT_LORA_RANK + ", PEFT's default).")
  Integer loraRank;

  @Option(names = "--lora-targets", paramLabel = "q,k,v,o,mlp", description = "Projections with adapters (default q,v).")
  String loraTargets;

  @Option(names = "--quant", completionCandidates = Completions.Quant.class, paramLabel = "none|int8|int4|nf4", description = "Storage of frozen or served weights.")
  String quant;

  @Option(names = "--kv-dtype", completionCandidates = Completions.KvTypes.class, paramLabel = "bf16|fp16|fp8|fp32",
      description = "The KV cache's element type for infer (default: the activations'), e.g. fp8 beside bf16 weights.")
  String kvDtype;

  @Option(names = "--prompt", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Prompt tokens per request (infer).")
  Integer prompt;

  @Option(names = "--generate", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Generated tokens per request (infer).")
  Integer generate;

  @Option(names = "--tokens", paramLabel = "N", converter = Converters.Number.class,
      description = "Amount of work in tokens (50M, 1.5T); generated tokens for infer.")
  Double tokens;

  @Option(names = "--samples", paramLabel = "N", converter = Converters.Number.class,
      description = "Amount of work in samples per epoch (with --epochs).")
  Double samples;

  @Option(names = "--dataset", paramLabel = "NAME",
      description = "A known data set for --samples and the data size on disk: imagenet-1k, coco-2017, "
          + "pascal-voc-2012 (with --epochs).")
  String dataset;

  @Option(names = "--epochs", paramLabel = "E", converter = Converters.Number.class,
      description = "Epochs over --samples (default 1).")
  Double epochs;

  /** Whether any model source was given. */
  boolean hasModel() {
    return model != null || hfConfig != null || safetensors != null || transformer != null || params != null;
  }

  /** The task these options describe. */
  Task task() {
    ModelSpec spec = modelSpec();
    if (dropout != null) {
      checkArgument(spec instanceof Transformer, "--dropout applies to transformers; %s is not one", spec.name());
      spec = ((Transformer) spec).toBuilder().dropout(DROPOUT.get(dropout)).build();
    }
    TaskKind kind = TASKS.get(task);
    Task.Builder b = Words.taskBuilder(kind, spec, loraRank == null ? DEFAULT_LORA_RANK : loraRank);
    checkArgument(loraRank == null || kind.isAdapter(), "--lora-rank applies only to --task lora or qlora, was --task %s",
        task);
    checkArgument(loraTargets == null || kind.isAdapter(),
        "--lora-targets applies only to --task lora or qlora, was --task %s", task);
    checkArgument(kind == TaskKind.INFERENCE || (prompt == null && generate == null),
        "--prompt and --generate apply only to --task infer, was --task %s", task);
    checkArgument(kind != TaskKind.INFERENCE || seq == null || prompt == null,
        "give the prompt length once: --prompt or --seq, not both");
    checkArgument(tokens == null || samples == null, "give the amount of work as --tokens or as --samples, not both");
    checkArgument(dataset == null || (samples == null && tokens == null),
        "give the amount of work once: --dataset, --samples or --tokens");
    checkArgument(epochs == null || samples != null || dataset != null,
        "--epochs needs --samples (samples per epoch) or --dataset");
    if (framework != null) {
      b.framework(Words.FRAMEWORKS.get(framework));
    }
    if (precision != null) {
      b.precision(PRECISIONS.get(precision));
    }
    if (optimizer != null) {
      b.optimizer(OPTIMIZERS.get(optimizer));
    }
    if (microBatch != null) {
      b.microBatch(microBatch);
    }
    if (globalBatch != null) {
      b.globalBatch(globalBatch);
    }
    if (seq != null) {
      b.sequenceLength(seq);
    }
    if (prompt != null) {
      b.sequenceLength(prompt);
    }
    if (generate != null) {
      b.generatedTokens(generate);
    }
    if (imageSize != null) {
      b.imageSize(imageSize);
    }
    if (checkpointing != null) {
      b.checkpointing(CHECKPOINTING.get(checkpointing));
    }
    checkArgument(flashAttention == null || attention == null,
        "give the attention kernel once: --attention or --flash-attention, not both");
    if (flashAttention != null) {
      b.flashAttention(ON_OFF.get(flashAttention));
    }
    if (attention != null) {
      b.attention(ATTENTION.get(attention));
    }
    if (loss != null) {
      b.loss(LOSSES.get(loss));
    }
    if (engine != null) {
      ExecutionMode mode = ENGINES.get(engine);
      checkArgument(mode != ExecutionMode.SERVING_ENGINE || kind == TaskKind.INFERENCE,
          "--engine serving applies only to --task infer, was --task %s", task);
      b.executionMode(mode);
    }
    if (loraTargets != null) {
      Set<LoraTarget> targets = EnumSet.noneOf(LoraTarget.class);
      for (String t : Splitter.on(',').trimResults().omitEmptyStrings().split(loraTargets)) {
        targets.add(LORA_TARGETS.get(t));
      }
      checkArgument(!targets.isEmpty(), "--lora-targets needs at least one of q, k, v, o, mlp, was '%s'", loraTargets);
      b.loraTargets(targets);
    }
    if (kvDtype != null) {
      b.kvCache(Words.KV_TYPES.get(kvDtype));
    }
    if (quant != null) {
      b.quantization(QUANT.get(quant));
    }
    if (tokens != null) {
      checkArgument(tokens > 0, "--tokens must be > 0, was %s", tokens);
      b.tokens(tokens);
    }
    if (samples != null) {
      checkArgument(samples > 0, "--samples must be > 0, was %s", samples);
      b.samples(samples);
    }
    if (dataset != null) {
      b.dataset(Dataset.get(dataset));
    }
    if (epochs != null) {
      checkArgument(epochs > 0, "--epochs must be > 0, was %s", epochs);
      b.epochs(epochs);
    }
    return b.build();
  }

  /** The ZeRO stage given, or none. */
  ZeroStage zeroStage() {
    return zero == null ? ZeroStage.NONE : ZeroStage.of(zero);
  }

  /**
   * Refuses the layout flags where the command chooses the layout itself, rather than ignore them silently.
   *
   * @param why what the command does instead, and where a layout of one's own is timed
   */
  void refuseLayout(String why) {
    List<String> given = new ArrayList<>();
    if (zero != null) {
      given.add("--zero");
    }
    if (tp != null) {
      given.add("--tp");
    }
    if (pp != null) {
      given.add("--pp");
    }
    if (shardGroup != null) {
      given.add("--shard-group");
    }
    if (virtualStages != null) {
      given.add("--virtual-stages");
    }
    if (contextParallel != null) {
      given.add("--cp");
    }
    checkArgument(given.isEmpty(), "%s would be ignored: %s", String.join(" and ", given), why);
  }

  /** {@code layout} with the shard group and interleaved stages given (the context-parallel degree is set before). */
  Layout withShardingAndStages(Layout layout) {
    Layout out = layout;
    if (shardGroup != null) {
      checkArgument(out.zero() != ZeroStage.NONE, "--shard-group needs --zero 1, 2 or 3 (it shards ZeRO state)");
      out = out.withShardGroup(shardGroup);
    }
    if (virtualStages != null) {
      out = out.withVirtualStages(virtualStages);
    }
    return out;
  }

  int tensorParallel() {
    return tp == null ? 1 : tp;
  }

  int contextParallel() {
    return contextParallel == null ? 1 : contextParallel;
  }

  int pipelineParallel() {
    return pp == null ? 1 : pp;
  }

  ModelSpec modelSpec() {
    List<String> given = new ArrayList<>();
    if (model != null) {
      given.add("--model");
    }
    if (hfConfig != null) {
      given.add("--hf-config");
    }
    if (safetensors != null) {
      given.add("--safetensors");
    }
    if (transformer != null) {
      given.add("--transformer");
    }
    if (params != null) {
      given.add("--params");
    }
    checkArgument(!given.isEmpty(),
        "a model is required: --model ID (a preset such as llama-2-7b), --hf-config PATH, --safetensors PATH, "
            + "--transformer layers=L,hidden=H,heads=A or --params N");
    checkArgument(given.size() == 1, "give the model once, with one of --model, --hf-config, --safetensors, "
        + "--transformer or --params; got %s", String.join(" and ", given));
    if (model != null) {
      return Presets.get(model);
    }
    if (hfConfig != null) {
      return HuggingFaceConfig.read(hfConfig);
    }
    if (safetensors != null) {
      return fromSafetensors(safetensors);
    }
    if (transformer != null) {
      return transformer(transformer);
    }
    checkArgument(params > 0, "--params must be > 0, was %s", params);
    return Generic.ofParameters(params);
  }

  /**
   * A model known from its weights file only: the exact parameter count from the header, forward FLOPs of 2 per
   * parameter per token (one multiply-add per weight, Kaplan et al. 2020, "Scaling Laws for Neural Language
   * Models", section 2.1), activations unknown (give --hf-config for those).
   */
  static Generic fromSafetensors(Path file) {
    SafetensorsInfo info = Safetensors.read(file);
    Path name = file.getFileName();
    String stem = name == null ? "safetensors" : name.toString().replaceFirst("\\.safetensors$", "");
    return new Generic(stem.isBlank() ? "safetensors" : stem, info.parameters(), 2.0 * info.parameters(), 0);
  }

  private static final List<String> TRANSFORMER_KEYS =
      List.of("layers", "hidden", "heads", "kv-heads", "ffn", "vocab", "glu", "tied", "max-positions");
  /** Llama 2's vocabulary (meta-llama/Llama-2-7b-hf config.json: vocab_size 32000), used when none is given. */
  static final int DEFAULT_VOCAB = 32_000;

  /**
   * Builds a decoder from {@code layers=32,hidden=4096,heads=32[,kv-heads=8,ffn=11008,vocab=32000,glu=true,
   * tied=false]}. A gated MLP (glu=true, the default) means a Llama-style block (RMSNorm, rotary positions, no
   * biases, MLP width from {@link #llamaFfn}); glu=false a GPT-2-style block (LayerNorm, biases, rotary positions so no position table is counted).
   */
  static Transformer transformer(String spec) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String part : Splitter.on(',').trimResults().omitEmptyStrings().split(spec)) {
      int eq = part.indexOf('=');
      checkArgument(eq > 0, "--transformer takes key=value pairs separated by commas (keys %s), was '%s'",
          String.join(", ", TRANSFORMER_KEYS), part);
      String key = part.substring(0, eq).strip().toLowerCase(Locale.ROOT).replace('_', '-');
      checkArgument(TRANSFORMER_KEYS.contains(key), "--transformer has no key '%s'; keys are %s", key,
          String.join(", ", TRANSFORMER_KEYS));
      checkArgument(values.put(key, part.substring(eq + 1).strip()) == null, "--transformer gives '%s' twice", key);
    }
    for (String required : List.of("layers", "hidden", "heads")) {
      checkArgument(values.containsKey(required),
          "--transformer needs %s=N (layers, hidden and heads are required), was '%s'", required, spec);
    }
    boolean glu = bool(values.getOrDefault("glu", "true"), "glu");
    Transformer.Builder b = Transformer.builder("custom-transformer")
        .layers(dim(values, "layers")).hidden(dim(values, "hidden")).heads(dim(values, "heads"))
        .vocab(values.containsKey("vocab") ? dim(values, "vocab") : DEFAULT_VOCAB)
        .gatedMlp(glu).tiedEmbeddings(bool(values.getOrDefault("tied", "false"), "tied"))
        .norm(glu ? Norm.RMS_NORM : Norm.LAYER_NORM).bias(!glu).positions(Positions.ROTARY);
    if (values.containsKey("kv-heads")) {
      b.kvHeads(dim(values, "kv-heads"));
    }
    if (values.containsKey("ffn")) {
      b.ffn(dim(values, "ffn"));
    } else if (glu) {
      b.ffn(llamaFfn(dim(values, "hidden")));
    }
    if (values.containsKey("max-positions")) {
      b.maxPositions(dim(values, "max-positions"));
    }
    return b.build();
  }

  /**
   * Llama's gated-MLP width for a model width h: 2/3 of 4h, rounded up to a multiple of 256 (meta-llama/llama,
   * llama/model.py, {@code FeedForward}: {@code hidden_dim = int(2 * hidden_dim / 3)}, {@code multiple_of = 256});
   * 4096 gives Llama-2-7B's 11008.
   */
  static int llamaFfn(int hidden) {
    int f = (int) (2L * 4 * hidden / 3);
    return (f + 255) / 256 * 256;
  }

  private static int dim(Map<String, String> values, String key) {
    return Quantities.integer("--transformer " + key, values.get(key), 1);
  }

  private static boolean bool(String value, String key) {
    String v = value.toLowerCase(Locale.ROOT);
    checkArgument(v.equals("true") || v.equals("false"), "--transformer %s must be true or false, was '%s'", key,
        value);
    return Boolean.parseBoolean(v);
  }
}
