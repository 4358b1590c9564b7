package io.github.gpusizer.core.estimate;

import java.util.OptionalDouble;

/**
 * The estimator's overridable constants, one value per estimator; the defaults are the calibrated ones, each with its
 * source where it is declared.
 *
 * @param mfu the caller's model FLOP utilisation, replacing the calibrated GEMM efficiencies, if given
 * @param hostSecondsPerLayer host (Python) time to launch one layer's kernels in eager PyTorch; 0 when compiled
 * @param bandwidthEfficiency fraction of the datasheet memory bandwidth kernels reach, if the caller fixes it; else
 *     {@link Efficiency#bandwidth} of the GPU's memory type
 * @param linkEfficiency fraction of the datasheet NVLink, PCIe or network bandwidth collectives reach
 * @param cudaContextBytes CUDA context and library workspaces as nvidia-smi shows them
 * @param allocatorCacheFraction memory the caching allocator holds beyond what is allocated, as a fraction of it,
 *     where the card has room (see {@code MemoryModel.allocatorCache})
 */
record Tuning(OptionalDouble mfu, double hostSecondsPerLayer, OptionalDouble bandwidthEfficiency, double linkEfficiency,
              long cudaContextBytes, double allocatorCacheFraction) {

  static final Tuning DEFAULTS = new Tuning(OptionalDouble.empty(), ComputeModel.HOST_SECONDS_PER_LAYER,
      OptionalDouble.empty(), Efficiency.LINK, MemoryModel.CUDA_CONTEXT_BYTES, MemoryModel.ALLOCATOR_CACHE_FRACTION);

  Tuning withMfu(double v) {
    return new Tuning(OptionalDouble.of(v), hostSecondsPerLayer, bandwidthEfficiency, linkEfficiency,
        cudaContextBytes, allocatorCacheFraction);
  }

  Tuning withHostSecondsPerLayer(double v) {
    return new Tuning(mfu, v, bandwidthEfficiency, linkEfficiency, cudaContextBytes, allocatorCacheFraction);
  }

  Tuning withBandwidthEfficiency(double v) {
    return new Tuning(mfu, hostSecondsPerLayer, OptionalDouble.of(v), linkEfficiency, cudaContextBytes, allocatorCacheFraction);
  }

  Tuning withLinkEfficiency(double v) {
    return new Tuning(mfu, hostSecondsPerLayer, bandwidthEfficiency, v, cudaContextBytes, allocatorCacheFraction);
  }

  Tuning withCudaContextBytes(long v) {
    return new Tuning(mfu, hostSecondsPerLayer, bandwidthEfficiency, linkEfficiency, v, allocatorCacheFraction);
  }

  Tuning withAllocatorCacheFraction(double v) {
    return new Tuning(mfu, hostSecondsPerLayer, bandwidthEfficiency, linkEfficiency, cudaContextBytes, v);
  }
}
