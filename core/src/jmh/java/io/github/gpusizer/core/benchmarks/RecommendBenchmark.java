package io.github.gpusizer.core.benchmarks;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.GpuSizer;
import io.github.gpusizer.core.Sizer;
import io.github.gpusizer.core.Recommendation;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.testing.SyntheticCatalogs;
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
 * {@code GpuSizer.forTask(task).catalog(catalog).recommend()} for LoRA (rank 8) of Llama-2-7B on 50 M tokens, the
 * command-line tool's example, with the default settings (24 h deadline, at most 64 GPUs, on-demand, cheapest
 * first). {@code offerings = 0} is the bundled catalog; otherwise a synthetic catalog of that many offerings from
 * {@link SyntheticCatalogs} (fixed seed). The catalog is built once per trial; each call sizes from scratch (a
 * {@code recommend()} caches nothing between calls). Sampled, so JMH reports the median.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RecommendBenchmark {
  @Param({"0", "1000", "10000", "100000"})
  int offerings;

  private Sizer sizer;
  private Sizer infeasible;

  /** The task every recommend benchmark sizes. */
  static Task task() {
    return Task.lora(Presets.get("llama-2-7b"), 8).tokens(50e6).build();
  }

  @Setup
  public void setUp() {
    Catalog catalog = offerings == 0 ? Catalog.bundled() : SyntheticCatalogs.catalog(offerings, SyntheticCatalogs.SEED);
    sizer = GpuSizer.forTask(task()).catalog(catalog);
    infeasible = GpuSizer.forTask(Task.pretraining(Presets.get("llama-3-70b")).tokens(1e12).build()).catalog(catalog);
  }

  @Benchmark
  public Recommendation recommend() {
    return sizer.recommend();
  }

  /**
   * {@link #recommend} and then every list it holds: the ranked options, the Pareto front and the rejections
   * (which a recommendation works out on first use).
   */
  @Benchmark
  public int recommendAndReadAll() {
    Recommendation r = sizer.recommend();
    return r.options().size() + r.paretoFront().size() + r.rejected().size();
  }

  /**
   * A request nothing in the catalog meets (Llama-3-70B pre-training on 1 T tokens in 24 h on at most 64 GPUs), and
   * then every list: no options, no front, one rejection per offering, and the suggestion (issue #10's "nothing
   * feasible, every list read").
   */
  @Benchmark
  public int nothingFeasibleAndReadAll() {
    Recommendation r = infeasible.recommend();
    return r.options().size() + r.paretoFront().size() + r.rejected().size() + r.suggestion().hashCode();
  }
}
