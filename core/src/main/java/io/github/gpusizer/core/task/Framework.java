package io.github.gpusizer.core.task;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableMap;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The software stack a job runs on: a profile of the settings the estimators understand, each with its source. A task
 * takes its framework's settings wherever the caller leaves them open; a setting given explicitly always wins.
 *
 * <pre>{@code
 * Task tune = Task.lora(Presets.get("llama-3-8b"), 8).framework(Framework.TORCHTUNE).build();
 * tune.loss();                 // CHUNKED: torchtune's CEWithChunkedOutputLoss
 * Task eager = Task.lora(Presets.get("llama-3-8b"), 8).framework(Framework.TORCHTUNE)
 *     .loss(LossKernel.MATERIALIZED).build(); // the explicit setting wins
 * }</pre>
 *
 * <p>Without a framework a task assumes {@link #PYTORCH} for training and {@link #HF_GENERATE} for inference
 * ({@link #defaultFor}), and says so ({@link Task#frameworkAssumed()}).
 */
public enum Framework {
  // ---------------------------------------------------------------- training and fine-tuning
  /**
   * Plain PyTorch scripts, eager DDP or FSDP: the baseline every estimator constant was set on (SDPA's flash kernel
   * since PyTorch 2.0, the whole logits upcast for the loss, gradients reduced in their FP32 autocast format).
   */
  PYTORCH("pytorch", "PyTorch (eager DDP/FSDP)", Use.TRAINING, Stack.STANDARD, baseline()),
  /**
   * Hugging Face Transformers' {@code Trainer}, Accelerate, TRL and PEFT scripts: eager modules (host time per layer
   * as PyTorch's reference code, see {@link #HF_GENERATE}); SDPA attention
   * by default since Transformers 4.36 (older versions, such as the 2023 Stanford Alpaca recipe, ran eager
   * attention: give {@code attention(EAGER)}); the logits upcast to FP32 ({@code logits.float()} in the Llama
   * modelling code); FSDP through Accelerate reduces gradients in the mixed-precision format (Accelerate's
   * {@code FullyShardedDataParallelPlugin}: {@code reduce_dtype} = {@code param_dtype} = bf16 under
   * {@code mixed_precision="bf16"}, huggingface/accelerate {@code tests/fsdp/test_fsdp.py}).
   */
  HF_TRAINER("hf-trainer", "Hugging Face Trainer / Accelerate", Use.TRAINING, Stack.HUGGING_FACE,
      baseline().reduceInComputePrecision()),
  /**
   * torchtitan: FSDP2 with parameters in BF16 and gradients reduced in FP32 ({@code mixed_precision_reduce =
   * "float32"}, torchtitan {@code config_manager.py}); SDPA flash attention. Its published rows are in the
   * calibration table.
   */
  TORCHTITAN("torchtitan", "torchtitan", Use.TRAINING, Stack.TUNED, baseline()),
  /**
   * Megatron-LM, Megatron-Core and NeMo: fused kernels (Transformer Engine), gradients accumulated and all-reduced in
   * FP32 under BF16 ("bfloat16 requires gradient accumulation and all-reduce to be done in fp32",
   * {@code megatron/training/arguments.py}). Its published rows are in the calibration table.
   */
  MEGATRON("megatron", "Megatron-LM / NeMo", Use.TRAINING, Stack.TUNED, baseline()),
  /**
   * DeepSpeed ZeRO: gradients reduced in the model's 16-bit format ({@code communication_data_type} defaults to the
   * training dtype, DeepSpeed configuration documentation). Rests on the PyTorch rows for its compute.
   */
  DEEPSPEED("deepspeed", "DeepSpeed", Use.TRAINING, Stack.STANDARD, baseline().reduceInComputePrecision()),
  /**
   * torchtune recipes: pure BF16 weights and optimizer state ({@code dtype: bf16}), activation checkpointing on
   * ({@code enable_activation_checkpointing: True} in the LoRA and full fine-tuning configs) and
   * {@code CEWithChunkedOutputLoss}, which upcasts one of 8 chunks of logits at a time (torchtune
   * {@code torchtune/modules/loss/ce_chunked_output_loss.py}).
   */
  TORCHTUNE("torchtune", "torchtune", Use.TRAINING, Stack.STANDARD,
      baseline().loss(LossKernel.CHUNKED).precision(PrecisionMode.BF16_PURE).checkpointing(Checkpointing.FULL)),
  /**
   * Unsloth: Triton kernels and a fused linear cross-entropy that never holds the whole logits (Liger Kernel's and
   * Unsloth's {@code FusedLinearCrossEntropy}), gradient checkpointing on by default
   * ({@code use_gradient_checkpointing="unsloth"}). Its modules sit on Hugging Face's Trainer; its speed rests on
   * the Hugging Face and PyTorch rows.
   */
  UNSLOTH("unsloth", "Unsloth", Use.TRAINING, Stack.HUGGING_FACE,
      baseline().loss(LossKernel.FUSED).checkpointing(Checkpointing.FULL)),
  /**
   * LitGPT (Lightning Fabric): compact PyTorch modules, SDPA attention, FSDP through Fabric. Its published memory
   * and decode rows are in the calibration table.
   */
  LITGPT("litgpt", "LitGPT", Use.TRAINING, Stack.STANDARD, baseline()),
  /**
   * MosaicML LLM Foundry (Composer): FSDP with {@code mixed_precision: PURE} in its training configs, which reduces
   * gradients in BF16 (Composer's FSDP {@code PURE} policy: param, reduce and buffer dtype all the autocast dtype).
   * Its published rows are in the calibration table.
   */
  LLM_FOUNDRY("llm-foundry", "LLM Foundry", Use.TRAINING, Stack.TUNED, baseline().reduceInComputePrecision()),
  /**
   * NVIDIA DeepLearningExamples: AMP, channels-last and DALI input pipelines. Its published rows (ResNet-50,
   * EfficientNet, BERT) are in the calibration table.
   */
  NVIDIA_DLE("nvidia-dle", "NVIDIA DeepLearningExamples", Use.TRAINING, Stack.TUNED, baseline()),
  /** timm's training scripts: eager PyTorch with AMP; rests on the PyTorch CNN rows. */
  TIMM("timm", "timm", Use.TRAINING, Stack.STANDARD, baseline()),
  /** FFCV data loading under PyTorch training; rests on the PyTorch CNN rows for the GPU side. */
  FFCV("ffcv", "FFCV", Use.TRAINING, Stack.STANDARD, baseline()),
  /** Detectron2's eager PyTorch trainers for detection and segmentation; rests on the PyTorch rows. */
  DETECTRON2("detectron2", "Detectron2", Use.TRAINING, Stack.STANDARD, baseline()),
  /**
   * TensorFlow graphs (TensorFlow 1 {@code Session.run}, {@code tf.function}): its executor and BFC allocator
   * ({@link ExecutionMode#TENSORFLOW_GRAPH}) and framework attention operators. Its published rows (BERT under
   * TensorFlow 1) are in the calibration table.
   */
  TENSORFLOW("tensorflow", "TensorFlow", Use.TRAINING, Stack.STANDARD,
      baseline().executionMode(ExecutionMode.TENSORFLOW_GRAPH).attention(AttentionKernel.EAGER)),
  /**
   * JAX (Flax, MaxText, Pax): XLA compiles the whole step, so no Python runs per operator
   * ({@link ExecutionMode#COMPILED}). Rests on the compiled PyTorch rows.
   */
  JAX("jax", "JAX / XLA", Use.TRAINING, Stack.STANDARD, baseline().executionMode(ExecutionMode.COMPILED)),

  // ---------------------------------------------------------------- inference and serving
  /**
   * Hugging Face {@code model.generate} in eager mode. Its Python time per layer depends on the host's CPU and the
   * Transformers version more than on anything else: Llama-2-7B decodes in 16.2 ms a token on an RTX 4090 (TinyChat's
   * Hugging Face FP16 baseline, mit-han-lab/llm-awq@048e19e1e7a982c8fa37aaf9ffb803dc4f1c8a62 {@code tinychat/README.md}:
   * at most 0.5 ms a layer, the weights' read time) and in 73.5 ms on an H200 server (this project's measurement,
   * Transformers 5.17: 2.3 ms a layer); PyTorch's reference figure, 1.22 ms, lies between them (their geometric mean
   * is 1.07 ms), so it is kept, and the Hugging Face rows' spread widens the band. LLM.int8() weights
   * ({@link WeightQuantization#INT8}) run through bitsandbytes, which dequantises each matrix before a 16-bit matmul
   * ({@link #BITSANDBYTES_INT8_BANDWIDTH_SHARE}).
   */
  HF_GENERATE("hf-generate", "Hugging Face generate (eager)", Use.INFERENCE, Stack.HUGGING_FACE,
      baseline().quantizedBandwidthShare(WeightQuantization.INT8, Framework.BITSANDBYTES_INT8_BANDWIDTH_SHARE)),
  /**
   * PyTorch's gpt-fast: {@code torch.compile} with CUDA graphs ({@link ExecutionMode#COMPILED}); INT4 weights in
   * groups of 32 with a BF16 scale and zero each (its README's {@code --groupsize 32}: 4 + 32/32 = 5 bits); its weight-only
   * INT8 and INT4 kernels reach 0.765 and 0.617 of the bandwidth its BF16 decode reaches (README, Llama-2-7B on an
   * A100-80GB: 1,069 and 863 of 1,397 GB/s; pytorch-labs/gpt-fast@0f925b5d4ce457b89a7ca6c9ce50f42bf2576945).
   */
  GPT_FAST("gpt-fast", "gpt-fast (torch.compile)", Use.INFERENCE, Stack.STANDARD,
      baseline().executionMode(ExecutionMode.COMPILED).bitsPerWeight(WeightQuantization.INT4, 5)
          .quantizedBandwidthShare(WeightQuantization.INT8, 1069.20 / 1397.31)
          .quantizedBandwidthShare(WeightQuantization.INT4, 862.69 / 1397.31)),
  /**
   * vLLM: continuous batching over a paged KV cache, CUDA graphs, {@code gpu_memory_utilization} 0.9 of the GPU
   * ({@link ExecutionMode#SERVING_ENGINE}); Marlin kernels for 4- and 8-bit weights, which stream them at close to
   * the 16-bit kernels' bandwidth (Frantar et al. 2024, "MARLIN: Mixed-Precision Auto-Regressive Parallel Inference
   * on Large Language Models", arXiv:2408.11743: near the ideal 4× over FP16 at batch sizes up to 16–32).
   */
  VLLM("vllm", "vLLM", Use.INFERENCE, Stack.SERVING_ENGINE, baseline().executionMode(ExecutionMode.SERVING_ENGINE)
      .quantizedBandwidthShare(WeightQuantization.INT4, 1).quantizedBandwidthShare(WeightQuantization.INT8, 1)),
  /** SGLang: a serving engine like vLLM (paged KV cache, CUDA graphs, Marlin kernels); rests on vLLM's data. */
  SGLANG("sglang", "SGLang", Use.INFERENCE, Stack.SERVING_ENGINE,
      baseline().executionMode(ExecutionMode.SERVING_ENGINE)
          .quantizedBandwidthShare(WeightQuantization.INT4, 1).quantizedBandwidthShare(WeightQuantization.INT8, 1)),
  /**
   * TensorRT-LLM: compiled engines with in-flight batching and a paged KV cache. Its published rows (NVIDIA's
   * performance overview, release 0.17) are in the calibration table.
   */
  TENSORRT_LLM("tensorrt-llm", "TensorRT-LLM", Use.INFERENCE, Stack.SERVING_ENGINE,
      baseline().executionMode(ExecutionMode.SERVING_ENGINE)),
  /** LMDeploy (TurboMind): a serving engine with a paged KV cache; rests on vLLM's and TensorRT-LLM's data. */
  LMDEPLOY("lmdeploy", "LMDeploy", Use.INFERENCE, Stack.SERVING_ENGINE,
      baseline().executionMode(ExecutionMode.SERVING_ENGINE)),
  /** Hugging Face Text Generation Inference: a serving engine; rests on vLLM's data. */
  TGI("tgi", "Text Generation Inference", Use.INFERENCE, Stack.SERVING_ENGINE,
      baseline().executionMode(ExecutionMode.SERVING_ENGINE)),
  /**
   * DeepSpeed-Inference (kernel injection, DeepSpeed-FastGen): fused transformer kernels without Python per operator
   * ({@link ExecutionMode#COMPILED}); rests on the compiled rows.
   */
  DEEPSPEED_INFERENCE("deepspeed-inference", "DeepSpeed-Inference", Use.INFERENCE, Stack.STANDARD,
      baseline().executionMode(ExecutionMode.COMPILED)),
  /**
   * llama.cpp: a C/C++ runtime, no Python per operator ({@link ExecutionMode#COMPILED}); its GGUF block formats
   * Q8_0 and Q4_0 hold 32 weights with one FP16 scale (34 and 18 bytes: 8.5 and 4.5 bits a weight,
   * {@code ggml/src/ggml-common.h}), and its CUDA kernels read them at a share of the bandwidth its F16 decode reaches
   * ({@link #LLAMA_CPP_Q8_0_BANDWIDTH_SHARE}, {@link #LLAMA_CPP_Q4_0_BANDWIDTH_SHARE}).
   */
  LLAMA_CPP("llama.cpp", "llama.cpp", Use.INFERENCE, Stack.STANDARD,
      baseline().executionMode(ExecutionMode.COMPILED)
          .bitsPerWeight(WeightQuantization.INT8, 8.5).bitsPerWeight(WeightQuantization.INT4, 4.5)
          .quantizedBandwidthShare(WeightQuantization.INT8, Framework.LLAMA_CPP_Q8_0_BANDWIDTH_SHARE)
          .quantizedBandwidthShare(WeightQuantization.INT4, Framework.LLAMA_CPP_Q4_0_BANDWIDTH_SHARE)),
  /**
   * ExLlamaV2: whole-layer CUDA kernels driven from Python with CUDA graphs ({@link ExecutionMode#COMPILED}) and
   * GPTQ/EXL2 4-bit kernels; rests on the compiled rows.
   */
  EXLLAMAV2("exllamav2", "ExLlamaV2", Use.INFERENCE, Stack.STANDARD, baseline().executionMode(ExecutionMode.COMPILED)),
  /** MLC-LLM: TVM-compiled kernels with CUDA graphs and a paged KV cache; rests on vLLM's data. */
  MLC_LLM("mlc-llm", "MLC-LLM", Use.INFERENCE, Stack.SERVING_ENGINE,
      baseline().executionMode(ExecutionMode.SERVING_ENGINE));

  /**
   * bitsandbytes' LLM.int8() inference dequantises each weight matrix to 16 bits before a 16-bit matmul, so a decode
   * step reads the 1-byte weights, then writes and reads their 2-byte copy: 5 bytes of traffic where the compute
   * needs 1, a share of 1/5 (derived from the kernel's traffic, not measured here; Dettmers et al. 2022, "LLM.int8()",
   * §5 reports int8 inference slower than FP16 below 6.7B parameters).
   */
  public static final double BITSANDBYTES_INT8_BANDWIDTH_SHARE = 1.0 / (1 + 2 + 2);

  /**
   * llama.cpp's Q8_0 decode reaches 0.85 of the bandwidth its F16 decode reaches: CodeLlama-7B on an RTX 4090,
   * {@code llama-bench} tg128, 98.13 tokens/s × 7.16 GB = 703 GB/s against F16's 61.03 × 13.48 GB = 822 GB/s
   * (ggml-org/llama.cpp pull request 4766, comment of 2024-01-10). A single source.
   */
  public static final double LLAMA_CPP_Q8_0_BANDWIDTH_SHARE = 703.0 / 822;
  /**
   * llama.cpp's Q4_0 decode reaches 0.59 of the bandwidth its F16 decode reaches: Llama-7B on an RTX 3090 Ti,
   * tg128, 127.43 tokens/s × 3.82 GB = 487 GB/s (ggml-org/llama.cpp pull request 4812, 2024-01-07), against F16's
   * 822 GB/s on an RTX 4090 of the same bandwidth (1,008 GB/s; pull request 4766). A single source per format.
   */
  public static final double LLAMA_CPP_Q4_0_BANDWIDTH_SHARE = 487.0 / 822;

  /** The names of the frameworks that train, for messages. */
  public static final String TRAINING_IDS = String.join(", ",
      Arrays.stream(values()).filter(f -> f.use == Use.TRAINING).map(Framework::id).toList());

  /** The names of the frameworks that only serve, for messages. */
  public static final String INFERENCE_IDS = String.join(", ",
      Arrays.stream(values()).filter(f -> f.use == Use.INFERENCE).map(Framework::id).toList());

  /** What a framework runs. */
  public enum Use {
    /** Training and fine-tuning (and the plain forward passes of its scripts). */
    TRAINING,
    /** Inference and serving only. */
    INFERENCE
  }

  /**
   * How tuned a stack is, which groups frameworks whose measurements err alike: a vendor-tuned stack (fused kernels
   * end to end), a standard one (PyTorch or another framework's defaults), Hugging Face's eager modules, or a
   * serving engine.
   */
  public enum Stack {
    TUNED("vendor-tuned"),
    STANDARD("standard"),
    HUGGING_FACE("Hugging Face eager"),
    SERVING_ENGINE("serving engine");

    private final String label;

    Stack(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * The settings a framework gives a task where the caller leaves them open.
   *
   * @param executionMode how its kernels reach the GPU
   * @param attention its attention kernel
   * @param loss how it holds the logits for the loss
   * @param precision its numeric recipe where it fixes one (torchtune's pure BF16), else each GPU's best
   * @param checkpointing activation recomputation where its recipes turn it on by default
   * @param reducesInComputePrecision whether gradients are reduced across ranks in the 16-bit compute format
   *     (FSDP recipes of Accelerate, DeepSpeed, LLM Foundry) rather than FP32
   * @param hostSecondsPerLayer host time per transformer layer per eager forward pass, where it differs from PyTorch's
   *     reference code
   * @param bitsPerWeight its storage of quantised weights where its format differs from the generic one
   * @param quantizedBandwidthShare the share of its 16-bit decode's bandwidth its weight-only kernels reach, per format
   *     where measured for it (else {@link QuantizedDecode#share})
   */
  public record Profile(ExecutionMode executionMode, AttentionKernel attention, LossKernel loss,
                        Optional<PrecisionMode> precision, Checkpointing checkpointing,
                        boolean reducesInComputePrecision, OptionalDouble hostSecondsPerLayer,
                        ImmutableMap<WeightQuantization, Double> bitsPerWeight,
                        ImmutableMap<WeightQuantization, Double> quantizedBandwidthShare) {
    public Profile {
      checkNotNull(executionMode, "executionMode");
      checkNotNull(attention, "attention");
      checkNotNull(loss, "loss");
      checkNotNull(precision, "precision");
      checkNotNull(checkpointing, "checkpointing");
      checkNotNull(hostSecondsPerLayer, "hostSecondsPerLayer");
      bitsPerWeight = ImmutableMap.copyOf(bitsPerWeight);
      quantizedBandwidthShare = ImmutableMap.copyOf(quantizedBandwidthShare);
      quantizedBandwidthShare.values().forEach(s -> checkArgument(s > 0 && s <= 1,
          "a quantised kernel's bandwidth share must be in (0, 1], was %s", s));
    }

    /**
     * The share of the 16-bit decode's bandwidth this framework's kernels reach on weights stored as {@code q}: its
     * own measured share, else the median of every framework's measured shares for the format
     * ({@link QuantizedDecode#share}); 1 for unquantised weights.
     */
    public double bandwidthShare(WeightQuantization q) {
      if (q == WeightQuantization.NONE) {
        return 1;
      }
      Double own = quantizedBandwidthShare.get(q);
      return own != null ? own : QuantizedDecode.share(q);
    }

    /** Bits a quantised weight takes in this framework's format, if it differs from the generic format. */
    public OptionalDouble bitsPerWeight(WeightQuantization q) {
      Double bits = bitsPerWeight.get(q);
      return bits == null ? OptionalDouble.empty() : OptionalDouble.of(bits);
    }

    Profile executionMode(ExecutionMode v) {
      return new Profile(v, attention, loss, precision, checkpointing, reducesInComputePrecision,
          hostSecondsPerLayer, bitsPerWeight, quantizedBandwidthShare);
    }

    Profile attention(AttentionKernel v) {
      return new Profile(executionMode, v, loss, precision, checkpointing, reducesInComputePrecision,
          hostSecondsPerLayer, bitsPerWeight, quantizedBandwidthShare);
    }

    Profile loss(LossKernel v) {
      return new Profile(executionMode, attention, v, precision, checkpointing, reducesInComputePrecision,
          hostSecondsPerLayer, bitsPerWeight, quantizedBandwidthShare);
    }

    Profile precision(PrecisionMode v) {
      return new Profile(executionMode, attention, loss, Optional.of(v), checkpointing, reducesInComputePrecision,
          hostSecondsPerLayer, bitsPerWeight, quantizedBandwidthShare);
    }

    Profile checkpointing(Checkpointing v) {
      return new Profile(executionMode, attention, loss, precision, v, reducesInComputePrecision,
          hostSecondsPerLayer, bitsPerWeight, quantizedBandwidthShare);
    }

    Profile reduceInComputePrecision() {
      return new Profile(executionMode, attention, loss, precision, checkpointing, true, hostSecondsPerLayer,
          bitsPerWeight, quantizedBandwidthShare);
    }

    Profile hostSecondsPerLayer(double v) {
      return new Profile(executionMode, attention, loss, precision, checkpointing, reducesInComputePrecision,
          OptionalDouble.of(v), bitsPerWeight, quantizedBandwidthShare);
    }

    Profile bitsPerWeight(WeightQuantization q, double bits) {
      Map<WeightQuantization, Double> m = new EnumMap<>(WeightQuantization.class);
      m.putAll(bitsPerWeight);
      m.put(q, bits);
      return new Profile(executionMode, attention, loss, precision, checkpointing, reducesInComputePrecision,
          hostSecondsPerLayer, ImmutableMap.copyOf(m), quantizedBandwidthShare);
    }

    Profile quantizedBandwidthShare(WeightQuantization q, double share) {
      Map<WeightQuantization, Double> m = new EnumMap<>(WeightQuantization.class);
      m.putAll(quantizedBandwidthShare);
      m.put(q, share);
      return new Profile(executionMode, attention, loss, precision, checkpointing, reducesInComputePrecision,
          hostSecondsPerLayer, bitsPerWeight, ImmutableMap.copyOf(m));
    }
  }

  /** The baseline profile: eager PyTorch, flash attention, the materialized loss, FP32 gradient reduction. */
  private static Profile baseline() {
    return new Profile(ExecutionMode.EAGER, AttentionKernel.FLASH, LossKernel.MATERIALIZED, Optional.empty(),
        Checkpointing.NONE, false, OptionalDouble.empty(), ImmutableMap.of(), ImmutableMap.of());
  }

  private final String id;
  private final String label;
  private final Use use;
  private final Stack stack;
  private final Profile profile;

  Framework(String id, String label, Use use, Stack stack, Profile profile) {
    this.id = id;
    this.label = label;
    this.use = use;
    this.stack = stack;
    this.profile = profile;
  }

  /** The name users type: {@code pytorch}, {@code hf-trainer}, {@code vllm}, {@code llama.cpp}. */
  public String id() {
    return id;
  }

  /** The name for sentences: "Hugging Face Trainer / Accelerate". */
  public String label() {
    return label;
  }

  /** Whether it trains or only serves. */
  public Use use() {
    return use;
  }

  /** How tuned its stack is. */
  public Stack stack() {
    return stack;
  }

  /** The settings it gives a task. */
  public Profile profile() {
    return profile;
  }

  /** Whether it can run a task of this kind: training frameworks run every kind, serving ones inference only. */
  public boolean runs(TaskKind kind) {
    return use == Use.TRAINING || !kind.isTraining();
  }

  /** The framework assumed when none is given: {@link #PYTORCH} for training, {@link #HF_GENERATE} for inference. */
  public static Framework defaultFor(TaskKind kind) {
    return kind.isTraining() ? PYTORCH : HF_GENERATE;
  }

  /**
   * The framework with this {@link #id()} (case-insensitive).
   *
   * @throws IllegalArgumentException listing the names there are
   */
  public static Framework of(String id) {
    checkNotNull(id, "id");
    return Arrays.stream(values()).filter(f -> f.id.equalsIgnoreCase(id.strip())).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown framework '" + id + "'; known: "
            + String.join(", ", Arrays.stream(values()).map(Framework::id).toList())));
  }

  /**
   * The framework as an answer names it: "estimated for vllm (vLLM)", or, where it was left open, "assumed framework:
   * pytorch (PyTorch (eager DDP/FSDP)); name yours for its estimates".
   */
  public String sentence(boolean assumed) {
    return assumed ? "assumed framework: " + named() + "; name yours for its estimates" : "estimated for " + named();
  }

  /** The id, with the label beside it where they differ: "hf-trainer (Hugging Face Trainer / Accelerate)". */
  public String named() {
    return id.equalsIgnoreCase(label) ? id : id + " (" + label + ")";
  }

  @Override
  public String toString() {
    return id;
  }
}
