package io.github.gpusizer.core;

import io.github.gpusizer.catalog.CudaVersion;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Vendor;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.task.Task;
import java.util.Optional;

/** Whether a GPU can run a task's software at all: its number format and the caller's CUDA version. */
final class Compatibility {
  private Compatibility() {}

  /** Why the GPU cannot run the task's number format; empty if it can ({@link Estimator#precisionProblem}). */
  static Optional<String> precisionProblem(Task task, Gpu gpu) {
    return Estimator.precisionProblem(task, gpu);
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
