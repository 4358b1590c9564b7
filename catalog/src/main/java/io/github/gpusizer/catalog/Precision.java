package io.github.gpusizer.catalog;

import java.util.Optional;

/**
 * A number format a GPU can do arithmetic in, as datasheets list peak throughput.
 *
 * <pre>{@code
 * double tflops = gpu.denseTflops(Precision.BF16);
 * Precision.BF16.minComputeCapability();   // compute capability 8.0 (Ampere)
 * }</pre>
 *
 * <p>For the 16-bit and 8-bit tensor formats the figure the catalog stores is the rate with 32-bit (FP32)
 * accumulation, the mode mixed-precision training uses; see {@link Gpu#denseTflops(Precision)}.
 */
public enum Precision {
  FP64(null, null),
  FP32(null, null),
  /** TensorFloat-32: FP32 inputs on tensor cores, 10-bit mantissa (Ampere and later). */
  TF32(new ComputeCapability(8, 0), "Ampere and later: A100, A10, A40, RTX 30xx, L4, L40S, RTX 40xx, H100, H200"),
  FP16(new ComputeCapability(7, 0), "Volta and later: V100, T4, RTX 20xx and every newer NVIDIA GPU"),
  BF16(new ComputeCapability(8, 0), "Ampere and later: A100, A10, A40, RTX 30xx, L4, L40S, RTX 40xx, H100, H200"),
  FP8(new ComputeCapability(8, 9), "Ada and Hopper and later: L4, L40S, RTX 40xx, H100, H200, B200"),
  INT8(new ComputeCapability(6, 1), "Pascal GP10x with DP4A (P40, P4) and later; tensor cores from Turing: T4, RTX 20xx "
      + "and newer");

  private final ComputeCapability minComputeCapability;
  private final String generations;

  // Compute capabilities per format: NVIDIA CUDA C++ Programming Guide, "Compute Capabilities" (tensor-core
  // formats by architecture; __dp4a needs 6.1), and the Pascal (2016), Volta (2017), Turing (2018), Ampere (2020),
  // Ada (2022) and Hopper (2022) architecture whitepapers.
  Precision(ComputeCapability minComputeCapability, String generations) {
    this.minComputeCapability = minComputeCapability;
    this.generations = generations;
  }

  /**
   * The first NVIDIA compute capability that runs this format at a useful rate (tensor cores for FP16, BF16, TF32 and
   * FP8; DP4A for INT8); empty for FP32 and FP64, which every GPU runs.
   */
  public Optional<ComputeCapability> minComputeCapability() {
    return Optional.ofNullable(minComputeCapability);
  }

  /**
   * Why a GPU of compute capability {@code has} cannot run this format, naming the GPUs that can; empty if the
   * format needs no tensor cores or the capability suffices.
   */
  public Optional<String> unsupportedReason(String gpuName, ComputeCapability has) {
    if (minComputeCapability == null || has.isAtLeast(minComputeCapability)) {
      return Optional.empty();
    }
    return Optional.of(name() + " needs compute capability " + minComputeCapability + " (" + generations + "); the "
        + gpuName + " has " + has);
  }
}
