package io.github.gpusizer.core.task;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.core.model.ConvNet;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Transformer;
import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A job to size: a model, what is done with it, how much of it, and the numeric and memory recipe.
 *
 * <pre>{@code
 * Task lora = Task.lora(Presets.get("llama-2-7b"), 8)
 *     .tokens(50e6).microBatch(1).globalBatch(128).sequenceLength(1024)
 *     .precision(PrecisionMode.BF16_PURE).build();
 * }</pre>
 *
 * @param model the model
 * @param kind training, adapter fine-tuning or inference
 * @param tokens total tokens to process (training tokens, or generated tokens for inference), if given that way
 * @param samples total samples to process (data-set samples × epochs), if given that way
 * @param microBatch samples per GPU per forward/backward pass (for inference: concurrent sequences)
 * @param globalBatch samples per optimizer step over all data-parallel ranks (gradient accumulation makes up the
 *     rest); 0 means one micro-batch per rank
 * @param sequenceLength tokens per sample for sequence models (for inference: the prompt length)
 * @param imageSize image side in pixels for image models
 * @param precision numeric recipe
 * @param microBatchChosen whether the caller chose the micro-batch; if not, a sizer tries every micro-batch that
 *     keeps the global batch (when one is given) and runs the largest that fits
 * @param kvCache the KV cache's element type for inference (FP16/BF16, FP8 or FP32), when it differs from the
 *     activations' (an FP8 KV cache beside BF16 weights, as vLLM's {@code kv_cache_dtype="fp8"} keeps it)
 * @param precisionChosen whether the caller chose the precision; if not, a sizer gives each GPU the best recipe it
 *     supports ({@link #precisionFor})
 * @param optimizer optimizer (training only)
 * @param checkpointing activation recomputation
 * @param attention how the attention core runs: FlashAttention-style kernels that never store the s×s scores (the
 *     default), a fused 16-bit softmax between two matmuls (Megatron-LM), or eager framework operators
 * @param loraRank adapter rank (LoRA and QLoRA)
 * @param loraTargets projections that get adapters
 * @param quantization storage of frozen or served weights
 * @param generatedTokens tokens generated per sequence (inference)
 * @param datasetSize size of the data set on disk, if known
 * @param cpuMsPerSample CPU milliseconds to load and preprocess one sample on one core, if known
 * @param executionMode eager PyTorch, compiled (CUDA graphs) or a serving engine: decides the host overhead and the
 *     memory allocator (default {@link ExecutionMode#EAGER})
 * @param loss how the output layer's logits are held for the loss ({@link LossKernel}; training only)
 * @param framework the software stack whose profile gave the settings the caller left open ({@link Framework})
 * @param frameworkAssumed whether the caller left the framework open, so that {@link Framework#defaultFor} was taken
 */
public record Task(
    ModelSpec model,
    TaskKind kind,
    OptionalDouble tokens,
    OptionalDouble samples,
    int microBatch,
    int globalBatch,
    int sequenceLength,
    int imageSize,
    PrecisionMode precision,
    Optimizer optimizer,
    Checkpointing checkpointing,
    AttentionKernel attention,
    int loraRank,
    ImmutableSet<LoraTarget> loraTargets,
    WeightQuantization quantization,
    int generatedTokens,
    Optional<DataSize> datasetSize,
    OptionalDouble cpuMsPerSample,
    ExecutionMode executionMode,
    boolean precisionChosen,
    boolean microBatchChosen,
    Optional<Precision> kvCache,
    LossKernel loss,
    Framework framework,
    boolean frameworkAssumed) {

  public Task {
    checkNotNull(model, "model");
    checkNotNull(kind, "kind");
    checkNotNull(tokens, "tokens");
    checkNotNull(samples, "samples");
    tokens.ifPresent(t -> checkArgument(t > 0 && Double.isFinite(t), "tokens must be > 0, was %s", t));
    samples.ifPresent(s -> checkArgument(s > 0 && Double.isFinite(s), "samples must be > 0, was %s", s));
    checkArgument(tokens.isEmpty() || samples.isEmpty(), "give the amount of work as tokens or as samples, not both");
    checkArgument(microBatch >= 1, "micro-batch must be >= 1, was %s", microBatch);
    checkArgument(globalBatch == 0 || globalBatch >= microBatch,
        "global batch must be 0 (one micro-batch per rank) or >= the micro-batch %s, was %s", microBatch, globalBatch);
    checkArgument(sequenceLength >= 1, "sequence length must be >= 1 token, was %s", sequenceLength);
    checkArgument(imageSize >= 1 && imageSize <= MAX_IMAGE_SIZE, "image size must be 1..%s px, was %s", MAX_IMAGE_SIZE,
        imageSize);
    checkNotNull(precision, "precision");
    checkNotNull(optimizer, "optimizer");
    checkNotNull(checkpointing, "checkpointing");
    checkNotNull(attention, "attention");
    checkNotNull(loss, "loss");
    checkArgument(!kind.isAdapter() || loraRank >= 1, "%s needs a LoRA rank >= 1, was %s", kind, loraRank);
    if (kind.isAdapter() && model instanceof Transformer t) {
      // A rank above the width adds parameters without adding expressiveness: an h×r·r×h product has rank <= h.
      checkArgument(loraRank <= t.hidden(), "LoRA rank %s must be <= the hidden size %s of %s",
          loraRank, t.hidden(), t.name());
    }
    loraTargets = ImmutableSet.copyOf(loraTargets);
    checkArgument(!kind.isAdapter() || !loraTargets.isEmpty(), "%s needs at least one LoRA target", kind);
    checkNotNull(quantization, "quantization");
    checkArgument(generatedTokens >= 0, "generated tokens must be >= 0, was %s", generatedTokens);
    checkNotNull(datasetSize, "datasetSize");
    checkNotNull(cpuMsPerSample, "cpuMsPerSample");
    cpuMsPerSample.ifPresent(ms -> checkArgument(ms >= 0 && Double.isFinite(ms),
        "CPU milliseconds per sample must be >= 0, was %s", ms));
    checkNotNull(executionMode, "executionMode");
    checkNotNull(kvCache, "kvCache");
    kvCache.ifPresent(p -> checkArgument(KV_CACHE_TYPES.contains(p), "KV cache type must be one of %s, was %s",
        KV_CACHE_TYPES, p));
    checkNotNull(framework, "framework");
    checkArgument(framework.runs(kind), "%s serves inference only; %s needs a training framework (%s)",
        framework.id(), kind, Framework.TRAINING_IDS);
    checkArgument(executionMode != ExecutionMode.SERVING_ENGINE || kind == TaskKind.INFERENCE,
        "a serving engine only runs inference; %s needs eager or compiled execution", kind);
  }

  /** Training from scratch. */
  public static Builder pretraining(ModelSpec model) {
    return new Builder(model, TaskKind.PRETRAINING);
  }

  /** Training all weights of a pre-trained model. */
  public static Builder fullFineTuning(ModelSpec model) {
    return new Builder(model, TaskKind.FULL_FINE_TUNING);
  }

  /** LoRA on query and value projections (the original paper's choice) at the given rank. */
  public static Builder lora(ModelSpec model, int rank) {
    return new Builder(model, TaskKind.LORA).loraRank(rank).defaultPrecision(PrecisionMode.BF16_PURE);
  }

  /** QLoRA: LoRA over NF4 base weights. */
  public static Builder qlora(ModelSpec model, int rank) {
    return new Builder(model, TaskKind.QLORA).loraRank(rank).defaultPrecision(PrecisionMode.BF16_PURE)
        .quantization(WeightQuantization.NF4);
  }

  /** Serving: prompt of {@code sequenceLength} tokens, then {@code generatedTokens} decoded. */
  public static Builder inference(ModelSpec model) {
    return new Builder(model, TaskKind.INFERENCE).defaultPrecision(PrecisionMode.BF16_PURE);
  }

  public Builder toBuilder() {
    Builder b = new Builder(model, kind);
    b.tokens = tokens;
    b.samples = samples;
    b.microBatch = microBatch;
    b.globalBatch = globalBatch;
    b.sequenceLength = sequenceLength;
    b.imageSize = imageSize;
    b.precision = precision;
    b.precisionChosen = precisionChosen;
    b.microBatchChosen = microBatchChosen;
    b.kvCache = kvCache;
    b.optimizer = optimizer;
    b.checkpointing = checkpointing;
    b.attention = attention;
    b.loraRank = loraRank;
    b.loraTargets = EnumSet.noneOf(LoraTarget.class);
    b.loraTargets.addAll(loraTargets);
    b.quantization = quantization;
    b.generatedTokens = generatedTokens;
    b.datasetSize = datasetSize;
    b.cpuMsPerSample = cpuMsPerSample;
    // Settings equal to the framework's profile stay open, so that another framework given to the builder applies
    // its own profile to them.
    Framework.Profile profile = framework.profile();
    b.framework = frameworkAssumed ? null : framework;
    b.checkpointing = checkpointing == profile.checkpointing() ? null : checkpointing;
    b.attention = attention == profile.attention() ? null : attention;
    b.executionMode = executionMode == profile.executionMode() ? null : executionMode;
    b.loss = loss == profile.loss() ? null : loss;
    return b;
  }

  /** The KV cache types an inference task may keep: 4, 2 or 1 bytes per element. */
  /**
   * The largest image side, in pixels: 65,536 (a 4-gigapixel image; whole-slide images are tiled far smaller), so
   * that an image model's activations, which grow with the area, stay a number of bytes.
   */
  public static final int MAX_IMAGE_SIZE = 65_536;

  public static final ImmutableSet<Precision> KV_CACHE_TYPES =
      ImmutableSet.of(Precision.FP32, Precision.FP16, Precision.BF16, Precision.FP8);

  /** Bytes of one KV-cache element: the {@link #kvCache()} type's, else the activations'. */
  public int kvCacheBytes() {
    return kvCache.map(Task::kvCacheBytes).orElse(precision.activationBytes());
  }

  /** Bytes of one KV-cache element of type {@code p}, one of {@link #KV_CACHE_TYPES}. */
  public static int kvCacheBytes(Precision p) {
    checkArgument(KV_CACHE_TYPES.contains(p), "KV cache type must be one of %s, was %s", KV_CACHE_TYPES, p);
    return switch (p) {
      case FP8 -> 1;
      case FP32 -> 4;
      default -> 2;
    };
  }

  /**
   * The optimal global batch of DeepSeek LLM's hyperparameter scaling law (DeepSeek-AI 2024, "DeepSeek LLM:
   * Scaling Open-Source Language Models with Longtermism", arXiv:2401.02954, §3.1): {@code B = 0.2920 · C^0.3271}
   * tokens for a compute budget of {@code C} FLOPs; their Llama-3-scale point, 1 T tokens on a 70B model, gives
   * 15.6 M tokens, next to Llama 3's own 16 M (Llama Team 2024, §3.4.1).
   */
  static final double BATCH_LAW_COEFFICIENT = 0.2920;
  static final double BATCH_LAW_EXPONENT = 0.3271;
  /** The smallest budget of that paper's grid searches; below it the law's value here is used. */
  static final double BATCH_LAW_SMALLEST_BUDGET = 1e17;
  /**
   * The largest batch at which ResNet-50 still reached small-batch accuracy with SGD, 8,192 images (Goyal et al.
   * 2017, "Accurate, Large Minibatch SGD", arXiv:1706.02677, Figure 1: error rises beyond 8k).
   */
  static final int LARGEST_IMAGE_BATCH = 8192;

  /**
   * The largest global batch, in samples, that a sizer may grow the batch to when the caller gave none (data
   * parallelism multiplies the micro-batch by the ranks): beyond it more ranks buy speed with worse training, which
   * no planner accepts. For a transformer, the optimal batch of DeepSeek LLM's scaling law for the job's
   * {@code 6 · parameters · tokens} FLOPs (Kaplan et al. 2020's training compute), in sequences of
   * {@link #sequenceLength()}; for a convolutional net, 8,192 images (Goyal et al. 2017). Empty for inference, a
   * task without an amount of work, and other models, whose batches nothing here bounds.
   */
  public OptionalInt largestUsefulGlobalBatch() {
    if (!kind.isTraining()) {
      return OptionalInt.empty();
    }
    if (model instanceof ConvNet) {
      return OptionalInt.of(LARGEST_IMAGE_BATCH);
    }
    if (!(model instanceof Transformer)) {
      return OptionalInt.empty();
    }
    double totalTokens = tokens.isPresent() ? tokens.getAsDouble()
        : samples.isPresent() ? samples.getAsDouble() * sequenceLength : 0;
    if (totalTokens <= 0) {
      return OptionalInt.empty();
    }
    double flops = Math.max(BATCH_LAW_SMALLEST_BUDGET, 6.0 * model.parameters() * totalTokens);
    double batchTokens = BATCH_LAW_COEFFICIENT * Math.pow(flops, BATCH_LAW_EXPONENT);
    return OptionalInt.of((int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(batchTokens / sequenceLength))));
  }

  /** Whether the attention core is a FlashAttention-style kernel that never stores the scores. */
  public boolean flashAttention() {
    return attention.flash();
  }

  /**
   * Parameters that receive gradients: all of them when training, the adapters for LoRA and QLoRA
   * ({@link LoraTarget#adapterParameters}; 0 for a model that is not a transformer, which has no adapter targets),
   * none for inference.
   */
  public long trainableParameters() {
    if (!kind.isTraining()) {
      return 0;
    }
    if (!kind.isAdapter()) {
      return model.parameters();
    }
    return model instanceof Transformer t ? LoraTarget.adapterParameters(t, loraRank, loraTargets) : 0;
  }

  /**
   * The recipe this task runs with on {@code gpu}: its own where chosen or supported; otherwise the best the GPU
   * supports (DESIGN.md §6a): FP16 mixed precision with loss scaling on tensor-core GPUs without BF16 (compute
   * capability 7.x: Volta, Turing; Micikevicius et al. 2018, "Mixed Precision Training"), else TF32, else FP32.
   */
  public PrecisionMode precisionFor(Gpu gpu) {
    if (precisionChosen || gpu.supports(precision.compute())) {
      return precision;
    }
    boolean tensorCores = gpu.computeCapability().map(c -> c.major() >= 7).orElse(false);
    if (tensorCores && gpu.supports(Precision.FP16)) {
      return PrecisionMode.FP16_MIXED;
    }
    return gpu.supports(Precision.TF32) ? PrecisionMode.TF32 : PrecisionMode.FP32;
  }

  /** This task with {@link #precisionFor} the GPU, unchanged if that is its own recipe. */
  public Task forGpu(Gpu gpu) {
    PrecisionMode p = precisionFor(gpu);
    return p == precision ? this : toBuilder().defaultPrecision(p).build();
  }

  /** Whether the model reads images (a {@link ConvNet}) rather than token sequences. */
  public boolean isImageModel() {
    return model instanceof ConvNet;
  }

  /**
   * Mutable builder with common defaults: micro-batch 1 (a sizer may raise it where a global batch is given), the
   * model's own context as the sequence length (BERT 512, GPT-2 1024, Llama 2 4096; at most
   * {@link #LONGEST_DEFAULT_SEQUENCE}; {@link #DEFAULT_SEQUENCE} for other sequence models), image 224, BF16 mixed (a sizer gives GPUs without BF16 the best they have), AdamW,
   * and the settings of the {@link Framework} (plain PyTorch for training, Hugging Face {@code generate} for
   * inference when none is given): eager execution, flash attention, the materialized loss. Give
   * {@link Framework#VLLM} (or {@link ExecutionMode#SERVING_ENGINE}) when sizing a vLLM or TensorRT-LLM server.
   */
  public static final class Builder {
    /** Tokens per sample of a sequence model that states no context of its own (GPT-3's 2048, Brown et al. 2020). */
    public static final int DEFAULT_SEQUENCE = 2048;
    /**
     * The longest context taken by default: 8,192 tokens, the sequence length Llama 3 was pre-trained at before its
     * long-context stage (Llama Team 2024, "The Llama 3 Herd of Models", §3.4); models that state a longer
     * context (128k for Llama 3.1) reach it only in that separate stage, which the caller asks for explicitly.
     */
    public static final int LONGEST_DEFAULT_SEQUENCE = 8192;
    /**
     * Image side of a model that states no resolution of its own: 224 px, the ImageNet training crop of AlexNet,
     * VGG and ResNet (He et al. 2016). A {@link ConvNet} is trained at its own {@link ConvNet#referenceResolution()}
     * by default (YOLOv8 640, Stable Diffusion's UNet 512).
     */
    public static final int DEFAULT_IMAGE_SIZE = 224;

    private final ModelSpec model;
    private final TaskKind kind;
    private OptionalDouble tokens = OptionalDouble.empty();
    private OptionalDouble samples = OptionalDouble.empty();
    private int microBatch = 1;
    private int globalBatch;
    /** 0: the model's own context ({@link Transformer#maxPositions()}), else {@link #DEFAULT_SEQUENCE}. */
    private int sequenceLength;
    private int imageSize;
    private PrecisionMode precision = PrecisionMode.BF16_MIXED;
    private boolean precisionChosen;
    private boolean microBatchChosen;
    private Optional<Precision> kvCache = Optional.empty();
    private Optimizer optimizer = Optimizer.ADAMW;
    /** Null where the framework's profile decides; likewise attention, execution mode and loss. */
    private Checkpointing checkpointing;
    private AttentionKernel attention;
    private int loraRank;
    private Set<LoraTarget> loraTargets = EnumSet.of(LoraTarget.Q, LoraTarget.V);
    private WeightQuantization quantization = WeightQuantization.NONE;
    private int generatedTokens;
    private Optional<DataSize> datasetSize = Optional.empty();
    private OptionalDouble cpuMsPerSample = OptionalDouble.empty();
    private ExecutionMode executionMode;
    private LossKernel loss;
    /** Null until given: then {@link Framework#defaultFor} the kind is assumed. */
    private Framework framework;
    private double epochs = 1;
    private double samplesPerEpoch;

    private Builder(ModelSpec model, TaskKind kind) {
      this.model = checkNotNull(model, "model");
      this.kind = kind;
    }

    public Builder tokens(double v) { this.tokens = OptionalDouble.of(v); return this; }
    /** Samples in one epoch of the data set; multiply by {@link #epochs(double)}. */
    public Builder samples(double v) { this.samplesPerEpoch = v; return this; }
    public Builder epochs(double v) { this.epochs = v; return this; }
    /** Samples per GPU per pass, fixed (without it a sizer picks the largest that fits the global batch). */
    public Builder microBatch(int v) { this.microBatch = v; this.microBatchChosen = true; return this; }
    public Builder globalBatch(int v) { this.globalBatch = v; return this; }
    public Builder sequenceLength(int v) { this.sequenceLength = v; return this; }
    /** Image side in pixels; by default the model's own resolution (see {@link #DEFAULT_IMAGE_SIZE}). */
    public Builder imageSize(int v) {
      checkArgument(v >= 1 && v <= MAX_IMAGE_SIZE, "image size must be 1..%s px, was %s", MAX_IMAGE_SIZE, v);
      this.imageSize = v;
      return this;
    }
    /** The KV cache's element type for inference (default: the activations'), e.g. FP8 beside BF16 weights. */
    public Builder kvCache(Precision v) { this.kvCache = Optional.of(checkNotNull(v, "kvCache")); return this; }

    /** The numeric recipe, fixed for every GPU (without it each GPU gets the best it supports). */
    public Builder precision(PrecisionMode v) { this.precision = v; this.precisionChosen = true; return this; }

    private Builder defaultPrecision(PrecisionMode v) { this.precision = v; return this; }
    public Builder optimizer(Optimizer v) { this.optimizer = v; return this; }
    public Builder checkpointing(Checkpointing v) { this.checkpointing = checkNotNull(v, "checkpointing"); return this; }
    /**
     * The software stack: its profile gives every setting left open here (execution mode, attention and loss
     * kernels, recomputation, precision, gradient-reduction format, host time, quantised kernels); settings given
     * explicitly keep their value whatever the order of the calls. Without it {@link Framework#defaultFor} the task's
     * kind is assumed.
     */
    public Builder framework(Framework v) {
      this.framework = checkNotNull(v, "framework");
      // its recipe is a default like the kind's: a chosen precision wins, and a sizer may still fit it to a GPU
      v.profile().precision().filter(p -> !precisionChosen).ifPresent(p -> this.precision = p);
      return this;
    }
    /** FlashAttention-style kernels ({@code true}, the default) or eager operators ({@code false}). */
    public Builder flashAttention(boolean v) {
      this.attention = v ? AttentionKernel.FLASH : AttentionKernel.EAGER;
      return this;
    }

    /** How the attention core runs ({@link AttentionKernel}). */
    public Builder attention(AttentionKernel v) {
      this.attention = checkNotNull(v, "attention");
      return this;
    }
    public Builder loraRank(int v) { this.loraRank = v; return this; }
    public Builder loraTargets(Set<LoraTarget> v) { this.loraTargets = EnumSet.copyOf(v); return this; }
    public Builder quantization(WeightQuantization v) { this.quantization = v; return this; }
    public Builder generatedTokens(int v) { this.generatedTokens = v; return this; }
    public Builder datasetSize(DataSize v) { this.datasetSize = Optional.of(v); return this; }
    /** One epoch of a data set: its samples and its size on disk; multiply by {@link #epochs(double)}. */
    public Builder dataset(Dataset d) {
      checkNotNull(d, "dataset");
      return samples(d.samples()).datasetSize(d.sizeOnDisk());
    }
    public Builder cpuMsPerSample(double v) { this.cpuMsPerSample = OptionalDouble.of(v); return this; }
    /** Eager PyTorch (default), compiled with CUDA graphs, or a serving engine; see {@link ExecutionMode}. */
    public Builder executionMode(ExecutionMode v) {
      this.executionMode = checkNotNull(v, "executionMode");
      return this;
    }

    /** How the logits are held for the loss: materialized (default), chunked or fused ({@link LossKernel}). */
    public Builder loss(LossKernel v) {
      this.loss = checkNotNull(v, "loss");
      return this;
    }

    /**
     * Builds the task.
     *
     * @throws IllegalArgumentException naming the field and the rule when a value is out of range
     */
    public Task build() {
      OptionalDouble totalSamples = samples;
      if (samplesPerEpoch != 0 || epochs != 1) {
        checkArgument(samplesPerEpoch > 0 && Double.isFinite(samplesPerEpoch),
            "samples per epoch must be > 0, was %s", samplesPerEpoch);
        checkArgument(epochs > 0 && Double.isFinite(epochs), "epochs must be > 0, was %s", epochs);
        double total = samplesPerEpoch * epochs;
        checkArgument(Double.isFinite(total), "samples per epoch × epochs must be a finite number, was %s × %s",
            samplesPerEpoch, epochs);
        totalSamples = OptionalDouble.of(total);
      }
      int sequence = sequenceLength != 0 ? sequenceLength
          : model instanceof Transformer t ? Math.min(t.maxPositions(), LONGEST_DEFAULT_SEQUENCE) : DEFAULT_SEQUENCE;
      int image = imageSize != 0 ? imageSize
          : model instanceof ConvNet c ? c.referenceResolution() : DEFAULT_IMAGE_SIZE;
      Framework stack = framework != null ? framework : Framework.defaultFor(kind);
      Framework.Profile profile = stack.profile();
      return new Task(model, kind, tokens, totalSamples, microBatch, globalBatch, sequence, image,
          precision, optimizer, checkpointing != null ? checkpointing : profile.checkpointing(),
          attention != null ? attention : profile.attention(), loraRank, ImmutableSet.copyOf(loraTargets),
          quantization, generatedTokens, datasetSize, cpuMsPerSample,
          executionMode != null ? executionMode : profile.executionMode(), precisionChosen,
          microBatchChosen, kvCache, loss != null ? loss : profile.loss(), stack, framework == null);
    }
  }
}
