package io.github.gpusizer.core.sizing;

import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.CudaVersion;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.catalog.Vendor;
import io.github.gpusizer.core.task.Task;
import java.util.Optional;

/** Whether a GPU can run a task's software at all: its number format and the caller's CUDA version. */
final class Compatibility {
  private Compatibility() {}

  /**
   * The compute capability a tensor format first appeared with (NVIDIA CUDA C++ Programming Guide, "Compute
   * Capabilities"; DESIGN.md §1): FP16 tensor cores with Volta 7.0, BF16 and TF32 with Ampere 8.0, FP8 with Ada
   * 8.9.
   */
  static Optional<ComputeCapability> introducedWith(Precision p) {
    switch (p) {
      case FP16:
        return Optional.of(new ComputeCapability(7, 0));
      case BF16:
      case TF32:
        return Optional.of(new ComputeCapability(8, 0));
      case FP8:
        return Optional.of(new ComputeCapability(8, 9));
      default:
        return Optional.empty();
    }
  }

  /** Why the GPU cannot run the task's number format; empty if it can. */
  static Optional<String> precisionProblem(Task task, Gpu gpu) {
    Precision p = task.precision().compute();
    if (gpu.supports(p)) {
      return Optional.empty();
    }
    Optional<ComputeCapability> needed = introducedWith(p);
    if (needed.isPresent() && gpu.computeCapability().isPresent()) {
      return Optional.of(p + " needs compute capability " + needed.get() + "; the " + gpu.name() + " has "
          + gpu.computeCapability().get());
    }
    return Optional.of("the " + gpu.name() + " has no " + p + " support; it supports " + gpu.denseTflops().keySet());
  }

  /** Why the caller's CUDA version cannot drive the GPU; empty if it can or nothing is known. */
  static Optional<String> cudaProblem(Optional<CudaVersion> stack, Gpu gpu) {
    if (stack.isEmpty() || gpu.vendor() != Vendor.NVIDIA || gpu.minCuda().isEmpty()) {
      return Optional.empty();
    }
    CudaVersion needed = gpu.minCuda().get();
    if (stack.get().isAtLeast(needed)) {
      return Optional.empty();
    }
    return Optional.of("the " + gpu.name() + " needs CUDA " + needed + " or newer; your stack has CUDA "
        + stack.get());
  }
}
