package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.time.Duration;
import java.util.Optional;

/**
 * How fast a job runs on its hardware, and what limits it.
 *
 * <pre>{@code
 * PerformanceEstimate p = estimator.estimate(task, hw, layout).performance();
 * p.tokensPerSecond();   // over all GPUs
 * p.mfu();               // model FLOP utilisation of the dense peak
 * p.totalTime();         // present when the task says how much work there is
 * p.totalTimeInterval();  // the same with the p10–p90 interval of the speed model's calibration errors
 * }</pre>
 *
 * @param flopsPerStep model FLOPs of one optimizer step over all GPUs (training: the global batch; inference: one
 *     batch of prompts and their generated tokens), without recomputation (the MFU convention of PaLM, Chowdhery et
 *     al. 2022, appendix B)
 * @param stepTime wall time of one step, communication, pipeline bubble and input stalls included
 * @param samplesPerSecond samples (sequences, images) per second over all GPUs
 * @param tokensPerSecond tokens per second over all GPUs (training: processed tokens; inference: generated tokens);
 *     0 for image models
 * @param achievedTflopsPerGpu model FLOP/s per GPU in TFLOP/s
 * @param mfu {@code achievedTflopsPerGpu} over the GPU's dense peak at the task's compute precision
 * @param bottleneck what sets the pace
 * @param totalTime time for all the work the task gives (tokens or samples); empty if it gives none
 * @param scalingEfficiency throughput per GPU relative to the same job on one GPU with no communication (1 = perfect)
 * @param hardwareTflopsPerGpu FLOP/s per GPU actually executed, recomputation included (what Megatron-LM reports as
 *     "model TFLOP/s" when activation recomputation is on, Narayanan et al. 2021 §5.1); below the model FLOP/s when
 *     causal FlashAttention skips the masked half of the attention that the MFU convention counts
 * @param errorBand the calibration error band of the job's workload class for speed ({@link ErrorBand#none()} for an
 *     estimate built by hand); the intervals of the rates and times come from it
 */
public record PerformanceEstimate(double flopsPerStep, Duration stepTime, double samplesPerSecond,
                                  double tokensPerSecond, double achievedTflopsPerGpu, double mfu,
                                  Bottleneck bottleneck, Optional<Duration> totalTime, double scalingEfficiency,
                                  double hardwareTflopsPerGpu, ErrorBand errorBand) {

  public PerformanceEstimate {
    checkArgument(flopsPerStep >= 0 && Double.isFinite(flopsPerStep), "FLOPs per step must be >= 0, was %s",
        flopsPerStep);
    checkArgument(!checkNotNull(stepTime, "stepTime").isNegative() && !stepTime.isZero(),
        "step time must be > 0, was %s", stepTime);
    checkArgument(samplesPerSecond >= 0 && Double.isFinite(samplesPerSecond), "samples/s must be >= 0, was %s",
        samplesPerSecond);
    checkArgument(tokensPerSecond >= 0 && Double.isFinite(tokensPerSecond), "tokens/s must be >= 0, was %s",
        tokensPerSecond);
    checkArgument(achievedTflopsPerGpu >= 0 && Double.isFinite(achievedTflopsPerGpu),
        "achieved TFLOP/s must be >= 0, was %s", achievedTflopsPerGpu);
    checkArgument(mfu >= 0 && mfu <= 1, "MFU must be in [0, 1], was %s", mfu);
    checkNotNull(bottleneck, "bottleneck");
    checkNotNull(totalTime, "totalTime");
    checkArgument(scalingEfficiency > 0 && scalingEfficiency <= 1.0 + 1e-9,
        "scaling efficiency must be in (0, 1], was %s", scalingEfficiency);
    checkArgument(hardwareTflopsPerGpu >= 0 && Double.isFinite(hardwareTflopsPerGpu),
        "hardware TFLOP/s must be >= 0, was %s", hardwareTflopsPerGpu);
    checkNotNull(errorBand, "errorBand");
  }

  /** The ten components before error bands; no band ({@link ErrorBand#none()}). */
  public PerformanceEstimate(double flopsPerStep, Duration stepTime, double samplesPerSecond, double tokensPerSecond,
                             double achievedTflopsPerGpu, double mfu, Bottleneck bottleneck,
                             Optional<Duration> totalTime, double scalingEfficiency, double hardwareTflopsPerGpu) {
    this(flopsPerStep, stepTime, samplesPerSecond, tokensPerSecond, achievedTflopsPerGpu, mfu, bottleneck, totalTime,
        scalingEfficiency, hardwareTflopsPerGpu, ErrorBand.none());
  }

  /** The contract's nine components; hardware FLOP/s taken equal to model FLOP/s (no recomputation). */
  public PerformanceEstimate(double flopsPerStep, Duration stepTime, double samplesPerSecond, double tokensPerSecond,
                             double achievedTflopsPerGpu, double mfu, Bottleneck bottleneck,
                             Optional<Duration> totalTime, double scalingEfficiency) {
    this(flopsPerStep, stepTime, samplesPerSecond, tokensPerSecond, achievedTflopsPerGpu, mfu, bottleneck, totalTime,
        scalingEfficiency, achievedTflopsPerGpu, ErrorBand.none());
  }

  /** {@link #stepTime()} with the interval of {@link #errorBand()}. */
  public Interval<Duration> stepTimeInterval() {
    return errorBand.ofPredictedTime(stepTime);
  }

  /**
   * {@link #totalTime()} with the interval of {@link #errorBand()}: a measured time lies in it about 8 times in 10
   * ({@code core/CALIBRATION.md}, "Error bars"); empty when the task gives no amount of work.
   */
  public Optional<Interval<Duration>> totalTimeInterval() {
    return totalTime.map(errorBand::ofPredictedTime);
  }

  /** {@link #samplesPerSecond()} with the interval of {@link #errorBand()}. */
  public Interval<Double> samplesPerSecondInterval() {
    return errorBand.ofPredicted(samplesPerSecond);
  }

  /** {@link #tokensPerSecond()} with the interval of {@link #errorBand()}. */
  public Interval<Double> tokensPerSecondInterval() {
    return errorBand.ofPredicted(tokensPerSecond);
  }
}
