package io.github.gpusizer.core.estimate;

import io.github.gpusizer.catalog.FormFactor;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Precision;

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
   * FlashAttention relative to a large GEMM: FlashAttention-2 reaches 50–73% of A100 peak forward and less backward
   * (Dao 2023, arXiv:2307.08691, §4.1) where cuBLAS GEMMs reach ~85%; 0.75 of the GEMM efficiency.
   */
  static final double FLASH_RELATIVE = 0.75;

  /**
   * cuDNN convolutions relative to a large GEMM: ImageNet CNNs have 64–512-channel layers whose implicit GEMMs are
   * short in K and pay for NCHW/NHWC layout work. Calibrated on the ResNet-50 training rows (A100, V100, RTX 4090),
   * with the element-wise traffic modelled separately (see ComputeModel).
   */
  static final double CONV_RELATIVE = 0.70;

  /**
   * Achievable share of a link's per-direction bandwidth for NCCL ring collectives: nccl-tests report bus bandwidth
   * against which NVLink and InfiniBand typically reach ~80% of the wire rate (NVIDIA/nccl-tests,
   * doc/PERFORMANCE.md defines busBw; e.g. ~230 GB/s on DGX A100's 300 GB/s NVLink).
   */
  static final double LINK = 0.80;

  private Efficiency() {}

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
    return precision == Precision.FP32 || !gpu.tensorCores() ? gemm : gemm * CONV_RELATIVE;
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
