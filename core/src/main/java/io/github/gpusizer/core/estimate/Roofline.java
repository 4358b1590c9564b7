package io.github.gpusizer.core.estimate;

/**
 * Accumulates kernel times on one GPU: each kernel takes the longer of its arithmetic at the sustained peak and its
 * memory traffic at the sustained bandwidth (Williams, Waterman &amp; Patterson 2009, "Roofline"); kernels run one
 * after another, so their times add.
 */
final class Roofline {
  private final double flopsPerSecond;
  private final double bytesPerSecond;
  double computeSeconds;
  double memorySeconds;
  double hostSeconds;
  double flops;

  /**
   * @param peakTflops dense peak at the compute precision in TFLOP/s
   * @param bandwidthGBps memory bandwidth in GB/s
   */
  Roofline(double peakTflops, double bandwidthGBps, double bandwidthEfficiency) {
    this.flopsPerSecond = peakTflops * 1e12;
    this.bytesPerSecond = bandwidthGBps * 1e9 * bandwidthEfficiency;
  }

  /** A kernel of {@code flops} arithmetic and {@code bytes} traffic, sustaining {@code efficiency} of the peak. */
  void kernel(double flops, double bytes, double efficiency) {
    this.flops += flops;
    double compute = flops / (flopsPerSecond * efficiency);
    double memory = bytes / bytesPerSecond;
    if (compute >= memory) {
      computeSeconds += compute;
    } else {
      memorySeconds += memory;
    }
  }

  /** A kernel that only moves {@code bytes} (element-wise work, copies, the optimizer update). */
  void stream(double bytes) {
    memorySeconds += bytes / bytesPerSecond;
  }

  /** Time the GPU waits for the host (launch and Python overhead). */
  void idle(double seconds) {
    hostSeconds += seconds;
  }

  double seconds() {
    return computeSeconds + memorySeconds + hostSeconds;
  }
}
