package io.github.gpusizer.catalog;

import java.util.Optional;

/**
 * A number format a GPU can do arithmetic in, as datasheets list peak throughput.
 *
 * <pre>{@code
 * double tflops = gpu.denseTflops(Precision.BF16);
 * Precision.BF16.tensorCoresSince();   // compute capability 8.0 (Ampere)
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
  INT8(new ComputeCapability(7, 5), "Turing and later: T4, RTX 20xx and every newer NVIDIA GPU");

  private final ComputeCapability tensorCoresSince;
  private final String generations;

  // Compute capabilities per format: NVIDIA CUDA C++ Programming Guide, "Compute Capabilities" (tensor-core
  // formats by architecture), and the Volta (2017), Turing (2018), Ampere (2020), Ada (2022) and Hopper (2022)
  // architecture whitepapers.
  Precision(ComputeCapability tensorCoresSince, String generations) {
    this.tensorCoresSince = tensorCoresSince;
    this.generations = generations;
  }

  /** The NVIDIA compute capability whose tensor cores first ran this format; empty for FP32/FP64 (CUDA cores). */
  public Optional<ComputeCapability> tensorCoresSince() {
    return Optional.ofNullable(tensorCoresSince);
  }

  /**
   * Why a GPU of compute capability {@code has} cannot run this format, naming the GPUs that can; empty if the
   * format needs no tensor cores or the capability suffices.
   */
  public Optional<String> unsupportedReason(String gpuName, ComputeCapability has) {
    if (tensorCoresSince == null || has.isAtLeast(tensorCoresSince)) {
      return Optional.empty();
    }
    return Optional.of(name() + " needs compute capability " + tensorCoresSince + " (" + generations + "); the "
        + gpuName + " has " + has);
  }
}
