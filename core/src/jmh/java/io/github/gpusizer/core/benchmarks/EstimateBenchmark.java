package io.github.gpusizer.core.benchmarks;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.estimate.MemoryEstimate;
import io.github.gpusizer.core.estimate.PerformanceEstimate;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One estimate of the recommend benchmarks' task (LoRA of Llama-2-7B on 50 M tokens) on 8 A100-SXM4-80GB of one
 * node, data-parallel: the full {@code estimate} (memory, time, host sizing, warnings), and the two cheaper calls
 * the sizer's layout search makes many of, {@code memory} and {@code performance}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EstimateBenchmark {
  private final Estimator estimator = Estimator.defaults();
  private Task task;
  private Hardware hardware;
  private Layout layout;

  @Setup
  public void setUp() {
    task = RecommendBenchmark.task();
    hardware = Hardware.of(Catalog.bundled().gpu("a100-sxm4-80gb"), 8, 1);
    layout = Layout.dataParallel(8);
  }

  @Benchmark
  public Estimate estimate() {
    return estimator.estimate(task, hardware, layout);
  }

  @Benchmark
  public MemoryEstimate memory() {
    return estimator.memory(task, hardware, layout);
  }

  @Benchmark
  public PerformanceEstimate performance() {
    return estimator.performance(task, hardware, layout);
  }
}
