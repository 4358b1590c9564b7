package io.github.gpusizer.core.estimate;

/**
 * Where the GPU time of one optimizer step (training) or one batch (inference) goes, per GPU.
 *
 * @param modelFlops model FLOPs of the step over all GPUs (MFU convention, no recomputation)
 * @param hardwareFlops FLOPs executed over all GPUs, recomputation included
 * @param computeSeconds time in kernels limited by arithmetic
 * @param memorySeconds time in kernels limited by memory bandwidth (element-wise work, small matmuls, decoding,
 *     the optimizer step)
 * @param hostSeconds time the GPU waits for the host to launch work (eager PyTorch's per-layer Python overhead)
 * @param communicationSeconds communication the computation does not hide, plus pipeline bubbles
 * @param idealSeconds the step's time with no communication and no pipeline bubble (for scaling efficiency)
 * @param samples samples the step processes over all GPUs
 * @param tokens tokens the step processes (inference: generates) over all GPUs; 0 for image models
 */
record StepTime(double modelFlops, double hardwareFlops, double computeSeconds, double memorySeconds,
                double hostSeconds, double communicationSeconds, double idealSeconds, double samples, double tokens) {

  double seconds() {
    return computeSeconds + memorySeconds + hostSeconds + communicationSeconds;
  }
}
