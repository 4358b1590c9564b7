package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Where the time of one forward pass of a serving engine goes on one GPU: a prefill of prompts, or one decode step.
 *
 * <pre>{@code
 * PassTime step = Estimator.defaults().decodeStep(task, Hardware.single(a100), Layout.single(), 2);
 * double tpot = step.seconds();   // one output token of every sequence in the batch
 * }</pre>
 *
 * @param computeSeconds time in kernels limited by arithmetic
 * @param memorySeconds time in kernels limited by memory bandwidth (reading the weights and the KV cache)
 * @param hostSeconds time the GPU waits for the host or its launch queue
 * @param communicationSeconds tensor-parallel all-reduces, not overlapped
 */
public record PassTime(double computeSeconds, double memorySeconds, double hostSeconds,
                       double communicationSeconds) {

  public PassTime {
    checkArgument(computeSeconds >= 0 && Double.isFinite(computeSeconds),
        "compute seconds must be >= 0, was %s", computeSeconds);
    checkArgument(memorySeconds >= 0 && Double.isFinite(memorySeconds),
        "memory seconds must be >= 0, was %s", memorySeconds);
    checkArgument(hostSeconds >= 0 && Double.isFinite(hostSeconds), "host seconds must be >= 0, was %s",
        hostSeconds);
    checkArgument(communicationSeconds >= 0 && Double.isFinite(communicationSeconds),
        "communication seconds must be >= 0, was %s", communicationSeconds);
  }

  /** The whole pass: the parts run one after another. */
  public double seconds() {
    return computeSeconds + memorySeconds + hostSeconds + communicationSeconds;
  }
}
