package io.github.gpusizer.core.benchmarks;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.GpuSizer;
import io.github.gpusizer.core.Sizer;
import io.github.gpusizer.core.Recommendation;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Task;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code recommend()} of a large pre-training on the bundled catalog with {@code maxGpus(16384)}: Llama-3-70B or
 * Llama-3.1-405B on 1 T tokens, the other settings default (24 h deadline, on-demand, cheapest first). Measures how
 * the search grows with the GPU bound (issue #10: at most 20 ms, logarithmic in {@code maxGpus}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class LargeJobBenchmark {
  @Param({"llama-3-70b", "llama-3.1-405b"})
  String model;

  @Param({"16384"})
  int maxGpus;

  private Sizer sizer;

  @Setup
  public void setUp() {
    Task task = Task.pretraining(Presets.get(model)).tokens(1e12).build();
    sizer = GpuSizer.forTask(task).catalog(Catalog.bundled()).maxGpus(maxGpus);
  }

  @Benchmark
  public Recommendation recommend() {
    return sizer.recommend();
  }
}
