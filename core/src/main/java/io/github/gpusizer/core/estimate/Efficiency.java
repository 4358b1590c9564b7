package io.github.gpusizer.core.estimate;

import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.FormFactor;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.MemoryType;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.core.task.ExecutionMode;
import java.util.Optional;

/**
 * Default efficiencies: what fraction of a datasheet peak real kernels sustain. Each constant names its source;
 * CALIBRATION.md shows how they compare with published end-to-end measurements.
 */
final class Efficiency {
  /**
   * Large dense GEMMs on Volta/Turing/Ampere/Ada tensor cores: about 80% of the datasheet peak. The peak assumes the
   * boost clock under full tensor load, which the board's power limit does not sustain (NVIDIA rates A100 HPL at the
   * 1305 MHz it sustains at its power limit, vs 1410 MHz boost: 93%; glennklockwood.com/garden/peak-FLOPS), and
   * cuBLAS reaches about 85–90% of the clock-adjusted rate on large shapes.
   */
  static final double TENSOR_GEMM = 0.80;

  /**
   * Hopper and later: about 60% of the datasheet peak end to end for large GEMMs. A 700 W H100 SXM cannot hold the
   * 1.98 GHz boost its 989 TFLOP/s BF16 figure assumes when all tensor cores run, and its peak is 3.2× an A100's with
   * only 1.6× the memory bandwidth to feed it. Calibrated: LLM Foundry's MPT-7B reaches 46% MFU on H100 vs 64% on
   * A100, Megatron-LM 47% on H100 (calibration.tsv).
   */
  static final double HOPPER_GEMM = 0.60;

  /**
   * FP32 on CUDA cores (SGEMM and direct convolutions): about 80% of peak, like tensor-core GEMMs (V100 FP32 ResNet-50
   * and BERT-large rows of calibration.tsv reach 57–60% MFU end to end, with element-wise work on top).
   */
  static final double CUDA_CORE_GEMM = 0.80;

  /**
   * Sustained share of datasheet memory bandwidth for streaming kernels: STREAM-like copies reach about 80–90% of
   * the HBM/GDDR peak (e.g. ~1.7 of 2.0 TB/s on A100-80GB, ~3.0 of 3.35 TB/s on H100 SXM); PyTorch's
   * {@code gpt-fast} decodes Llama-2-7B at about 72% of A100 bandwidth (PyTorch blog, "Accelerating Generative AI
   * with PyTorch II: GPT, Fast", 2023). 0.8 is used.
   */
  static final double BANDWIDTH = 0.80;

  /**
   * Sustained share of GDDR6X bandwidth: an RTX 3090 reaches 854.2 of its 936 GB/s (91%) in a measured streaming
   * kernel, with the memory clock at its full 19 Gbps in every sample (ashalliants/ninfer-3090#72). GDDR6X cards
   * (GeForce RTX 30/40) also carry L2 caches that catch part of the element-wise traffic (6 MB on GA102, 72 MB on
   * AD102).
   */
  static final double GDDR6X_BANDWIDTH = 0.91;

  /** The sustained share of the datasheet bandwidth by memory type: {@link #GDDR6X_BANDWIDTH}, else {@link #BANDWIDTH}. */
  static double bandwidth(Gpu gpu) {
    return gpu.memoryType() == MemoryType.GDDR6X ? GDDR6X_BANDWIDTH : BANDWIDTH;
  }

  /**
   * FlashAttention relative to a large GEMM: FlashAttention-2 reaches 50–73% of A100 peak forward and less backward
   * (Dao 2023, arXiv:2307.08691, §4.1) where cuBLAS GEMMs reach ~85%; 0.75 of the GEMM efficiency.
   */
  static final double FLASH_RELATIVE = 0.75;

  /**
   * FlashAttention-2 on Hopper relative to {@link #HOPPER_GEMM}: it reaches "only 35% utilization on the H100 GPU"
   * (Shah et al. 2024, FlashAttention-3, arXiv:2407.08608, abstract and §4.1), because it uses neither the
   * asynchronous warpgroup matrix instructions nor the tensor memory accelerator that Hopper's GEMMs rely on;
   * {@code 0.35 / 0.60}. It is the kernel PyTorch's {@code scaled_dot_product_attention} runs for eager and
   * {@code torch.compile} training (torchtitan, Hugging Face, LLM Foundry); serving engines run Hopper-tuned kernels
   * (FlashAttention-3, FlashInfer) and keep {@link #FLASH_RELATIVE}.
   */
  static final double FLASH2_HOPPER_RELATIVE = 0.35 / HOPPER_GEMM;

  /** FlashAttention's efficiency relative to the GEMMs of a GPU in an execution mode. */
  static double flashRelative(Gpu gpu, ExecutionMode mode) {
    return mode != ExecutionMode.SERVING_ENGINE && containsIgnoringCase(gpu.architecture(), "hopper")
        ? FLASH2_HOPPER_RELATIVE : FLASH_RELATIVE;
  }

  /**
   * cuDNN convolutions relative to a large GEMM: ImageNet CNNs have 64–512-channel layers whose implicit GEMMs are
   * short in K and pay for NCHW/NHWC layout work. Calibrated on the ResNet-50 training rows (A100, V100, H200), with
   * the element-wise traffic modelled separately (see ComputeModel); GeForce cards skip it
   * ({@link #halfRateAccumulation}).
   */
  static final double CONV_RELATIVE = 0.70;

  /**
   * Depthwise convolutions (one filter per channel) relative to {@link #CUDA_CORE_GEMM}: without an inner dimension
   * they cannot use tensor cores and run as direct convolutions on CUDA cores, and the kernels frameworks ship reach
   * well below the FP32 rate: Lu, Zhang &amp; Wang 2021, "Optimizing Depthwise Separable Convolution Operations on
   * GPUs" (IEEE TPDS), beat cuDNN's depthwise kernels by 2–3× (and cut EfficientNet's end-to-end training time by
   * 7.3%); PyTorch's forums report cuDNN's grouped backward pass slower still than PyTorch's own kernels. 1 / 2.5.
   */
  static final double DEPTHWISE_RELATIVE = 0.4;

  /**
   * Achievable share of a link's per-direction bandwidth for NCCL ring collectives: nccl-tests report bus bandwidth
   * against which NVLink and InfiniBand typically reach ~80% of the wire rate (NVIDIA/nccl-tests,
   * doc/PERFORMANCE.md defines busBw; e.g. ~230 GB/s on DGX A100's 300 GB/s NVLink).
   */
  static final double LINK = 0.80;

  /**
   * Where a GPU's voltage stops falling with its clock, as a share of the voltage at its boost clock. Above it the
   * voltage falls with the clock, so dynamic power ({@code αCV²f}) falls with the clock's cube; below it only the
   * clock can fall, so power falls linearly. The idle floor is lower (about 0.70 V at 1095 MHz against 1.05–1.10 V at
   * the top of GPU Boost's curve: nvidia-smi in NVIDIA/nvidia-docker#1447, "Voltage Graphics 706.250 mV"), but a
   * board's memory, fans and regulators draw a share of its limit that does not scale with the core clock, which
   * makes a deeply power-limited board behave as if its floor were higher. Set at 0.8 from the two measured Turing
   * boards: from the 70 W T4 at ~900 of 1590 MHz ({@link #TURING}) it puts the 250 W RTX 2080 Ti at 92% of its rated
   * clock, where its PyTorch FP16 GEMMs reach 50–57 TFLOP/s, 93–105% of its 53.8 TFLOP/s FP32-accumulate peak, so at
   * or above its rated clock (zzc0721/torch-performance-test-data#181); 0.65 would put it at 80%, 0.9 would slow the
   * 250 W A100 PCIe below what Lambda's suite measures (1396 vs 1582 images/s for the 400 W SXM4). Boards above the
   * floor (all in the catalog but the T4 and the A10) do not depend on it.
   */
  static final double VOLTAGE_FLOOR = 0.8;

  /**
   * How far GPU Boost lifts a GeForce card above its rated boost clock where power and temperature allow: an RTX
   * 4090 (rated 2520 MHz) holds 2625–2820 MHz under load at power caps of 360–530 W (noonghunna/club-3090#697, SM
   * clock medians of a power-cap sweep), 1.07× its rating. Data-centre and workstation boards are rated at the most
   * their firmware runs (the "max boost"), so they are never lifted.
   */
  static final double GEFORCE_BOOST_HEADROOM = 1.07;

  /**
   * A board whose power and clock under dense load are known, one per chip generation: its board power per rated
   * FP32 TFLOP/s (which counts SMs × rated clock × lanes, so it compares boards of one generation) and the share of
   * its rated boost clock it sustains at that power.
   */
  record PowerReference(String board, double wattsPerFp32Tflops, double clock) {}

  /** Volta (TSMC 12 nm): the V100 SXM2 at 300 W and 15.7 TFLOP/s, the board TENSOR_GEMM was set on. */
  static final PowerReference VOLTA = new PowerReference("V100 SXM2", 300 / 15.7, 1.0);

  /**
   * Turing (TSMC 12 nm): the T4 holds about 900 of its rated 1590 MHz under sustained inference load at its 70 W
   * limit (mlcommons/inference_results_v0.5, the T4 issues #20 and #39 with {@code nvidia-smi dmon} clock logs; Jia
   * et al. 2019, "Dissecting the NVidia Turing T4 GPU via Microbenchmarking", arXiv:1903.07486, §throttling: the T4
   * hits its power limit on compute-intensive work and lowers its clock).
   */
  static final PowerReference TURING = new PowerReference("T4", 70 / 8.1, 900.0 / 1590);

  /** Ampere GA100 (TSMC 7 nm): the A100 SXM4 at 400 W and 19.5 TFLOP/s, the board TENSOR_GEMM was set on. */
  static final PowerReference AMPERE_GA100 = new PowerReference("A100 SXM4", 400 / 19.5, 1.0);

  /**
   * Ampere GA10x (Samsung 8 nm): an RTX 3090 (35.6 TFLOP/s, rated 1695 MHz) capped at 315 W holds 1635–1650 MHz in
   * a compute-bound prefill with the cap binding in every sample (ashalliants/ninfer-3090#72, a measured power and
   * clock sweep; its memory clock never moved).
   */
  static final PowerReference AMPERE_GA10X = new PowerReference("RTX 3090 at 315 W", 315 / 35.6, 1642.0 / 1695);

  /** Ada (TSMC 4N): the RTX 4090 at 450 W and 82.6 TFLOP/s holds 1.07× its rated clock (GEFORCE_BOOST_HEADROOM). */
  static final PowerReference ADA = new PowerReference("RTX 4090", 450 / 82.6, GEFORCE_BOOST_HEADROOM);

  /** Hopper (TSMC 4N): the H100 SXM at 700 W and 67 TFLOP/s, the board HOPPER_GEMM was set on. */
  static final PowerReference HOPPER = new PowerReference("H100 SXM", 700 / 67.0, 1.0);

  private Efficiency() {}

  /**
   * The share of its rated boost clock a GPU sustains under dense tensor or FP32 load, limited by its board power.
   * Dynamic power at a clock share {@code x} is {@code x · max(VOLTAGE_FLOOR, x)²} of the power at the rated clock
   * (voltage tracks the clock down to the curve's floor); a board's power at its rated clock is that of its
   * generation's {@link PowerReference} scaled by rated FP32 throughput (SMs × clock). Where the board's own limit is
   * lower, the clock falls until the power fits: a 70 W T4 holds 57% of its boost, a 72 W L4 81%, a 150 W A10 77%, a
   * 500 W H100 SXM 89%, a 250 W A100 PCIe 86%, a 250 W RTX 2080 Ti 92%. GeForce cards are lifted up to {@link #GEFORCE_BOOST_HEADROOM} where
   * power allows. Memory clocks do not throttle (ashalliants/ninfer-3090#72: the memory clock held its full rate in
   * every sample while the cap bound), so only arithmetic slows down. 1 for generations without a reference (AMD,
   * TPUs, Pascal and older, Blackwell): their efficiencies are used as calibrated.
   */
  static double sustainedClock(Gpu gpu) {
    Optional<PowerReference> reference = powerReference(gpu);
    Double fp32 = gpu.denseTflops().get(Precision.FP32);
    if (reference.isEmpty() || fp32 == null) {
      return 1.0;
    }
    PowerReference ref = reference.get();
    double ratio = gpu.tdpWatts() / fp32 / ref.wattsPerFp32Tflops();
    double power = ratio * relativePower(ref.clock());
    double floor = VOLTAGE_FLOOR * VOLTAGE_FLOOR * VOLTAGE_FLOOR;
    double clock = power >= floor ? Math.cbrt(power) : power / (VOLTAGE_FLOOR * VOLTAGE_FLOOR);
    double max = gpu.formFactor() == FormFactor.CONSUMER ? GEFORCE_BOOST_HEADROOM : 1.0;
    return Math.min(max, clock);
  }

  /** Dynamic power at a share {@code clock} of the rated boost clock, relative to the power at the rated clock. */
  static double relativePower(double clock) {
    double voltage = Math.max(VOLTAGE_FLOOR, clock);
    return clock * voltage * voltage;
  }

  /** The power reference of the GPU's chip generation, by NVIDIA compute capability. */
  static Optional<PowerReference> powerReference(Gpu gpu) {
    if (gpu.computeCapability().isEmpty()) {
      return Optional.empty();
    }
    ComputeCapability cc = gpu.computeCapability().get();
    return switch (cc.major()) {
      case 7 -> Optional.of(cc.minor() >= 5 ? TURING : VOLTA);
      case 8 -> Optional.of(cc.minor() == 0 ? AMPERE_GA100 : cc.minor() == 9 ? ADA : AMPERE_GA10X);
      case 9 -> Optional.of(HOPPER);
      default -> Optional.empty();
    };
  }

  /**
   * Whether {@code text} contains {@code part} (lower-case ASCII letters) ignoring case, as
   * {@code regionMatches(true, ...)} decides. The first letter is compared cheaply first: the only characters
   * {@code regionMatches} takes for {@code 'h'} or {@code 'b'} are those two letters in either case (a GPU's
   * architecture is matched on every estimate, so the full comparison at every position showed in profiles).
   */
  static boolean containsIgnoringCase(String text, String part) {
    char first = part.charAt(0);
    char firstUpper = Character.toUpperCase(first);
    boolean onlyAscii = first == 'h' || first == 'b';
    for (int i = 0; i + part.length() <= text.length(); i++) {
      char c = text.charAt(i);
      if (onlyAscii && c != first && c != firstUpper) {
        continue;
      }
      if (text.regionMatches(true, i, part, 0, part.length())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Convolutions: tensor-core implicit GEMMs at {@link #CONV_RELATIVE} of the GEMM efficiency; on CUDA cores (FP32)
   * cuDNN runs 3×3 layers with Winograd transforms, 2.25× fewer multiplies than counted (Lavin &amp; Gray 2016,
   * "Fast Algorithms for Convolutional Neural Networks"), which makes up for the short layer shapes, so the GEMM
   * efficiency is used as is.
   */
  static double convolution(Gpu gpu, Precision precision) {
    return convolution(gpu, precision, hopperClass(gpu));
  }

  /** {@link #convolution(Gpu, Precision)} with {@link #hopperClass} of the GPU already worked out. */
  static double convolution(Gpu gpu, Precision precision, boolean hopperClass) {
    double gemm = gemm(gpu, precision, hopperClass);
    return precision == Precision.FP32 || !gpu.tensorCores() || halfRateAccumulation(gpu) ? gemm
        : gemm * CONV_RELATIVE;
  }

  /**
   * Whether the GPU runs 16-bit tensor math with FP32 accumulation (what PyTorch's GEMMs and convolutions request)
   * at half its FP16-accumulate rate, as GeForce cards do (Ampere GA102 and Ada whitepapers: RTX 3090 71 vs 142,
   * RTX 4090 165.2 vs 330.3 TFLOP/s). {@link #CONV_RELATIVE} is what convolutions lose feeding full-rate tensor
   * cores from 64–512-channel layers; at half rate the same operand traffic keeps them busy, so convolutions run at
   * the GEMM efficiency. Lambda's suite shows it: the RTX A6000 (GA102 at full FP32-accumulate rate, 154.8 TFLOP/s)
   * trains ResNet-50 no faster than the RTX 3090 (916 vs 905 images/s, pytorch-train-throughput-fp16.csv), so the
   * 3090's convolutions are not held back by its halved tensor rate.
   */
  static boolean halfRateAccumulation(Gpu gpu) {
    Double fp16 = gpu.denseTflops().get(Precision.FP16);
    return fp16 != null && gpu.fp16AccumulateTflops().isPresent()
        && gpu.fp16AccumulateTflops().getAsDouble() > 1.5 * fp16;
  }

  /** The fraction of {@code gpu.denseTflops(precision)} that large matrix multiplications sustain. */
  static double gemm(Gpu gpu, Precision precision) {
    return gemm(gpu, precision, hopperClass(gpu));
  }

  /** {@link #gemm(Gpu, Precision)} with {@link #hopperClass} of the GPU already worked out. */
  static double gemm(Gpu gpu, Precision precision, boolean hopperClass) {
    if (precision == Precision.FP32 || !gpu.tensorCores()) {
      return CUDA_CORE_GEMM;
    }
    return hopperClass ? HOPPER_GEMM : TENSOR_GEMM;
  }

  /** Whether the GPU's tensor-core GEMMs sustain {@link #HOPPER_GEMM}: Hopper, Blackwell and TPUs. */
  static boolean hopperClass(Gpu gpu) {
    String architecture = gpu.architecture();
    return containsIgnoringCase(architecture, "hopper") || containsIgnoringCase(architecture, "blackwell")
        || gpu.formFactor() == FormFactor.TPU;
  }
}
