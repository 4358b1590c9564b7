package io.github.gpusizer.core.estimate;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.core.model.ConvNet;
import io.github.gpusizer.core.model.Generic;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Norm;
import io.github.gpusizer.core.model.Recurrent;
import io.github.gpusizer.core.model.Stack;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.AttentionKernel;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.LossKernel;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.LoraTarget;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.WeightQuantization;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.OptionalDouble;

/**
 * Memory of one GPU at the peak of a step. Training has two candidate peaks and the larger one is reported:
 *
 * <ul>
 *   <li>the end of the forward pass / start of the backward pass: weights, optimizer state, every saved activation,
 *       the loss buffer and the backward working set; gradients only as far as they exist then (all of them when
 *       gradients accumulate over micro-batches; otherwise only the output head's, the first one backward makes,
 *       since PyTorch 2 frees gradients with {@code zero_grad(set_to_none=True)});
 *   <li>the optimizer step: weights, gradients, optimizer state and the optimizer's scratch tensors; activations are
 *       freed by then.
 * </ul>
 *
 * The breakdown describes the winning moment. Inference holds weights, the KV cache and one forward pass's working
 * set.
 */
final class MemoryModel {
  /**
   * CUDA context, loaded kernels and library handles as {@code nvidia-smi} shows them: 1343 MiB measured after
   * moving one tensor to a V100 (Hugging Face Transformers docs, "Model training anatomy",
   * {@code docs/source/en/model_memory_anatomy.md}); the calibration data's README says "about 1.3 GB".
   */
  static final long CUDA_CONTEXT_BYTES = 1343L << 20;

  /**
   * What a TensorFlow 1.x process holds of a GPU before its BFC pool: the CUDA context TensorFlow creates (its device
   * log's {@code totalMemory} less {@code freeMemory}: 31.72 − 31.41 GiB on a V100-SXM2-32GB, tensorflow/tensorflow
   * issue 37162; 11.90 − 11.75 GiB on a headless Titan X Pascal, lengstrom/fast-style-transfer issue 9) and the
   * driver's share of the nominal capacity (the 0.28 GiB between 32 GiB and that {@code totalMemory}). 700 MiB puts
   * the pool this model gives, {@code 0.95 × (capacity − context)}, where TensorFlow's log put it: 30,458 MB on a
   * V100-SXM2-32GB (apple/turicreate issue 2777; the model says 30,465) and 10,808 MB on a Maxwell Titan X that also
   * drives a display (fizyr/keras-retinanet issue 906; the model says 11,008). About half of what PyTorch holds
   * ({@link #CUDA_CONTEXT_BYTES}).
   */
  static final long TENSORFLOW_CONTEXT_BYTES = 700L << 20;

  /**
   * Memory PyTorch's caching allocator reserves but has not handed out at the peak (nvidia-smi − torch
   * max_memory_allocated), as a fraction of the allocated peak, when the GPU has room for it. GMLake (Guo et al.,
   * ASPLOS 2024, arXiv:2401.08156) measures 15% average fragmentation over eight LLMs fine-tuned with recomputation,
   * LoRA or ZeRO on A100-80GB, which is used here; see CALIBRATION.md for the check against the nvidia-smi rows.
   * Most of it is elastic: free cached blocks that a failed {@code cudaMalloc} makes the allocator release before it
   * retries ({@code release_cached_blocks} in {@code c10/cuda/CUDACachingAllocator.cpp}; "CUDA semantics: memory
   * management"), so it fills the free memory of the card but never pushes a job out of it; see
   * {@link #ALLOCATOR_FRAGMENTATION_AT_LIMIT} for what cannot be released.
   */
  static final double ALLOCATOR_CACHE_FRACTION = 0.15;

  /**
   * What the caching allocator cannot give back when memory runs out, as a fraction of the allocated peak: free
   * pieces of split blocks whose segment still holds live tensors. PyTorch's out-of-memory report for a 70B model on
   * an 80 GB card reads "75.31 GiB is allocated by PyTorch, and 1.83 GiB is reserved by PyTorch but unallocated"
   * (vllm-project/compressed-tensors#587, February 2026): 2.4%, after the release-and-retry.
   */
  static final double ALLOCATOR_FRAGMENTATION_AT_LIMIT = 1.83 / 75.31;

  /**
   * The share of the GPU's memory a serving engine takes for itself: vLLM's {@code gpu_memory_utilization} defaults
   * to 0.9 ("the fraction of GPU memory to be used for the model executor", vLLM engine arguments, docs.vllm.ai);
   * weights, the activation peak, CUDA graphs and the KV-cache pool must fit in it, the rest stays free. Charged
   * instead of PyTorch's caching allocator ({@link #ALLOCATOR_CACHE_FRACTION}) for
   * {@link io.github.gpusizer.core.task.ExecutionMode#SERVING_ENGINE}.
   */
  static final double SERVING_MEMORY_UTILIZATION = 0.9;

  /**
   * The most tokens a serving engine runs through the model in one iteration: vLLM's scheduler default
   * {@code max_num_batched_tokens} of 2048 ({@code SchedulerConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS}, vllm/config/
   * scheduler.py, docs.vllm.ai), which chunked prefill splits longer prompts to (TensorRT-LLM's in-flight batching
   * bounds an iteration by its {@code max_num_tokens} likewise). A prompt batch of 256 × 1,000 tokens is prefilled a
   * budget at a time, so the activation peak is that of the budget, not of the batch; a prompt longer than the budget
   * is counted whole (engines without chunked prefill run it in one pass).
   */
  static final int ENGINE_BATCHED_TOKENS = 2048;

  /**
   * KV-cache memory a paged serving engine wastes in partly filled blocks: "under 4%" (Kwon et al. 2023, "Efficient
   * Memory Management for Large Language Model Serving with PagedAttention", SOSP, §1 and §6.1), against 60–80% for
   * contiguous per-request buffers.
   */
  static final double PAGED_KV_WASTE_FRACTION = 0.04;

  /**
   * NF4 with double quantisation (Dettmers et al. 2023, "QLoRA", §3): 4 bits per weight, plus one 8-bit absmax per
   * 64-weight block and one FP32 constant per 256 such blocks: 8/64 + 32/(64·256) = 0.127 bits per weight.
   */
  static final double NF4_BYTES_PER_WEIGHT = (4 + 8.0 / 64 + 32.0 / (64 * 256)) / 8;

  /** GPTQ/AWQ 4-bit: 4 bits per weight plus an FP16 scale and an FP16 zero point per group of 128 weights. */
  static final double INT4_BYTES_PER_WEIGHT = (4 + 32.0 / 128) / 8;

  /**
   * FP8 E4M3 weights: one byte each; vLLM's {@code fp8} quantisation keeps one FP32 scale per weight tensor
   * (vLLM docs, "FP8 W8A8": "per-tensor scales for weights"), which is negligible.
   */
  static final double FP8_BYTES_PER_WEIGHT = 1;

  /** bitsandbytes 8-bit optimizers: one byte per state element plus one FP32 absmax per 2048-element block. */
  static final double ADAM_8BIT_BYTES_PER_STATE = 1 + 4.0 / 2048;

  /**
   * Full recomputation of a network whose layer boundaries we do not know (CNNs, generic models): Chen et al. 2016,
   * "Training Deep Nets with Sublinear Memory Cost", keep √n checkpoints and recompute one √n-layer segment at a
   * time, holding 2/√n of the activations; n = 50 layers (a ResNet-50-sized network) is assumed.
   */
  static final double SUBLINEAR_CHECKPOINT_FRACTION = 2 / Math.sqrt(50);

  /**
   * Width assumed for the matrices of non-transformer models when Adafactor factors its second moment
   * ({@code rows + cols} per {@code rows × cols} matrix: 2/1024 of the parameters for 1024-wide matrices).
   */
  static final double ADAFACTOR_ASSUMED_WIDTH = 1024;

  /**
   * Output channels of an ImageNet CNN's stem (ResNet conv1: 112×112×64 at 224 px; He et al. 2016, Table 1), the
   * largest single activation; inference keeps its input and output alive at once.
   */
  static final int STEM_CHANNELS = 64;

  private MemoryModel() {}

  /**
   * What {@link #breakdown} and the error band of its estimate read of a layout and its hardware, beyond the task and
   * the GPU: the tensor, pipeline and context-parallel degrees, interleaved stages and ZeRO stage; the ranks ZeRO
   * shards over (its shard group: all data-parallel ranks, or one group under HSDP, times the context-parallel
   * degree), and without ZeRO only whether there are several gradient ranks (DDP's gradient bucket); the
   * micro-batches accumulated per step as far as the model tells them apart
   * ({@code accumulation > 1}, and in flight under pipeline stages {@code min(pp, accumulation)}); and whether the
   * job spans nodes (its {@link WorkloadClass}). Two jobs of one task and GPU whose keys are equal have equal memory
   * estimates, so a search over many instance counts may share them. Whoever makes the model read more of the
   * layout or hardware adds it here; {@code MemoryKeyTest} checks the promise.
   */
  record LayoutKey(int tp, int pp, int virtualStages, int cp, ZeroStage zero, int ranks, int accumulated,
      boolean multiNode) {
    static LayoutKey of(Task task, Hardware hardware, Layout layout) {
      int dp = layout.dataParallel();
      int global = task.globalBatch();
      long perStep = (long) task.microBatch() * dp;
      int accumulation = global == 0 ? 1 : (int) Math.max(1, global / perStep); // as Job counts it
      int nodes = (layout.gpus() + hardware.gpusPerNode() - 1) / hardware.gpusPerNode();
      int cp = layout.contextParallel();
      return new LayoutKey(layout.tensorParallel(), layout.pipelineParallel(), layout.virtualStages(), cp,
          layout.zero(), layout.zero() == ZeroStage.NONE ? Math.min(dp * cp, 2) : layout.shardGroup() * cp,
          Math.min(accumulation, Math.max(layout.pipelineParallel(), 2)), nodes > 1);
    }

    // written out: the record's generated equals and hashCode were 12 % of a bundled recommend, which looks these up
    @Override
    public boolean equals(Object o) {
      return o instanceof LayoutKey k && k.tp == tp && k.pp == pp && k.virtualStages == virtualStages && k.cp == cp
          && k.zero == zero && k.ranks == ranks && k.accumulated == accumulated && k.multiNode == multiNode;
    }

    @Override
    public int hashCode() {
      int h = (((tp * 31 + pp) * 31 + virtualStages) * 31 + cp) * 31 + zero.ordinal();
      return ((h * 31 + ranks) * 31 + accumulated) * 2 + (multiNode ? 1 : 0);
    }
  }

  static MemoryBreakdown breakdown(Job job) {
    return breakdown(job, allocation(job));
  }

  /**
   * What a job allocates at its peak, by holder, before the allocator's overhead: the same on every GPU model, whose
   * capacity only sets that overhead ({@link #breakdown(Job, Allocation)}); a search shares it across GPUs
   * ({@link Estimator.Memo}). The parts are rounded to bytes as the breakdown shows them; {@code kvCacheBytes} is
   * the KV cache unrounded.
   */
  record Allocation(DataSize weights, DataSize gradients, DataSize optimizer, DataSize activations, DataSize kvCache,
                    DataSize temporary, double kvCacheBytes) {}

  static Allocation allocation(Job job) {
    return job.training ? training(job) : inference(job);
  }

  private static Allocation training(Job job) {
    double n = job.parameters;
    double trainable = trainableParameters(job);
    double split = job.modelShard(1);
    // ZeRO shards over its shard group: all data-parallel ranks, or one group of a hybrid layout (HSDP)
    double zero1 = job.zero.number() >= 1 ? job.shard : 1;
    double zero2 = job.zero.number() >= 2 ? job.shard : 1;
    double zero3 = job.zero == ZeroStage.STAGE_3 ? job.shard : 1;
    int weightBytes = job.precision.weightBytes();

    double weights = (job.adapter ? frozenWeightBytes(job, frozenBytesPerWeight(job)) + trainable * weightBytes
        : n * weightBytes) * split / zero3;
    double gradients = trainable * job.precision.gradientBytes() * split / zero2;
    double stateBytes = job.precision.pureHalf() ? 2 : 4;
    double optimizer = trainable * optimizerBytesPerParameter(job, stateBytes) * split / zero1;

    double activations = trainingActivations(job);
    double persistent = ddpBucket(job, trainable, split);
    double forwardTemporary = persistent + autocastCopies(job, n, split) + zero3Gathered(job, n)
        + dequantisedMatrix(job) + backwardWorkingSet(job);
    double gradientsAtForwardEnd = job.accumulation > 1 ? gradients : headGradient(job, split, zero2);
    double optimizerTemporary = persistent + optimizerScratch(job, trainable, split / zero1, stateBytes);
    double early = graphUpdateTermsAhead(job, trainable * split / zero1, stateBytes, weightBytes);
    forwardTemporary += early;
    optimizerTemporary += early;

    double forwardPeak = weights + optimizer + activations + forwardTemporary + gradientsAtForwardEnd;
    double stepPeak = weights + optimizer + gradients + optimizerTemporary;
    if (forwardPeak >= stepPeak) {
      return of(job, weights, gradientsAtForwardEnd, optimizer, activations, 0, forwardTemporary);
    }
    return of(job, weights, gradients, optimizer, 0, 0, optimizerTemporary);
  }

  private static Allocation inference(Job job) {
    double split = job.modelShard(1);
    double weights = servedWeightBytes(job) * split;
    double kv = kvCacheBytes(job);
    double working = inferenceWorkingSet(job);
    return of(job, weights, 0, 0, working, kv, dequantisedMatrix(job));
  }

  private static Allocation of(Job job, double weights, double gradients, double optimizer, double activations,
                               double kvCache, double temporary) {
    return new Allocation(DataSize.ofBytes(weights), DataSize.ofBytes(gradients), DataSize.ofBytes(optimizer),
        DataSize.ofBytes(activations), DataSize.ofBytes(kvCache), DataSize.ofBytes(temporary), kvCache);
  }

  /** The breakdown of {@code job}'s {@link #allocation} {@code a} on the job's GPU: the overheads added. */
  static MemoryBreakdown breakdown(Job job, Allocation a) {
    return breakdown(a, job.task, job.tuning, job.gpu.memory().bytes());
  }

  /** The breakdown of allocation {@code a} of {@code task} on a GPU of {@code capacity} bytes: the overheads added. */
  static MemoryBreakdown breakdown(Allocation a, Task task, Tuning tuning, long capacity) {
    // the allocation as the breakdown rounds it: where the allocator's cache fills the card's room, the total is then
    // the capacity to the byte (rounding each part apart put it a byte or two over, so a layout "did not fit" at
    // 15 ranks between fits at 14 and 16; the sizer relies on memory never rising with ranks)
    double allocated = (double) a.weights().bytes() + a.gradients().bytes() + a.optimizer().bytes()
        + a.activations().bytes() + a.kvCache().bytes() + a.temporary().bytes();
    double overhead = tuning.cudaContextBytes(task.executionMode()) + (task.executionMode().usesPyTorchAllocator()
        ? allocatorCache(tuning, capacity, allocated, task.executionMode())
        : engineOverhead(task, tuning, capacity, a.kvCacheBytes()));
    return new MemoryBreakdown(a.weights(), a.gradients(), a.optimizer(), a.activations(), a.kvCache(),
        a.temporary(), DataSize.ofBytes(overhead));
  }

  /**
   * The part of a peak that configuration fixes to the byte, which the memory model's error band does not widen
   * ({@link MemoryEstimate#exact()}): in a serving engine the weights, the KV cache of the batch and the engine's own
   * reserve (the share of the GPU it leaves free and the paged cache's waste), which it sizes from the card and its
   * settings; none under PyTorch's or TensorFlow's allocators, whose reserves grow with what is allocated, as the
   * band was calibrated (there is no serving-engine memory row to calibrate the rest against: CALIBRATION.md).
   */
  static DataSize configured(MemoryBreakdown b, Task task, Tuning tuning) {
    if (task.executionMode() != ExecutionMode.SERVING_ENGINE) {
      return DataSize.ZERO;
    }
    long reserve = Math.max(0, b.overhead().bytes() - tuning.cudaContextBytes(task.executionMode()));
    return DataSize.ofBytes(b.weights().bytes() + b.kvCache().bytes() + reserve);
  }

  /**
   * What an allocator other than PyTorch's holds back beyond the CUDA context: TensorFlow's BFC allocator the memory
   * it leaves to the system ({@link #tensorFlowSystemReserve}); a serving engine the share of the GPU it does not take
   * ({@link #SERVING_MEMORY_UTILIZATION}) and the paged KV cache's waste ({@link #PAGED_KV_WASTE_FRACTION}).
   */
  private static double engineOverhead(Task task, Tuning tuning, long capacity, double kvCache) {
    if (task.executionMode() == ExecutionMode.TENSORFLOW_GRAPH) {
      return tensorFlowSystemReserve(tuning, capacity);
    }
    return PAGED_KV_WASTE_FRACTION * kvCache + (1 - SERVING_MEMORY_UTILIZATION) * capacity;
  }

  /**
   * TensorFlow 1.x's {@code MinSystemMemory} ({@code tensorflow/core/common_runtime/gpu/gpu_device.cc}): when no
   * memory fraction is set, the GPU device hands its BFC allocator the free memory less
   * {@code max(300 MiB, 0.05 × free)}; "free" is what {@code cudaMemGetInfo} reports once the CUDA context exists.
   */
  static final double TENSORFLOW_SYSTEM_FRACTION = 0.05;

  /** The floor of {@link #TENSORFLOW_SYSTEM_FRACTION}: 314,572,800 bytes (300 MiB) in the same function. */
  static final double TENSORFLOW_SYSTEM_MIN_BYTES = 300L << 20;

  /** Memory TensorFlow's BFC allocator leaves to the system and never hands to tensors. */
  static double tensorFlowSystemReserve(Job job) {
    return tensorFlowSystemReserve(job.tuning, job.gpu.memory().bytes());
  }

  private static double tensorFlowSystemReserve(Tuning tuning, long capacity) {
    double free = Math.max(0, capacity - tuning.cudaContextBytes(ExecutionMode.TENSORFLOW_GRAPH));
    return Math.max(TENSORFLOW_SYSTEM_MIN_BYTES, TENSORFLOW_SYSTEM_FRACTION * free);
  }

  /**
   * The caching allocator's reserved-but-unallocated memory at the peak: {@link Tuning#allocatorCacheFraction()} of
   * the allocated bytes (15% by default) as far as the card has room for it beyond the allocation and the CUDA
   * context, and at least the fragmentation that survives a release-and-retry
   * ({@link #ALLOCATOR_FRAGMENTATION_AT_LIMIT}, never more than the caller's fraction). On a 16 GB card with 10 GB
   * allocated the full 15% shows; a 130 GB allocation on a 141 GB card is charged the ~10 GB left, not 20 GB, and
   * fits as long as its 2.4% of unreleasable fragments do.
   */
  static double allocatorCache(Job job, double allocated) {
    return allocatorCache(job.tuning, job.gpu.memory().bytes(), allocated, job.task.executionMode());
  }

  private static double allocatorCache(Tuning tuning, long capacity, double allocated, ExecutionMode mode) {
    double fraction = tuning.allocatorCacheFraction();
    double elastic = fraction * allocated;
    double fragments = Math.min(fraction, ALLOCATOR_FRAGMENTATION_AT_LIMIT) * allocated;
    double room = capacity - tuning.cudaContextBytes(mode) - allocated;
    return Math.max(fragments, Math.min(elastic, room));
  }

  /**
   * Bytes of one training checkpoint: the trainable weights as the optimizer keeps them (FP32 masters under mixed
   * precision) and the optimizer state, the training state {@code torch.distributed.checkpoint} saves; 0 for
   * inference. Gradients are not saved.
   */
  static double checkpointBytes(Job job) {
    double stateBytes = job.precision.pureHalf() ? 2 : 4;
    return trainableParameters(job) * (job.precision.weightBytes() + optimizerBytesPerParameter(job, stateBytes));
  }

  /**
   * Bytes a run reads before its first step: none when pre-training from scratch; the served weights for inference
   * (pre-quantised checkpoints are stored quantised); for fine-tuning the published 16-bit checkpoint (the form
   * Hugging Face models are distributed in, as safetensors), quantised after loading for QLoRA.
   */
  static double weightsToLoad(Job job) {
    return switch (job.task.kind()) {
      case PRETRAINING -> 0;
      case INFERENCE -> servedWeightBytes(job);
      default -> job.model.parameters() * CHECKPOINT_BYTES_PER_WEIGHT;
    };
  }

  /** Parameters that receive gradients: all of them, or the LoRA adapters. */
  static double trainableParameters(Job job) {
    return job.trainableParameters; // counted once per job
  }

  /**
   * Frozen base weights of LoRA/QLoRA in bytes: the transformer layers' linear weights at the quantised size, the
   * rest (embeddings, output head, norms) at the precision's weight size.
   */
  private static double frozenWeightBytes(Job job, double baseBytes) {
    return storedWeightBytes(job, baseBytes);
  }

  /** Served weights: at the compute format's size (16-bit for BF16/FP16, 1 byte for FP8, 4 for FP32) or quantised. */
  private static double servedWeightBytes(Job job) {
    return storedWeightBytes(job, job.computeBytes);
  }

  private static double storedWeightBytes(Job job, double baseBytes) {
    ModelSpec model = job.model;
    double n = job.parameters;
    WeightQuantization quantization = job.task.quantization();
    if (quantization == WeightQuantization.NONE) {
      return n * baseBytes;
    }
    double quantized = model instanceof Transformer t ? t.quantizableWeights() : n;
    double width = model instanceof Transformer t ? t.hidden() : ADAFACTOR_ASSUMED_WIDTH;
    return quantized * quantizedBytesPerWeight(job, quantization, width) + (n - quantized) * baseBytes;
  }

  /**
   * Bytes of one weight stored as {@code q}: the framework's own format where it has one (llama.cpp's GGUF blocks),
   * else the generic one; {@code width} is the input width of a weight matrix's rows.
   */
  static double quantizedBytesPerWeight(Job job, WeightQuantization q, double width) {
    OptionalDouble own = job.task.framework().profile().bitsPerWeight(q);
    if (own.isPresent()) {
      return own.getAsDouble() / 8;
    }
    return switch (q) {
      // LLM.int8() / weight-only INT8: one byte per weight and one FP32 scale per output row of `width` inputs.
      case INT8 -> 1 + 4 / width;
      case INT4 -> INT4_BYTES_PER_WEIGHT;
      case NF4 -> NF4_BYTES_PER_WEIGHT;
      case FP8 -> FP8_BYTES_PER_WEIGHT;
      case NONE -> throw new IllegalArgumentException("unquantised weights take the compute format's bytes");
    };
  }

  /**
   * Optimizer state per trainable parameter: SGD none; momentum and RMSprop one buffer; Adam/AdamW/LAMB two moments (FP32, or
   * 16-bit under pure BF16); 8-bit Adam two one-byte moments (Dettmers et al. 2022, "8-bit Optimizers via Block-wise
   * Quantization"); Adafactor a factored second moment of {@code rows + cols} per matrix and no first moment
   * (Shazeer &amp; Stern 2018; the Hugging Face default {@code beta1=None}).
   */
  static double optimizerBytesPerParameter(Job job, double stateBytes) {
    Optimizer optimizer = job.task.optimizer();
    return switch (optimizer) {
      case SGD -> 0;
      case SGD_MOMENTUM, RMSPROP -> stateBytes;
      case ADAM, ADAMW, LAMB -> 2 * stateBytes;
      case ADAM_8BIT -> 2 * ADAM_8BIT_BYTES_PER_STATE;
      case ADAFACTOR -> adafactorFraction(job) * stateBytes;
    };
  }

  private static double adafactorFraction(Job job) {
    if (job.model instanceof Transformer t) {
      if (job.adapter) {
        // A (r × in) and B (out × r) factor into (r + in) + (out + r), about 1/r of their r·(in + out) weights.
        return 1.0 / job.task.loraRank();
      }
      long h = t.hidden();
      long q = t.queryDim();
      long kv = t.kvDim();
      long f = t.ffn();
      double perLayer = (h + q) * 2 + (h + kv) * 2 + (t.gatedMlp() ? 3 : 2) * (h + f) * (double) t.experts();
      double factored = perLayer * t.totalLayers() + (t.vocab() + h) * (t.tiedEmbeddings() ? 1 : 2);
      return Math.min(1, factored / t.parameters());
    }
    return 2 / ADAFACTOR_ASSUMED_WIDTH;
  }

  /**
   * Saved activations of one GPU's micro-batch (and of the micro-batches in flight on the first pipeline stage under
   * 1F1B scheduling: Narayanan et al. 2021, §2.2.1), plus the loss buffer.
   */
  static double trainingActivations(Job job) {
    ModelSpec model = job.model;
    Checkpointing checkpointing = job.task.checkpointing();
    double e = job.activationBytes;
    double b = job.microBatch;
    if (model instanceof Transformer t) {
      double tokens = job.microTokens();
      int layers = t.totalLayers();
      double stageLayers = Math.ceil((double) layers / job.pp);
      double inFlight = job.pp > 1 ? Math.min(job.pp, job.accumulation) * interleavedInFlight(job) : 1;
      double stored;
      if (checkpointing == Checkpointing.FULL) {
        // Korthikanti et al. 2022, §4.1: full recomputation keeps each layer's input (2sbh bytes in 16-bit) and
        // rebuilds one layer's activations at a time in the backward pass.
        stored = stageLayers * inFlight * tokens * e * t.hidden() + tokens * layerBytesPerToken(job, t, true);
      } else if (opLevelSelective(job)) {
        // Op-level selective checkpointing keeps what selectiveLayerBytesPerToken counts in every layer and
        // rebuilds the rest of one layer at a time in the backward pass.
        double full = averageLayerBytes(job, t, false);
        double kept = selectiveLayerBytesPerToken(job, t) * full / layerBytesPerToken(job, t, false);
        stored = stageLayers * inFlight * tokens * kept + tokens * Math.max(0, full - kept);
      } else {
        stored = stageLayers * inFlight * tokens * averageLayerBytes(job, t, checkpointing == Checkpointing.NONE);
      }
      return (stored + lossBuffer(job, t.vocab(), t.hasLanguageHead())) / job.tp;
    }
    if (model instanceof Recurrent r) {
      double tokens = job.microTokens();
      double perToken = 0;
      for (int layer = 0; layer < r.totalLayers(); layer++) {
        perToken += recurrentLayerElements(r, layer);
      }
      perToken += recurrentAttentionElements(r, job.sequence);
      double stageShare = Math.ceil((double) r.totalLayers() / job.pp) / r.totalLayers();
      return tokens * e * perToken * stageShare + lossBuffer(job, r.vocab(), true);
    }
    double perSample;
    if (model instanceof ConvNet c) {
      perSample = c.activationElements(job.task.imageSize()) * e;
    } else {
      // Generic models state activation bytes per sample in 16-bit.
      perSample = ((Generic) model).activationBytesPerSample() * e / 2;
    }
    double fraction = checkpointing == Checkpointing.FULL ? SUBLINEAR_CHECKPOINT_FRACTION : 1;
    return b * perSample * fraction;
  }

  /**
   * How much more the first pipeline stage keeps in flight under an interleaved schedule: {@code 1 + (p − 1)/(p·v)}
   * times the activations of the non-interleaved 1F1B schedule (Korthikanti et al. 2022, §4.2.3); 1 without
   * interleaving.
   */
  static double interleavedInFlight(Job job) {
    return job.virtualStages <= 1 ? 1 : 1 + (job.pp - 1.0) / (job.pp * (double) job.virtualStages);
  }

  /**
   * Whether {@link Checkpointing#SELECTIVE} means op-level selective checkpointing: with FlashAttention, which keeps
   * no score matrix, Korthikanti et al.'s selective recomputation (drop the {@code 5as} attention-core term) has
   * nothing left to drop, and selective checkpointing as PyTorch trainers apply it (torchtitan's
   * {@code selective_ac_option = "op"}, {@code torch.utils.checkpoint.create_selective_checkpoint_contexts}) keeps
   * the outputs of the expensive operations and recomputes everything else. Without FlashAttention SELECTIVE keeps
   * Korthikanti et al.'s {@code 34sbh} and drops the scores.
   */
  static boolean opLevelSelective(Job job) {
    return job.task.checkpointing() == Checkpointing.SELECTIVE && job.task.flashAttention()
        && job.model instanceof Transformer;
  }

  /**
   * Bytes per token one layer keeps under op-level selective checkpointing (torchtitan's policy,
   * {@code torchtitan/distributed/activation_checkpoint.py}): the layer's input, which the non-reentrant checkpoint
   * saves (in FP32 when autocast keeps an FP32 residual stream, i.e. without FSDP's 16-bit parameter cast); the
   * output of every other matrix multiplication ({@link Architecture#selectiveKeptMatmulElements}); and the
   * FlashAttention kernel's outputs (SDPA is on the save list): the attention output and an FP32 log-sum-exp per head.
   * Norms, rotary embeddings, activation functions, products and the recomputed matmuls are rebuilt in the backward
   * pass. Llama-3-8B in BF16: 8 KiB + 46 KiB + 8 KiB ≈ 62 KiB per token per layer against ≈ 188 KiB kept without
   * recomputation (about a third).
   */
  static double selectiveLayerBytesPerToken(Job job, Transformer t) {
    double e = job.activationBytes;
    boolean autocast = job.precision.weightBytes() > job.computeBytes;
    double inputBytes = autocast && job.zero != ZeroStage.STAGE_3 ? Math.max(e, 4) : e;
    double bytes = inputBytes * t.hidden();
    bytes += e * Architecture.selectiveKeptMatmulElements(t);
    bytes += e * t.queryDim() + 4.0 * t.heads(); // FlashAttention output O and its log-sum-exp
    return bytes;
  }

  /** Per-token bytes of one layer, decoder layers of encoder-decoder models weighted in with their cross-attention. */
  private static double averageLayerBytes(Job job, Transformer t, boolean keepScores) {
    double layer = layerBytesPerToken(job, t, keepScores);
    if (t.stack() != Stack.ENCODER_DECODER) {
      return layer;
    }
    double cross = attentionBytesPerToken(job, t, keepScores, attentionTrainable(job), outputTrainable(job));
    return layer + cross * t.decoderLayers() / t.totalLayers();
  }

  /**
   * Bytes one transformer layer saves per token for its backward pass. This generalises Korthikanti et al. 2022,
   * "Reducing Activation Recomputation in Large Transformer Models", eq. 1 — {@code sbh(34 + 5as/h)} in 16-bit —
   * term by term to GQA, gated MLPs, any FFN width, RMSNorm and frozen weights:
   *
   * <ul>
   *   <li>two norm inputs, in FP32 under autocast (layer_norm is on its FP32 list) and for RMSNorm as Hugging Face
   *       and LitGPT write it (it upcasts to FP32), and for a LayerNorm written as TensorFlow operations its
   *       full-width {@code rsqrt(variance)·scale} ({@link Norm#COMPOSED_LAYER_NORM});
   *   <li>attention: the QKV input (only when Q, K or V is trained: PyTorch saves a matmul's input only to compute
   *       its weight gradient), Q, K and V, the attention scores {@code 5as} (softmax output, dropout mask and
   *       output; gone with FlashAttention, which keeps the output and a log-sum-exp per head instead, and with
   *       selective recomputation), the output projection's input (a copy: the heads are transposed back into
   *       {@code [b, s, q]}, so FlashAttention's saved output does not double as it) and a dropout mask;
   *   <li>MLP: its input (when trained), the activation's input (and for gated MLPs both branch outputs and the
   *       product), three more FFN-wide tensors for a tanh GELU written as element-wise operations
   *       ({@link io.github.gpusizer.core.model.Activation#COMPOSED_TANH_GELU}), the second matrix's input (when
   *       trained) and a dropout mask; times the active experts.
   * </ul>
   *
   * With e = 2, f = 4h, MHA, LayerNorm, dropout and everything trained this is exactly {@code 34h + 5as}.
   */
  static double layerBytesPerToken(Job job, Transformer t, boolean keepScores) {
    double e = job.activationBytes;
    double h = t.hidden();
    boolean dropout = t.usesDropout();
    // Autocast runs layer_norm in FP32 (torch.amp's FP32 op list) and saves an FP32 copy of its input; Hugging Face
    // and LitGPT write RMSNorm to upcast to FP32 in any 16-bit mode.
    boolean autocast = job.precision.weightBytes() > job.computeBytes;
    double normBytes = e < 4 && (autocast || t.norm() == Norm.RMS_NORM) ? 4 : e;
    // a LayerNorm in TensorFlow operations also keeps its broadcast rsqrt(variance)·scale (COMPOSED_LAYER_NORM)
    double bytes = 2 * (normBytes + t.norm().extraSavedTensors() * e) * h;
    bytes += attentionBytesPerToken(job, t, keepScores, attentionTrainable(job), outputTrainable(job));
    boolean mlpTrained = !job.adapter || savesFrozenInputs(job) || job.task.loraTargets().contains(LoraTarget.MLP);
    double mlp = mlpTrained ? e * h : 0;
    double activationTerms = (t.gatedMlp() ? 3 : 1) + (mlpTrained ? 1 : 0) + t.activation().extraSavedTensors();
    mlp += activationTerms * e * t.ffn();
    bytes += mlp * t.activeExperts();
    if (dropout) {
      bytes += dropoutBytes(job, t) * h;
    }
    return bytes;
  }

  /**
   * Bytes one dropout site keeps per element: PyTorch's one-byte mask, or for TensorFlow's composed dropout
   * ({@link io.github.gpusizer.core.model.Dropout#SCALED_FLOAT_MASK}) a mask in the activations' format.
   */
  static double dropoutBytes(Job job, Transformer t) {
    return t.dropout().savedBytesPerElement(job.activationBytes);
  }

  /**
   * Bytes eager attention saves per score element: the softmax output, and with dropout its mask (1 B) and its
   * output, which the probability-times-value matmul saves (Korthikanti et al.'s {@code 5as}: {@code 2 + 1 + 2}).
   * Under autocast softmax runs in FP32 (torch.amp's "CUDA ops that can autocast to float32" list includes softmax),
   * so its output takes 4 B and the matmul saves its own 16-bit cast of the probabilities: {@code 4 + 1 + 2} with
   * dropout, {@code 4 + 2} without. A fused 16-bit softmax ({@link AttentionKernel#FUSED_SOFTMAX}, Megatron-LM) keeps
   * Korthikanti et al.'s {@code 2 + 1 + 2}.
   */
  static double scoreBytes(Job job, boolean dropout) {
    double e = job.activationBytes;
    double mask = job.task.model() instanceof Transformer t ? dropoutBytes(job, t) : 1;
    boolean autocast = job.precision.weightBytes() > job.computeBytes && e < 4;
    if (autocast && job.task.attention() == AttentionKernel.EAGER) {
      return 4 + (dropout ? mask : 0) + e;
    }
    return e + (dropout ? mask + e : 0);
  }

  private static double attentionBytesPerToken(Job job, Transformer t, boolean keepScores, boolean qkvTrained,
                                               boolean outputTrained) {
    double e = job.activationBytes;
    double h = t.hidden();
    double q = t.queryDim();
    double kv = t.kvDim();
    double a = t.heads();
    double s = job.sequence;
    boolean flash = job.task.flashAttention();
    boolean dropout = t.usesDropout();
    double bytes = qkvTrained ? e * h : 0;
    bytes += e * (q + 2 * kv);
    if (flash) {
      bytes += 4 * a; // FP32 log-sum-exp per head (Dao 2023, FlashAttention-2, Algorithm 1)
    } else if (keepScores) {
      bytes += scoreBytes(job, dropout) * a * s;
    }
    if (flash) {
      bytes += e * q; // FlashAttention's backward needs its output O
    }
    if (outputTrained) {
      bytes += e * q; // the output projection's input: the heads transposed back into a fresh [b, s, q] tensor
    }
    if (dropout) {
      bytes += dropoutBytes(job, t) * h;
    }
    return bytes;
  }

  /**
   * Whether the inputs of frozen linear layers are saved anyway: bitsandbytes' 4-bit matmul saves its input whenever
   * any input needs a gradient ({@code MatMul4Bit.forward}: {@code ctx.tensors = (A, B)}), unlike PyTorch's own
   * matmul, which saves the input only for the weight gradient.
   */
  private static boolean savesFrozenInputs(Job job) {
    return job.task.quantization() != WeightQuantization.NONE;
  }

  private static boolean attentionTrainable(Job job) {
    if (!job.adapter || savesFrozenInputs(job)) {
      return true;
    }
    var targets = job.task.loraTargets();
    return targets.contains(LoraTarget.Q) || targets.contains(LoraTarget.K) || targets.contains(LoraTarget.V);
  }

  private static boolean outputTrainable(Job job) {
    return !job.adapter || savesFrozenInputs(job) || job.task.loraTargets().contains(LoraTarget.O);
  }

  /**
   * Elements one LSTM/GRU layer saves per token: gate pre-activations, cell and hidden state per direction, and its
   * input.
   */
  static double recurrentLayerElements(Recurrent r, int layer) {
    return r.directions(layer) * (r.cell().gates() + 2.0) * r.hidden() + r.layerInput(layer);
  }

  /**
   * Elements the attention of a sequence-to-sequence model saves per target token over {@code sourceTokens}: the
   * projected keys (one row per source token, counted per token as the lengths are equal), the query, the scores
   * and their softmax, and the context; 0 without attention.
   */
  static double recurrentAttentionElements(Recurrent r, double sourceTokens) {
    return r.attention() ? 2.0 * r.hidden() + 2 * sourceTokens + r.encoderOutputWidth() : 0;
  }

  /**
   * The loss buffer at its peak, the start of the backward pass, by {@link LossKernel}: materialized, the logits the
   * model returns (compute format), the FP32 log-softmax output cross-entropy saves (Hugging Face and LitGPT upcast
   * the logits with {@code .float()} first) and the FP32 gradients flowing into and out of the log-softmax,
   * {@code e + 12} bytes per logit — often the largest single buffer with 32k–256k vocabularies; chunked, the logits
   * in the compute format and the FP32 terms of one chunk, {@code e + 12 / 8}; fused, no logits but a chunk of them
   * the size of the {@code tokens × hidden} input (twice that at most) and the input's gradient,
   * {@code 3 × tokens × hidden × e} (a recurrent network, whose head the fused kernels do not serve, as
   * materialized).
   */
  static double lossBuffer(Job job, int vocab, boolean hasHead) {
    if (!hasHead) {
      return 0;
    }
    double e = job.activationBytes;
    return switch (job.task.loss()) {
      case MATERIALIZED -> job.microTokens() * vocab * (e + 3 * 4);
      case CHUNKED -> job.microTokens() * vocab * (e + 3 * 4.0 / CHUNKED_LOSS_CHUNKS);
      case FUSED -> job.model instanceof Transformer t ? 3 * job.microTokens() * t.hidden() * e
          : job.microTokens() * vocab * (e + 3 * 4);
    };
  }

  /** torchtune's {@code CEWithChunkedOutputLoss} default {@code num_output_chunks} ({@link LossKernel#CHUNKED}). */
  static final int CHUNKED_LOSS_CHUNKS = 8;

  /** PyTorch DDP keeps a second copy of all gradients in its all-reduce buckets ({@code gradient_as_bucket_view=False}, the default; torch.nn.parallel.DistributedDataParallel docs). */
  private static double ddpBucket(Job job, double trainable, double split) {
    if (job.gradientRanks <= 1 || job.zero != ZeroStage.NONE) {
      return 0;
    }
    return trainable * job.precision.gradientBytes() * split;
  }

  /**
   * Autocast casts each FP32 weight to the compute format once per forward pass and autograd keeps the copy for the
   * backward pass (torch.amp autocast, {@code cache_enabled=True}); Transformer Engine keeps FP8 copies likewise.
   * Under ZeRO-3/FSDP the gathered 16-bit layers replace this.
   */
  private static double autocastCopies(Job job, double n, double split) {
    boolean mixed = job.precision.weightBytes() > job.computeBytes;
    if (!mixed || job.zero == ZeroStage.STAGE_3 || job.task.quantization() != WeightQuantization.NONE) {
      return 0;
    }
    // frozen 16-bit weights are already in the compute format of a 16-bit recipe: only the trained ones are cast
    boolean frozenCast = !job.adapter || job.computeBytes < frozenBytesPerWeight(job);
    return (frozenCast ? n : trainableParameters(job)) * split * job.computeBytes;
  }

  /**
   * Bytes of a frozen base weight (LoRA): mixed precision keeps an FP32 master copy only of the weights it updates,
   * so that small updates accumulate (Micikevicius et al. 2018, "Mixed Precision Training", §3.1); a frozen weight
   * is held as the 16-bit checkpoint holds it (Hugging Face checkpoints are 16-bit safetensors; Transformers 5 loads
   * them as stored, {@code dtype="auto"}), and an FP8 recipe casts it per pass as it casts any weight (Transformer
   * Engine's {@code fp8_autocast}). Pure FP32 or TF32 training holds it in FP32, a pure 16-bit recipe in 16 bits.
   */
  static double frozenBytesPerWeight(Job job) {
    int weightBytes = job.precision.weightBytes();
    return weightBytes > job.computeBytes ? Math.min(weightBytes, CHECKPOINT_BYTES_PER_WEIGHT) : weightBytes;
  }

  /** A published checkpoint's bytes per weight: 16-bit safetensors, as {@link #weightsToLoad} reads them. */
  static final double CHECKPOINT_BYTES_PER_WEIGHT = 2;

  /**
   * FSDP's {@code size_based_auto_wrap_policy} default: a unit of at least 100M parameters
   * ({@code min_num_params = int(1e8)}), the wrapping assumed for models without known layers.
   */
  static final double FSDP_UNIT_PARAMETERS = 1e8;

  /**
   * ZeRO-3/FSDP gathers one unit (a transformer layer; for other models a 100M-parameter unit) in 16-bit and
   * prefetches the next (FSDP {@code forward_prefetch}/{@code backward_prefetch}; ZeRO-3 prefetch bucket), and holds
   * one unit's unsharded gradients before the reduce-scatter.
   */
  private static double zero3Gathered(Job job, double n) {
    if (job.zero != ZeroStage.STAGE_3 || job.shard <= 1) {
      return 0;
    }
    double unit = job.model instanceof Transformer t ? n / t.totalLayers() : Math.min(n, FSDP_UNIT_PARAMETERS);
    unit /= job.tp;
    return 2 * unit * job.computeBytes + unit * job.precision.gradientBytes();
  }

  /** bitsandbytes/GPTQ dequantise one weight matrix at a time into 16-bit before the matmul (the largest one). */
  private static double dequantisedMatrix(Job job) {
    if (job.task.quantization() == WeightQuantization.NONE || !(job.model instanceof Transformer t)) {
      return 0;
    }
    double largest = Math.max((double) t.hidden() * t.ffn(), (double) t.hidden() * t.queryDim());
    return largest * 2 / job.tp;
  }

  /**
   * The backward pass's working set: gradients of one layer's activations while they are computed (transformers and
   * recurrent networks), or of the largest CNN activation.
   */
  private static double backwardWorkingSet(Job job) {
    if (job.model instanceof Transformer t) {
      return job.microTokens() * layerBytesPerToken(job, t, job.task.checkpointing() == Checkpointing.NONE)
          / job.tp;
    }
    if (job.model instanceof Recurrent r) {
      return job.microTokens() * job.activationBytes * recurrentLayerElements(r, r.totalLayers() - 1);
    }
    if (job.model instanceof ConvNet) {
      return stemWorkingSet(job);
    }
    return 0;
  }

  /** The output head's gradient, the first gradient the backward pass allocates. */
  private static double headGradient(Job job, double split, double zero2) {
    if (job.adapter || !(job.model instanceof Transformer t) || !t.hasLanguageHead()) {
      return 0;
    }
    return (double) t.vocab() * t.hidden() * job.precision.gradientBytes() * split / zero2;
  }

  /**
   * The optimizer step's scratch: PyTorch's default {@code foreach} Adam/AdamW builds {@code sqrt(v)} for all
   * parameters as one tensor list before {@code addcdiv} (torch/optim/adam.py, {@code _multi_tensor_adam}); the
   * fused 8-bit optimizers and SGD work in place.
   */
  private static double optimizerScratch(Job job, double trainable, double share, double stateBytes) {
    return switch (job.task.optimizer()) {
      // foreach RMSprop likewise takes sqrt(square_avg) out of place (torch/optim/rmsprop.py, _multi_tensor_rmsprop)
      case ADAM, ADAMW, LAMB, ADAFACTOR, RMSPROP -> trainable * share * stateBytes;
      case SGD, SGD_MOMENTUM, ADAM_8BIT -> 0;
    };
  }

  /**
   * Bytes of update terms a TensorFlow graph computes before the step's backward pass and holds until the gradients
   * arrive. TensorFlow's executor runs an operation as soon as its inputs exist (Abadi et al. 2016, "TensorFlow:
   * Large-Scale Machine Learning on Heterogeneous Distributed Systems", §3.1: a node joins the ready queue once its
   * count of unexecuted inputs reaches zero; the pending counts of {@code tensorflow/core/common_runtime/executor.cc}),
   * so a term of an optimizer written in TensorFlow operations that reads only variables is computed at the start of
   * the step. BERT's {@code AdamWeightDecayOptimizer} (google-research/bert {@code optimization.py}, which
   * DeepLearningExamples' TensorFlow BERT copies, and whose LAMB has the same terms) writes {@code β1·m},
   * {@code β2·v} and {@code weight_decay_rate·θ} per parameter: two state-sized tensors and one weight-sized (the
   * LayerNorm and bias variables it exempts from decay are under 0.2% of BERT's parameters, not subtracted). TF1 has
   * no AdamW or LAMB of its own, so {@code ADAMW} and {@code LAMB} in a graph are taken to be written this way;
   * {@code tf.train}'s Adam and momentum run as fused kernels ({@code ApplyAdam}, {@code ApplyMomentum}) and make
   * none. Nothing outside {@link ExecutionMode#TENSORFLOW_GRAPH}.
   */
  private static double graphUpdateTermsAhead(Job job, double parameters, double stateBytes, double weightBytes) {
    if (job.task.executionMode() != ExecutionMode.TENSORFLOW_GRAPH) {
      return 0;
    }
    return switch (job.task.optimizer()) {
      case ADAMW, LAMB -> parameters * (2 * stateBytes + weightBytes);
      default -> 0;
    };
  }

  /**
   * KV cache: {@code 2 · layers · kvHeads · headDim · (prompt + generated) · batch} elements in the compute format,
   * split over tensor-parallel ranks (heads) and pipeline stages (layers). Only layers that decode keep one: none in
   * an encoder-only model (BERT, ViT run one bidirectional pass and generate nothing), the decoder layers of an
   * encoder-decoder model (self-attention over the generated tokens, cross-attention over the encoded prompt).
   */
  static double kvCacheBytes(Job job) {
    if (!(job.model instanceof Transformer t) || t.stack() == Stack.ENCODER) {
      return 0;
    }
    double context = (double) job.task.sequenceLength() + job.task.generatedTokens();
    return kvCacheBytesPerToken(job, job.task.kvCacheBytes()) * context * job.microBatch;
  }

  /**
   * KV-cache bytes one token of one sequence takes on one GPU, {@code 2 · layers · kvHeads · headDim · bytes}
   * split over tensor-parallel ranks and pipeline stages; 0 for models that keep no KV cache.
   */
  static double kvCacheBytesPerToken(Job job, double bytesPerElement) {
    if (!(job.model instanceof Transformer t) || t.stack() == Stack.ENCODER) {
      return 0;
    }
    double layers = t.stack() == Stack.ENCODER_DECODER ? t.decoderLayers() : t.totalLayers();
    return 2 * layers * t.kvDim() * bytesPerElement / job.tp / job.pp;
  }

  /**
   * Room left for the KV cache on one GPU once the weights, one forward pass of the task's batch (the largest
   * prefill the engine runs) and the overheads of {@link #of} are held: the inverse of {@link #of} in the KV cache.
   * A serving engine keeps {@link #SERVING_MEMORY_UTILIZATION} of the GPU and loses {@link #PAGED_KV_WASTE_FRACTION}
   * of its pool to partly filled blocks; PyTorch's caching allocator holds its cache fraction of everything
   * allocated, the KV cache included; TensorFlow's BFC allocator leaves its system reserve. Never negative.
   */
  static double kvCacheCapacityBytes(Job job) {
    MemoryBreakdown without = inferenceWithoutKvCache(job);
    double held = without.weights().bytes() + without.activations().bytes() + without.temporary().bytes();
    double capacity = job.gpu.memory().bytes();
    ExecutionMode mode = job.task.executionMode();
    double room = mode.usesPyTorchAllocator()
        ? (capacity - job.tuning.cudaContextBytes(mode)) / (1 + job.tuning.allocatorCacheFraction()) - held
        : mode == ExecutionMode.TENSORFLOW_GRAPH
            ? capacity - job.tuning.cudaContextBytes(mode) - tensorFlowSystemReserve(job) - held
            : (SERVING_MEMORY_UTILIZATION * capacity - job.tuning.cudaContextBytes(mode) - held)
                / (1 + PAGED_KV_WASTE_FRACTION);
    return Math.max(0, room);
  }

  /** The inference breakdown with no KV cache: weights, one forward pass's working set and the overheads. */
  static MemoryBreakdown inferenceWithoutKvCache(Job job) {
    double weights = servedWeightBytes(job) * job.modelShard(1);
    return breakdown(job, of(job, weights, 0, 0, inferenceWorkingSet(job), 0, dequantisedMatrix(job)));
  }

  /**
   * One forward pass's live tensors: for a transformer one layer's intermediate tensors for the whole prompt batch
   * (a serving engine's iteration budget of it, {@link #ENGINE_BATCHED_TOKENS}), plus the score matrix without
   * FlashAttention, and the last token's FP32 logits; for CNNs the stem's input and output; for recurrent networks
   * one step's gates; for generic models their stated activations.
   */
  static double inferenceWorkingSet(Job job) {
    double e = job.activationBytes;
    ModelSpec model = job.model;
    if (model instanceof Transformer t) {
      double tokens = job.task.executionMode() == ExecutionMode.SERVING_ENGINE
          ? Math.min(job.microTokens(), Math.max(ENGINE_BATCHED_TOKENS, job.sequence)) : job.microTokens();
      double h = t.hidden();
      double perToken = e * (2 * h + t.queryDim() + 2 * t.kvDim()
          + (t.gatedMlp() ? 3 : 2) * (double) t.ffn() * t.activeExperts());
      double scores = job.task.flashAttention() ? 0 : e * t.heads() * (double) job.sequence * tokens;
      double logits = 4.0 * job.microBatch * t.vocab();
      return (tokens * perToken + scores) / job.tp + logits;
    }
    if (model instanceof Recurrent r) {
      return (double) job.microBatch * e * ((r.cell().gates() + 2.0) * r.hidden() * r.totalLayers()) + 4.0
          * job.microBatch * r.vocab();
    }
    if (model instanceof ConvNet) {
      return stemWorkingSet(job);
    }
    return job.microBatch * ((Generic) model).activationBytesPerSample() * e / 2.0;
  }

  private static double stemWorkingSet(Job job) {
    double side = job.task.imageSize() / 2.0;
    return 2.0 * STEM_CHANNELS * side * side * job.activationBytes * job.microBatch;
  }
}
