package io.github.gpusizer.core.estimate;

import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Task;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The estimator's overridable constants, one value per estimator; the defaults are the calibrated ones, each with its
 * source where it is declared.
 *
 * @param mfu the caller's model FLOP utilisation, replacing the calibrated GEMM efficiencies, if given
 * @param hostSecondsPerLayer host (Python) time to launch one layer's kernels in eager PyTorch, if the caller fixes it
 *     (0: compiled); else the framework's ({@link #hostSecondsPerLayer(Task)})
 * @param bandwidthEfficiency fraction of the datasheet memory bandwidth kernels reach, if the caller fixes it; else
 *     {@link Efficiency#bandwidth} of the GPU's memory type
 * @param linkEfficiency fraction of the datasheet NVLink, PCIe or network bandwidth collectives reach
 * @param cudaContext CUDA context and library workspaces per GPU, if the caller fixes them; else the framework's
 *     ({@link #cudaContextBytes})
 * @param allocatorCacheFraction memory the caching allocator holds beyond what is allocated, as a fraction of it,
 *     where the card has room (see {@code MemoryModel.allocatorCache})
 */
record Tuning(OptionalDouble mfu, OptionalDouble hostSecondsPerLayer, OptionalDouble bandwidthEfficiency, double linkEfficiency,
              OptionalLong cudaContext, double allocatorCacheFraction) {

  static final Tuning DEFAULTS = new Tuning(OptionalDouble.empty(), OptionalDouble.empty(),
      OptionalDouble.empty(), Efficiency.LINK, OptionalLong.empty(), MemoryModel.ALLOCATOR_CACHE_FRACTION);

  /**
   * Bytes of one GPU that the process holds before any tensor: the caller's figure, or what the execution mode's
   * framework takes ({@link MemoryModel#CUDA_CONTEXT_BYTES} for PyTorch and the engines built on it,
   * {@link MemoryModel#TENSORFLOW_CONTEXT_BYTES} for a TensorFlow graph).
   */
  long cudaContextBytes(ExecutionMode mode) {
    return cudaContext.orElse(mode == ExecutionMode.TENSORFLOW_GRAPH
        ? MemoryModel.TENSORFLOW_CONTEXT_BYTES : MemoryModel.CUDA_CONTEXT_BYTES);
  }

  /**
   * Host time per transformer layer per eager forward pass: the caller's figure, else the task's framework's, else
   * PyTorch's reference code's ({@link ComputeModel#HOST_SECONDS_PER_LAYER}).
   */
  double hostSecondsPerLayer(Task task) {
    return hostSecondsPerLayer.isPresent() ? hostSecondsPerLayer.getAsDouble()
        : task.framework().profile().hostSecondsPerLayer().orElse(ComputeModel.HOST_SECONDS_PER_LAYER);
  }

  Tuning withMfu(double v) {
    return new Tuning(OptionalDouble.of(v), hostSecondsPerLayer, bandwidthEfficiency, linkEfficiency,
        cudaContext, allocatorCacheFraction);
  }

  Tuning withHostSecondsPerLayer(double v) {
    return new Tuning(mfu, OptionalDouble.of(v), bandwidthEfficiency, linkEfficiency, cudaContext,
        allocatorCacheFraction);
  }

  Tuning withBandwidthEfficiency(double v) {
    return new Tuning(mfu, hostSecondsPerLayer, OptionalDouble.of(v), linkEfficiency, cudaContext, allocatorCacheFraction);
  }

  Tuning withLinkEfficiency(double v) {
    return new Tuning(mfu, hostSecondsPerLayer, bandwidthEfficiency, v, cudaContext, allocatorCacheFraction);
  }

  Tuning withCudaContextBytes(long v) {
    return new Tuning(mfu, hostSecondsPerLayer, bandwidthEfficiency, linkEfficiency, OptionalLong.of(v),
        allocatorCacheFraction);
  }

  Tuning withAllocatorCacheFraction(double v) {
    return new Tuning(mfu, hostSecondsPerLayer, bandwidthEfficiency, linkEfficiency, cudaContext, v);
  }
}
