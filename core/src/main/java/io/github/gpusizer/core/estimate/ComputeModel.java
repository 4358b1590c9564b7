package io.github.gpusizer.core.estimate;

import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.core.model.ConvNet;
import io.github.gpusizer.core.model.Generic;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Recurrent;
import io.github.gpusizer.core.model.Stack;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.LoraTarget;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Framework;
import io.github.gpusizer.core.task.WeightQuantization;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.OptionalDouble;

/**
 * FLOPs and GPU time of a step. Every matrix multiplication is placed on the roofline with its own shape, so small
 * matmuls (decoding, small hidden sizes, recurrent steps) become bandwidth-bound by themselves; element-wise work is
 * charged as memory traffic; kernels add up.
 */
final class ComputeModel {
  /**
   * Memory passes over each saved activation byte: the forward pass writes it, the next kernel reads it and a
   * normalisation reads it once more for its statistics (3); the backward pass reads it and the incoming gradient
   * and writes the outgoing gradient, twice for normalisations' two-pass reductions (6). Ivanov et al. 2021, "Data
   * Movement Is All You Need" (MLSys), find such memory-bound operators take about a third of BERT training time
   * while doing under 1% of its FLOPs.
   */
  static final double FORWARD_PASSES = 3;

  /** See {@link #FORWARD_PASSES}. */
  static final double BACKWARD_PASSES = 6;

  /**
   * Host time per transformer layer per forward pass in eager PyTorch (Python dispatch of some 30–40 operators):
   * PyTorch's gpt-fast baseline decodes Llama-2-7B (32 layers) eagerly at 25.5 tokens/s on an A100-80GB, 39.2 ms per
   * token, while reading the weights takes only ~9 ms; the host, not the GPU, sets that pace: 39.2 ms / 32 layers ≈
   * 1.2 ms per layer ("Accelerating Generative AI with PyTorch II: GPT, Fast", PyTorch blog, Nov 2023; with CUDA
   * graphs via torch.compile the same model runs at 107 tokens/s). The host queues kernels ahead of the GPU, so a
   * pass takes the longer of its GPU time and its host time.
   */
  static final double HOST_SECONDS_PER_LAYER = 1.22e-3;

  /**
   * Host time to dispatch one kernel from eager PyTorch: NVIDIA's Nsight Systems guide measures the round trip of a
   * PyTorch element-wise kernel, from the Python call to the kernel's start, at about 20 µs on a V100 (quoted in
   * "Every CUDA kernel pays a launch tax", groundy.com). Charged per kernel for networks without a per-layer figure
   * (CNNs), and as a floor under {@link #HOST_SECONDS_PER_LAYER} for transformers.
   */
  static final double EAGER_SECONDS_PER_KERNEL = 20e-6;

  /**
   * The shortest time a kernel occupies the GPU in any execution mode, CUDA-graph replay included: an empty kernel
   * takes about 3 µs from launch to completion on recent hardware and drivers (NVIDIA developer forums, "Too much
   * time for kernel launch latency", 2022, njuffa: "reduced to about 3 microseconds", the "new speed of light").
   */
  static final double KERNEL_FLOOR_SECONDS = 3e-6;

  /**
   * Kernels of one transformer layer's forward pass as fused implementations launch them (vLLM, TensorRT-LLM,
   * gpt-fast after compilation): input norm, QKV projection, rotary embedding, attention, output projection, residual
   * add + norm, up/gate projection, activation, down projection, residual add.
   */
  static final double KERNELS_PER_TRANSFORMER_LAYER = 10;

  /**
   * Backward kernels per forward kernel: back-propagation runs an input-gradient and a weight-gradient kernel for
   * each forward one, the same pair that makes the backward pass twice the forward FLOPs (Kaplan et al. 2020,
   * "Scaling Laws for Neural Language Models", §2.1: 2N forward, 4N backward).
   */
  static final double BACKWARD_KERNELS_PER_FORWARD = 2;

  /**
   * FlashAttention's backward work over its forward work: it recomputes the scores and forms three gradient products
   * (Dao 2023, "FlashAttention-2", §3.1.2: 2.5× the forward FLOPs).
   */
  static final double FLASH_BACKWARD_WORK = 2.5;

  private ComputeModel() {}

  /** GPU time of one step (training: one optimizer step; inference: one batch), communication included. */
  static StepTime step(Job job) {
    return job.training ? training(job, micro(job)) : inference(job, job.tuning.mfu(), hostSecondsPerLayer(job));
  }

  /** The host time eager execution charges per layer; 0 for compiled code and serving engines. */
  static double hostSecondsPerLayer(Job job) {
    return job.task.executionMode().launchesFromPython() ? job.tuning.hostSecondsPerLayer(job.task) : 0;
  }

  /**
   * One training micro-batch on one GPU: it depends on the task, the GPU, the tensor, pipeline and context-parallel
   * degrees and whether ZeRO-3 gathers the weights, never on the data-parallel ranks, the nodes or the network, so a search may
   * reuse it over instance counts ({@link Estimator.Memo}).
   */
  static Micro micro(Job job) {
    return micro(job, job.tuning.mfu(), hostSecondsPerLayer(job));
  }

  /**
   * The least time a training step can take: its arithmetic, memory traffic and host time with communication,
   * pipeline bubbles and input stalls all hidden; {@link #training} adds them.
   */
  static double leastTrainingStepSeconds(Job job, Micro micro) {
    return job.accumulation * micro.seconds() + optimizerSeconds(job);
  }

  /**
   * The least time {@code kernels} kernels take in the task's execution mode: eager PyTorch dispatches each from
   * Python ({@link #EAGER_SECONDS_PER_KERNEL}); compiled code and serving engines replay CUDA graphs, which leaves
   * only the device's floor per kernel ({@link #KERNEL_FLOOR_SECONDS}).
   */
  static double launchFloorSeconds(Job job, double kernels) {
    boolean eager = job.task.executionMode().launchesFromPython() && job.tuning.hostSecondsPerLayer(job.task) > 0;
    return kernels * (eager ? EAGER_SECONDS_PER_KERNEL : KERNEL_FLOOR_SECONDS);
  }

  /** Makes the pass last at least {@code floorSeconds}: the GPU waits for the host (or its launch queue) meanwhile. */
  private static void atLeast(Roofline pass, double floorSeconds) {
    pass.idle(Math.max(0, floorSeconds - pass.seconds()));
  }

  // ---------------------------------------------------------------- training

  /** A training step of the job whose micro-batch is {@code micro} ({@link #micro(Job)}). */
  static StepTime training(Job job, Micro micro) {
    double optimizerSeconds = optimizerSeconds(job);
    double m = job.accumulation;
    CommunicationModel.Exposed comm = CommunicationModel.training(job, micro);
    // 1F1B bubble: (p − 1) micro-batch times; interleaving v chunks per rank cuts it to (p − 1)/v (Narayanan et al.
    // 2021, §2.2: bubble fraction (p − 1)/m, and (p − 1)/(v·m) with the interleaved schedule)
    double bubble = (job.pp - 1) * micro.seconds() / job.virtualStages;
    double gpus = job.layout.gpus();
    double samples = job.globalBatch();
    double tokens = job.sequenceModel() ? samples * job.sequence : 0;
    double modelFlops = modelFlopsPerSample(job) * samples;
    double hardwareFlops = micro.flops * m * gpus;
    double compute = m * micro.computeSeconds;
    double memory = m * micro.memorySeconds + optimizerSeconds;
    double host = m * micro.hostSeconds;
    double ideal = compute + memory + host;
    return new StepTime(modelFlops, hardwareFlops, compute, memory, host,
        comm.seconds() + bubble, ideal, samples, tokens);
  }

  /** One micro-batch on one GPU (one pipeline stage), split into forward and backward for overlap. */
  record Micro(double forwardSeconds, double backwardSeconds, double computeSeconds, double memorySeconds,
               double hostSeconds, double flops) {
    double seconds() {
      return computeSeconds + memorySeconds + hostSeconds;
    }
  }

  private static Micro micro(Job job, OptionalDouble mfuOverride, double hostPerLayer) {
    Precision precision = job.precision.compute();
    double peak = job.gpu.denseTflops(precision);
    Roofline forward = new Roofline(peak, job.gpu.memoryBandwidthGBps(), job.bandwidthEfficiency());
    Roofline backward = new Roofline(peak, job.gpu.memoryBandwidthGBps(), job.bandwidthEfficiency());
    ModelSpec model = job.model;
    if (model instanceof Transformer t) {
      transformerTraining(job, t, forward, backward, hostPerLayer);
    } else if (model instanceof ConvNet c) {
      convolutions(job, c, forward, backward);
    } else if (model instanceof Recurrent r) {
      recurrent(job, r, forward, backward);
    } else {
      Generic g = (Generic) model;
      double flops = g.forwardFlopsPerSample() * job.microBatch;
      double bytes = (double) g.activationBytesPerSample() * job.activationBytes / 2 * job.microBatch;
      double efficiency = job.gemmEfficiency();
      forward.kernel(flops, 0, efficiency);
      forward.stream(FORWARD_PASSES * bytes);
      backward.kernel(2 * flops, 0, efficiency);
      backward.stream(BACKWARD_PASSES * bytes);
    }
    double flops = forward.flops + backward.flops;
    if (mfuOverride.isPresent()) {
      return overridden(job, forward, backward, flops, peak, mfuOverride.getAsDouble());
    }
    return new Micro(forward.seconds(), backward.seconds(), forward.computeSeconds + backward.computeSeconds,
        forward.memorySeconds + backward.memorySeconds, forward.hostSeconds + backward.hostSeconds, flops);
  }

  /**
   * The caller's efficiency: the arithmetic takes model FLOPs / (peak × mfu), split between forward and backward as
   * the kernels are.
   */
  private static Micro overridden(Job job, Roofline forward, Roofline backward, double flops, double peak,
                                  double mfu) {
    double modelFlops = modelFlopsPerSample(job) * job.microBatch / job.modelShard(1) / job.cp;
    double seconds = modelFlops / (peak * 1e12 * mfu);
    double share = flops == 0 ? 1.0 / 3 : forward.flops / flops;
    return new Micro(seconds * share, seconds * (1 - share), seconds, 0, 0, flops);
  }

  private static void transformerTraining(Job job, Transformer t, Roofline forward, Roofline backward,
                                          double hostPerLayer) {
    double e = job.activationBytes;
    double tp = job.tp;
    double tokens = job.microTokens();
    double stageLayers = (double) t.totalLayers() / job.pp;
    boolean full = job.task.checkpointing() == Checkpointing.FULL;
    // Op-level selective checkpointing recomputes every other matmul and all element-wise work, not attention;
    // Korthikanti et al.'s selective recomputation (without FlashAttention) recomputes the attention core only.
    boolean opSelective = MemoryModel.opLevelSelective(job);
    boolean attentionRecomputed = full
        || job.task.checkpointing() == Checkpointing.SELECTIVE && !job.task.flashAttention();
    double[] recomputedShares = opSelective ? Architecture.selectiveRecomputedShares(t) : new double[4];
    double efficiency = job.gemmEfficiency();
    boolean qlora = job.task.quantization() != WeightQuantization.NONE;
    double weightBytes = job.computeBytes;

    // Layer matmuls: forward (again when recomputing), input gradients, weight gradients of trained weights.
    double h = t.hidden();
    double q = t.queryDim();
    double kv = t.kvDim();
    double f = t.ffn();
    double experts = t.activeExperts();
    double[][] shapes = {
        {h, q + 2 * kv, 1, job.adapter ? 0 : 1},
        {q, h, 1, job.adapter ? 0 : 1},
        {h, (t.gatedMlp() ? 2 : 1) * f, experts, job.adapter ? 0 : 1},
        {f, h, experts, job.adapter ? 0 : 1}}; // {K, N, count, weights trained}: frozen under LoRA
    double decoderShare = t.stack() == Stack.ENCODER_DECODER ? (double) t.decoderLayers() / t.totalLayers() : 0;
    for (int i = 0; i < shapes.length; i++) {
      double[] shape = shapes[i];
      double count = shape[2] * stageLayers;
      matmuls(forward, backward, tokens, shape[0], shape[1] / tp, count, e, weightBytes, efficiency,
          full ? 1 : recomputedShares[i], shape[3] > 0);
    }
    if (decoderShare > 0) { // cross-attention: Q and O on decoder tokens, K and V on encoder outputs
      double count = decoderShare * stageLayers;
      matmuls(forward, backward, tokens, h, (2 * q + 2 * kv) / tp, count, e, weightBytes, efficiency,
          full ? 1 : opSelective ? 0.5 : 0, !job.adapter);
    }
    if (t.hasLanguageHead()) {
      matmuls(forward, backward, tokens, h, t.vocab() / tp, 1, e, weightBytes, efficiency, 0, !job.adapter);
    }

    // Attention core.
    double attentionLayers = stageLayers * (1 + decoderShare);
    attention(job, t, forward, backward, tokens, attentionLayers, efficiency, attentionRecomputed);

    // LoRA adapters: skinny matmuls, as traffic over their inputs and outputs (forward, input grad, weight grad).
    if (job.adapter) {
      double adapterFlops = 2 * job.loraParameters * tokens / (tp * job.pp);
      double adapterBytes = 0;
      for (double io : job.facts.loraWidths) { // per target: in + out widths, worked out once per task
        adapterBytes += e * tokens * io * stageLayers / tp;
      }
      forward.kernel(adapterFlops * (full ? 2 : 1), adapterBytes * (full ? 2 : 1), efficiency);
      backward.kernel(2 * adapterFlops, 2 * adapterBytes, efficiency);
    }

    // Element-wise work over the activations, and the loss.
    double perToken = MemoryModel.layerBytesPerToken(job, t, true);
    double layerBytes = stageLayers * tokens * perToken / tp;
    boolean elementwiseRecomputed = full || opSelective;
    forward.stream(FORWARD_PASSES * layerBytes * (elementwiseRecomputed ? 2 : 1));
    backward.stream(BACKWARD_PASSES * layerBytes);
    double loss = MemoryModel.lossBuffer(job, t.vocab(), t.hasLanguageHead()) / tp;
    forward.stream(2 * loss);
    backward.stream(loss);

    // Autocast reads FP32 weights and writes their 16-bit copies every micro-batch; QLoRA dequantises NF4 weights
    // (read 0.5 B, write 2 B per weight) before each use: forward, input gradients, and the recomputed forward.
    double split = job.modelShard(1);
    boolean mixed = job.precision.weightBytes() > job.computeBytes;
    if (mixed && job.zero != ZeroStage.STAGE_3 && !qlora) {
      forward.stream(job.parameters * split * (job.precision.weightBytes() + job.computeBytes));
    }
    if (qlora) {
      double dequant = t.quantizableWeights() * split * (0.5 + 2);
      forward.stream(dequant * (full ? 2 : 1));
      backward.stream(dequant);
    }

    // Host overhead of eager PyTorch: the GPU waits only when a layer's kernels are shorter than its dispatch; in
    // every mode no kernel is shorter than the launch floor.
    double passes = elementwiseRecomputed ? 2 : 1;
    double adapterKernels = adapterKernelsPerLayer(job, t);
    double kernels = (KERNELS_PER_TRANSFORMER_LAYER + adapterKernels) * stageLayers + 1;
    double layerHost = hostPerLayer > 0 ? hostPerLayer + adapterKernels * EAGER_SECONDS_PER_KERNEL : 0;
    atLeast(forward, passes * Math.max(layerHost * stageLayers, launchFloorSeconds(job, kernels)));
    atLeast(backward, Math.max(layerHost * stageLayers,
        launchFloorSeconds(job, BACKWARD_KERNELS_PER_FORWARD * kernels)));
  }

  /**
   * Kernels an adapter adds to a layer's forward pass: each adapted projection runs its own small modules beside the
   * frozen one, {@code lora_B(lora_A(dropout(x))) * scaling} added to the base output (PEFT's {@code lora.Linear.forward},
   * huggingface/peft {@code src/peft/tuners/lora/layer.py}; LitGPT's {@code LoRALinear} the same): two matmuls, a
   * scale and an add, {@link #ADAPTER_KERNELS_PER_PROJECTION}; a gated MLP target adapts three projections, a plain
   * one two. Each is dispatched from Python in eager mode ({@link #EAGER_SECONDS_PER_KERNEL}).
   */
  static double adapterKernelsPerLayer(Job job, Transformer t) {
    if (!job.task.kind().isAdapter()) {
      return 0;
    }
    double projections = 0;
    for (LoraTarget target : job.task.loraTargets()) {
      projections += target == LoraTarget.MLP ? (t.gatedMlp() ? 3 : 2) * t.activeExperts() : 1;
    }
    return projections * ADAPTER_KERNELS_PER_PROJECTION;
  }

  /** An adapted projection's extra kernels: {@code lora_A}, {@code lora_B}, the scale and the add. */
  static final double ADAPTER_KERNELS_PER_PROJECTION = 4;

  /**
   * {@code count} matmuls of an {@code M × K} activation by a {@code K × N} weight: forward (again for the
   * {@code recomputed} share of them: all under full recomputation, every other one under op-level selective
   * checkpointing), the input gradient and, for trained weights, the weight gradient (FP32 accumulation).
   */
  private static void matmuls(Roofline forward, Roofline backward, double m, double k, double n, double count,
                              double e, double weightBytes, double efficiency, double recomputed, boolean trained) {
    double flops = 2 * m * k * n * count;
    double bytes = (e * m * k + weightBytes * k * n + e * m * n) * count;
    forward.kernel(flops, bytes, efficiency);
    if (recomputed > 0) {
      forward.kernel(flops * recomputed, bytes * recomputed, efficiency);
    }
    backward.kernel(flops, bytes, efficiency);
    if (trained) {
      backward.kernel(flops, (e * m * k + e * m * n + 4 * k * n) * count, efficiency);
    }
  }

  /**
   * The attention core of {@code layers} layers. FlashAttention skips the masked half of causal attention and
   * recomputes the scores in its backward pass (2.5× the forward work: Dao 2023, FlashAttention-2, §3.1.2); eager
   * attention runs two batched matmuls per head of inner size {@code headDim}, bandwidth-bound for short heads.
   */
  private static void attention(Job job, Transformer t, Roofline forward, Roofline backward, double tokens,
                                double layers, double efficiency, boolean recompute) {
    double s = job.sequence;
    double q = t.queryDim() / job.tp;
    double e = job.activationBytes;
    boolean causal = t.stack() != Stack.ENCODER;
    if (job.task.flashAttention()) {
      double flops = 4 * tokens * s * q * (causal ? 0.5 : 1) * layers;
      double bytes = e * tokens * (3 * q) * layers;
      double eff = efficiency * Efficiency.flashRelative(job.gpu, job.task.executionMode()) * attentionPeakShare(job);
      forward.kernel(flops, bytes, eff);
      if (recompute) {
        forward.kernel(flops, bytes, eff);
      }
      backward.kernel(FLASH_BACKWARD_WORK * flops, 2 * bytes, eff);
    } else {
      double d = t.headDim();
      double heads = (double) t.heads() / job.tp * job.microBatch * layers;
      double flops = 2 * s * s * d * heads;
      double bytes = e * (2 * s * d + s * s) * heads;
      double eff = efficiency * attentionPeakShare(job);
      for (int i = 0; i < (recompute ? 4 : 2); i++) {
        forward.kernel(flops, bytes, eff);
      }
      for (int i = 0; i < 4; i++) {
        backward.kernel(flops, bytes, eff);
      }
    }
  }

  /**
   * The forward time of one layer's FlashAttention on one GPU, as {@link #attention} charges it: this GPU's queries
   * (its {@code 1/cp} share of the tokens under context parallelism) against the whole sequence's keys.
   */
  static double flashAttentionSecondsPerLayer(Job job, Transformer t) {
    double q = t.queryDim() / job.tp;
    double tokens = job.microTokens();
    boolean causal = t.stack() != Stack.ENCODER;
    Roofline pass = new Roofline(job.gpu.denseTflops(job.precision.compute()), job.gpu.memoryBandwidthGBps(),
        job.bandwidthEfficiency());
    pass.kernel(4 * tokens * job.sequence * q * (causal ? 0.5 : 1), job.activationBytes * tokens * (3 * q),
        job.gemmEfficiency() * Efficiency.flashRelative(job.gpu, job.task.executionMode()) * attentionPeakShare(job));
    return pass.seconds();
  }

  /**
   * The share of the compute precision's peak that attention runs at: FP8 training runs its matmuls in FP8 but
   * attention in 16 bits (Transformer Engine's {@code DelayedScaling(fp8_dpa=False)} default: "FP8 dot product
   * attention" is opt-in; Megatron-LM's {@code --fp8-dot-product-attention} is off by default), so under
   * {@link PrecisionMode#FP8_MIXED} the GPU's BF16 peak over its FP8 peak (1/2 on Hopper and Ada); 1 otherwise.
   */
  static double attentionPeakShare(Job job) {
    if (job.precision != PrecisionMode.FP8_MIXED) {
      return 1;
    }
    double fp8 = job.gpu.denseTflops(job.precision.compute());
    double bf16 = job.gpu.denseTflops().getOrDefault(Precision.BF16,
        job.gpu.denseTflops().getOrDefault(Precision.FP16, fp8));
    return Math.min(1, bf16 / fp8);
  }

  /**
   * CNN training: forward FLOPs once, twice as many backward (input and weight gradients), at the convolution
   * efficiency; element-wise traffic over the saved activations (batch norm, ReLU, residual adds).
   */
  private static void convolutions(Job job, ConvNet c, Roofline forward, Roofline backward) {
    int size = job.task.imageSize();
    double flops = c.forwardFlops(size) * job.microBatch;
    double depthwise = c.depthwiseFlops(size) * job.microBatch;
    double bytes = c.activationElements(size) * job.activationBytes * job.microBatch;
    double efficiency = job.convolutionEfficiency();
    double cudaCores = depthwiseEfficiency(job);
    boolean full = job.task.checkpointing() == Checkpointing.FULL;
    forward.kernel((flops - depthwise) * (full ? 2 : 1), 0, efficiency);
    forward.kernel(depthwise * (full ? 2 : 1), 0, cudaCores);
    forward.stream(FORWARD_PASSES * bytes * (full ? 2 : 1));
    double kernels = c.kernels();
    atLeast(forward, (full ? 2 : 1) * launchFloorSeconds(job, kernels));
    if (job.training) {
      backward.kernel(2 * (flops - depthwise), 0, efficiency);
      backward.kernel(2 * depthwise, 0, cudaCores);
      backward.stream(BACKWARD_PASSES * bytes);
      atLeast(backward, launchFloorSeconds(job, BACKWARD_KERNELS_PER_FORWARD * kernels));
    }
  }

  /**
   * Depthwise convolutions as a share of the compute precision's peak: one filter per channel leaves no inner
   * dimension for a tensor-core GEMM, so PyTorch runs them on CUDA cores (its own {@code conv_depthwise2d} kernels or
   * cuDNN's grouped convolutions: "does use CUDA, but not CuDNN", PyTorch forums, "Using optimised depthwise
   * convolutions", 2018) at the FP32 rate; Lu, Zhang &amp; Wang 2021 ("Optimizing Depthwise Separable Convolution
   * Operations on GPUs", IEEE TPDS) find cuDNN's depthwise kernels 2–3× slower than what the hardware allows, and
   * the backward pass slower still. Charged at {@link Efficiency#DEPTHWISE_RELATIVE} × {@link
   * Efficiency#CUDA_CORE_GEMM} of the FP32 peak, at the sustained clock; their memory traffic is already in the
   * element-wise passes.
   */
  static double depthwiseEfficiency(Job job) {
    double peak = job.gpu.denseTflops(job.precision.compute());
    double fp32 = job.gpu.denseTflops().getOrDefault(Precision.FP32, peak);
    return Efficiency.DEPTHWISE_RELATIVE * Efficiency.CUDA_CORE_GEMM * job.sustainedClock * Math.min(1, fp32 / peak);
  }

  /**
   * LSTM/GRU: the input projections of all time steps run as one matmul; the recurrent matmul runs once per time
   * step with only the batch as rows, so it re-reads the recurrent weights every step (bandwidth-bound unless the
   * batch is large); then the output projection over all tokens.
   */
  private static void recurrent(Job job, Recurrent r, Roofline forward, Roofline backward) {
    double e = job.activationBytes;
    double w = job.computeBytes;
    double b = job.microBatch;
    double s = job.sequence;
    double h = r.hidden();
    double efficiency = job.gemmEfficiency();
    double gates = r.cell().gates();
    double stageLayers = Math.ceil((double) r.totalLayers() / job.pp);
    for (int layer = 0; layer < stageLayers; layer++) {
      double in = r.layerInput(layer);
      double directions = r.directions(layer);
      matmuls(forward, backward, b * s, in, gates * h, directions, e, w, efficiency, 0, job.training);
      matmuls(forward, backward, b, h, gates * h, s * directions, e, w, efficiency, 0, job.training);
      double elements = MemoryModel.recurrentLayerElements(r, layer) * b * s;
      forward.stream(FORWARD_PASSES * elements * e);
      backward.stream(BACKWARD_PASSES * elements * e);
    }
    if (r.attention()) {
      // Bahdanau attention (GNMT v2): keys projected once per source token, a query per target token, then scores
      // and context as two batched products over the source length (source and target both job.sequence long)
      double context = r.encoderOutputWidth();
      matmuls(forward, backward, b * s, context, h, 1 / (double) job.pp, e, w, efficiency, 0, job.training);
      matmuls(forward, backward, b * s, h, h, 1 / (double) job.pp, e, w, efficiency, 0, job.training);
      // both operands of the two batched products are activations: two gradient products each in the backward pass
      matmuls(forward, backward, s, h, s, b / (double) job.pp, e, e, efficiency, 0, job.training);
      matmuls(forward, backward, s, s, context, b / (double) job.pp, e, e, efficiency, 0, job.training);
      double elements = MemoryModel.recurrentAttentionElements(r, s) * b * s / job.pp;
      forward.stream(FORWARD_PASSES * elements * e);
      backward.stream(BACKWARD_PASSES * elements * e);
    }
    matmuls(forward, backward, b * s, h, r.vocab(), 1, e, w, efficiency, 0, job.training);
    double loss = MemoryModel.lossBuffer(job, r.vocab(), true);
    forward.stream(2 * loss);
    backward.stream(loss);
  }

  /**
   * The optimizer update streams each trainable parameter's gradient, weight and state once in and the weight and
   * state once out (PyTorch's foreach Adam), on this GPU's ZeRO shard.
   */
  static double optimizerSeconds(Job job) {
    double trainable = MemoryModel.trainableParameters(job) * job.modelShard(1)
        / (job.zero.number() >= 1 ? job.shard : 1);
    double stateBytes = job.precision.pureHalf() ? 2 : 4;
    double bytes = trainable * (job.precision.gradientBytes() + 2 * job.precision.weightBytes()
        + 2 * MemoryModel.optimizerBytesPerParameter(job, stateBytes));
    return bytes / (job.gpu.memoryBandwidthGBps() * 1e9 * job.bandwidthEfficiency());
  }

  /**
   * Model FLOPs per sample, the MFU convention (PaLM, Chowdhery et al. 2022, appendix B): training
   * {@code 6N + 12·L·(heads·headDim)·s} per token for transformers (Narayanan et al. 2021 §5.1 without the
   * recomputation term); LoRA {@code 4N} (forward and input gradients through frozen weights; no weight gradients,
   * Hu et al. 2021 §4.2) plus the attention and {@code 6×} the adapters; CNNs and generic models 3× the forward
   * FLOPs; inference {@code 2N} per prompt and generated token plus attention over the context.
   */
  static double modelFlopsPerSample(Job job) {
    ModelSpec model = job.model;
    if (model instanceof Transformer t) {
      double n = job.facts.matmulParameters;
      double attentionPerToken = 2 * 2 * t.totalLayers() * t.queryDim(); // × context length
      double s = job.sequence;
      if (!job.training) {
        double g = decodedTokens(job, t);
        double prompt = s * (2 * n + attentionPerToken * s);
        double decode = g * (2 * n + attentionPerToken * (s + (g + 1) / 2.0));
        return prompt + decode;
      }
      double lora = job.adapter ? job.loraParameters : 0;
      double weights = job.adapter ? 4 * n + 6 * lora : 6 * n;
      return s * (weights + 3 * attentionPerToken * s);
    }
    double forward;
    if (model instanceof ConvNet c) {
      forward = c.forwardFlops(job.task.imageSize());
    } else if (model instanceof Recurrent r) {
      double perToken = 0;
      for (int layer = 0; layer < r.totalLayers(); layer++) {
        perToken += 2.0 * r.directions(layer) * r.cell().gates() * (r.layerInput(layer) + r.hidden()) * r.hidden();
      }
      if (r.attention()) {
        // key and query projections, then scores and context over the source for every target token
        perToken += 2.0 * (r.encoderOutputWidth() + r.hidden()) * r.hidden()
            + 2.0 * job.sequence * (r.hidden() + r.encoderOutputWidth());
      }
      perToken += 2.0 * r.hidden() * r.vocab();
      forward = perToken * job.sequence;
    } else {
      forward = ((Generic) model).forwardFlopsPerSample();
    }
    return job.training ? 3 * forward : forward;
  }

  // ---------------------------------------------------------------- inference

  private static StepTime inference(Job job, OptionalDouble mfuOverride, double hostPerLayer) {
    Precision precision = job.precision.compute();
    double peak = job.gpu.denseTflops(precision);
    Roofline run = new Roofline(peak, job.gpu.memoryBandwidthGBps(), job.bandwidthEfficiency());
    ModelSpec model = job.model;
    double generated = 0;
    if (model instanceof Transformer t) {
      generated = transformerInference(job, t, run, hostPerLayer);
    } else if (model instanceof ConvNet c) {
      Roofline unused = new Roofline(peak, job.gpu.memoryBandwidthGBps(), job.bandwidthEfficiency());
      convolutions(job, c, run, unused);
    } else if (model instanceof Recurrent r) {
      Roofline unused = new Roofline(peak, job.gpu.memoryBandwidthGBps(), job.bandwidthEfficiency());
      recurrent(job, r, run, unused);
    } else {
      Generic g = (Generic) model;
      run.kernel(g.forwardFlopsPerSample() * job.microBatch, 0, job.gemmEfficiency());
      run.stream(FORWARD_PASSES * g.activationBytesPerSample() * job.activationBytes / 2.0 * job.microBatch);
    }
    double compute = run.computeSeconds;
    double memory = run.memorySeconds;
    double host = run.hostSeconds;
    double samplesPerReplica = job.microBatch;
    double replicas = job.dp;
    double modelFlops = modelFlopsPerSample(job) * samplesPerReplica * replicas;
    if (mfuOverride.isPresent()) {
      double seconds = modelFlopsPerSample(job) * samplesPerReplica / (job.tp * job.pp)
          / (peak * 1e12 * mfuOverride.getAsDouble());
      if (seconds > compute) {
        compute = seconds;
      }
    }
    double comm = CommunicationModel.inference(job, generated);
    double samples = samplesPerReplica * replicas;
    double tokens = model instanceof Transformer || model instanceof Recurrent
        ? (generated > 0 ? generated : job.sequence) * samples : 0;
    double hardwareFlops = run.flops * job.layout.gpus();
    return new StepTime(modelFlops, hardwareFlops, compute, memory, host, comm, compute + memory + host, samples,
        tokens);
  }

  /** Prefill of the prompt batch, then {@code generatedTokens} decode steps; returns the tokens generated per sequence. */
  private static double transformerInference(Job job, Transformer t, Roofline run, double hostPerLayer) {
    prefill(job, t, run, hostPerLayer);
    double g = decodedTokens(job, t);
    if (g > 0) {
      // the mean context over the g steps: the prompt plus half the generated tokens
      Roofline step = decodeStep(job, t, job.sequence + (g + 1) / 2.0, job.task.kvCacheBytes(), hostPerLayer);
      run.computeSeconds += g * step.computeSeconds;
      run.memorySeconds += g * step.memorySeconds;
      run.hostSeconds += g * step.hostSeconds;
      run.flops += g * step.flops;
    }
    return g;
  }

  /** The four matmul shapes of a layer: {K, N, count} for QKV, the output projection, up/gate and down. */
  private static double[][] layerShapes(Transformer t) {
    double h = t.hidden();
    double q = t.queryDim();
    double kv = t.kvDim();
    double f = t.ffn();
    double experts = t.activeExperts();
    return new double[][] {{h, q + 2 * kv, 1}, {q, h, 1}, {h, (t.gatedMlp() ? 2 : 1) * f, experts}, {f, h, experts}};
  }

  /**
   * The prefill of {@code microBatch} prompts of {@code sequence} tokens in one pass: all prompt tokens through the
   * matmuls, the attention core, the element-wise traffic and the output head of each prompt's last token.
   */
  static void prefill(Job job, Transformer t, Roofline run, double hostPerLayer) {
    double e = job.activationBytes;
    double tp = job.tp;
    double b = job.microBatch;
    double s = job.sequence;
    double stageLayers = (double) t.totalLayers();
    double efficiency = job.gemmEfficiency();
    double h = t.hidden();
    double weightBytes = servedBytesPerLayerWeight(job, t);
    double tokens = b * s;
    for (double[] shape : layerShapes(t)) {
      double count = shape[2] * stageLayers;
      run.kernel(2 * tokens * shape[0] * shape[1] / tp * count,
          (e * tokens * shape[0] + weightBytes * shape[0] * shape[1] / tp + e * tokens * shape[1] / tp) * count,
          efficiency);
    }
    Roofline unused = new Roofline(1, 1, Efficiency.BANDWIDTH);
    attention(job, t, run, unused, tokens, stageLayers, efficiency, false);
    run.stream(FORWARD_PASSES * stageLayers * tokens * MemoryModel.layerBytesPerToken(job, t, true) / tp);
    run.kernel(2 * b * h * t.vocab() / tp, (e * b * h + job.computeBytes * h * t.vocab() + 4 * b * t.vocab()) / tp,
        efficiency);
    double kernels = KERNELS_PER_TRANSFORMER_LAYER * stageLayers + 1;
    atLeast(run, Math.max(hostPerLayer * stageLayers, launchFloorSeconds(job, kernels)));
  }

  /**
   * One decode step: one token for each of {@code microBatch} sequences, each attending over {@code context} cached
   * tokens whose keys and values take {@code kvBytes} per element. The weights are read once per step and the KV
   * cache once per sequence, so the step is bandwidth-bound until the batch makes the matmuls compute-bound.
   */
  static Roofline decodeStep(Job job, Transformer t, double context, double kvBytes, double hostPerLayer) {
    double e = job.activationBytes;
    double tp = job.tp;
    double b = job.microBatch;
    double stageLayers = (double) t.totalLayers();
    double efficiency = job.gemmEfficiency();
    double h = t.hidden();
    double q = t.queryDim();
    double kv = t.kvDim();
    double weightBytes = servedBytesPerLayerWeight(job, t);
    Roofline step = new Roofline(job.gpu.denseTflops(job.precision.compute()), job.gpu.memoryBandwidthGBps(),
        job.bandwidthEfficiency());
    for (double[] shape : layerShapes(t)) {
      double count = shape[2] * stageLayers;
      step.kernel(2 * b * shape[0] * shape[1] / tp * count,
          (e * b * shape[0] + weightBytes * shape[0] * shape[1] / tp + e * b * shape[1] / tp) * count,
          efficiency);
    }
    double attentionFlops = 4 * b * context * q / tp * stageLayers;
    double kvBytesRead = 2 * b * context * kv * kvBytes / tp * stageLayers;
    step.kernel(attentionFlops, kvBytesRead, efficiency * Efficiency.FLASH_RELATIVE);
    step.stream(FORWARD_PASSES * stageLayers * b * MemoryModel.layerBytesPerToken(job, t, false) / tp);
    step.kernel(2 * b * h * t.vocab() / tp, (e * b * h + job.computeBytes * h * t.vocab() + 4 * b * t.vocab()) / tp,
        efficiency);
    double kernels = KERNELS_PER_TRANSFORMER_LAYER * stageLayers + 1;
    atLeast(step, Math.max(hostPerLayer * stageLayers, launchFloorSeconds(job, kernels)));
    return step;
  }

  /** Tokens decoded per sequence: the task's generated tokens; none for an encoder-only model, which cannot decode. */
  static double decodedTokens(Job job, Transformer t) {
    return t.stack() == Stack.ENCODER ? 0 : job.task.generatedTokens();
  }

  /**
   * Bytes per layer weight as decoding reads it: the compute format, or the quantised format divided by the share of
   * the bandwidth the framework's dequantising kernels reach on it ({@link Framework.Profile#bandwidthShare}), so that
   * a quantised step is never faster than streaming its bytes at the 16-bit kernels' rate.
   */
  private static double servedBytesPerLayerWeight(Job job, Transformer t) {
    WeightQuantization q = job.task.quantization();
    return q == WeightQuantization.NONE ? job.computeBytes
        : MemoryModel.quantizedBytesPerWeight(job, q, t.hidden()) / job.task.framework().profile().bandwidthShare(q);
  }
}
