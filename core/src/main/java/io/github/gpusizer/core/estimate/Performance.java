package io.github.gpusizer.core.estimate;

import java.time.Duration;
import java.util.Optional;

/** Puts GPU time, communication and the input pipeline together into a {@link PerformanceEstimate}. */
final class Performance {
  private Performance() {}

  static PerformanceEstimate combine(Job job, StepTime step, InputPipeline.Rates input) {
    double gpuSeconds = step.seconds();
    double gpuRate = step.samples() / gpuSeconds;
    double inputRate = job.training || job.model instanceof io.github.gpusizer.core.model.ConvNet
        ? input.samplesPerSecond() : Double.POSITIVE_INFINITY;
    double seconds = inputRate < gpuRate ? step.samples() / inputRate : gpuSeconds;
    double samplesPerSecond = step.samples() / seconds;
    double tokensPerSecond = step.tokens() / seconds;
    double gpus = job.layout.gpus();
    double achieved = step.modelFlops() / seconds / gpus / 1e12;
    double peak = job.gpu.denseTflops(job.precision.compute());
    double mfu = Math.min(1, achieved / peak);
    double hardware = step.hardwareFlops() / seconds / gpus / 1e12;
    Bottleneck bottleneck = bottleneck(step, input, inputRate, gpuRate);
    double scaling = Math.min(1, Math.max(1e-9, step.idealSeconds() / gpuSeconds));
    double totalSeconds = totalSeconds(job, step.samples(), step.tokens(), seconds);
    Optional<Duration> total = Double.isNaN(totalSeconds) ? Optional.empty() : Optional.of(seconds(totalSeconds));
    return new PerformanceEstimate(step.modelFlops(), seconds(seconds), samplesPerSecond, tokensPerSecond,
        achieved, mfu, bottleneck, total, scaling, hardware,
        ErrorBands.bundled().speed(WorkloadClass.of(job), job.task.framework(), job.task.frameworkAssumed()));
  }

  /**
   * Seconds the task's work takes at {@code stepSeconds} per step of {@code stepSamples} samples and
   * {@code stepTokens} tokens; NaN if the task states no amount of work.
   */
  static double totalSeconds(Job job, double stepSamples, double stepTokens, double stepSeconds) {
    if (job.task.tokens().isPresent() && stepTokens > 0) {
      return job.task.tokens().getAsDouble() / (stepTokens / stepSeconds);
    } else if (job.task.samples().isPresent()) {
      return job.task.samples().getAsDouble() / (stepSamples / stepSeconds);
    } else if (job.task.tokens().isPresent() && job.sequence > 0) {
      return job.task.tokens().getAsDouble() / job.sequence / (stepSamples / stepSeconds);
    }
    return Double.NaN;
  }

  private static Bottleneck bottleneck(StepTime step, InputPipeline.Rates input, double inputRate,
                                       double gpuRate) {
    if (inputRate < gpuRate) {
      return input.cpuSamplesPerSecond() <= input.diskSamplesPerSecond() ? Bottleneck.CPU_INPUT
          : Bottleneck.DISK_INPUT;
    }
    double compute = step.computeSeconds();
    double memory = step.memorySeconds() + step.hostSeconds();
    double communication = step.communicationSeconds();
    if (communication > compute && communication > memory) {
      return Bottleneck.COMMUNICATION;
    }
    return compute >= memory ? Bottleneck.COMPUTE : Bottleneck.MEMORY_BANDWIDTH;
  }

  /**
   * The longest time an estimate states: 50 years. A run that long is no plan, and a {@link Duration} counted in
   * nanoseconds (as the sizer compares them) ends at 292 years, so a longer time could only be clamped, silently.
   */
  static final double HORIZON_SECONDS = 50 * 365.25 * 86_400;

  /**
   * A duration from seconds, at nanosecond resolution, at least one nanosecond.
   *
   * @throws IllegalArgumentException if it is beyond {@link #HORIZON_SECONDS}, saying how long it would be
   */
  static Duration seconds(double seconds) {
    if (!(seconds <= HORIZON_SECONDS)) {
      double years = seconds / (365.25 * 86_400);
      throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
          "the run would take %s years (%.3g s), beyond the 50-year horizon of an estimate; use more GPUs or less "
              + "work", Double.isFinite(years) ? String.format(java.util.Locale.ROOT, "%,.0f", years) : "infinitely many",
          seconds));
    }
    double nanos = Math.max(1, seconds * 1e9);
    return Duration.ofNanos((long) nanos);
  }
}
