package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link Estimator#leastGpuSeconds}, the bound the sizer passes over offerings with, is never more than the GPU time
 * the estimator gives any layout and recipe of the task, and not so loose that it bounds nothing.
 */
class LeastGpuSecondsProperties {
  private static final Estimator ESTIMATOR = Estimator.defaults();
  /** A caller's MFU: the arithmetic then takes the model's FLOPs at that share of the peak. */
  private static final Estimator AT_MFU = Estimator.defaults().withEfficiency(1.0);
  private static final List<String> MODELS = MemoryKeyTest.MODELS;
  /** A GeForce card that boosts past its rated clock, a power-capped T4, a V100 (FP16) and data-centre cards. */
  private static final List<Gpu> GPUS = List.of(TestGpus.RTX_4090, TestGpus.T4, TestGpus.V100_SXM2_16GB,
      TestGpus.A10, TestGpus.A100_SXM4_80GB, TestGpus.H100_SXM);
  private static final int[] PER_NODE = {1, 2, 4, 8};

  @Test
  void no_layout_or_recipe_takes_less_gpu_time_than_the_bound() {
    AtomicInteger compared = new AtomicInteger();
    qt().withExamples(800).forAll(integers().between(0, MODELS.size() - 1), integers().between(0, 3),
            integers().between(0, ZeroStage.values().length - 1), integers().between(0, 64 * 64 * 6 - 1))
        .checkAssert((model, kind, zero, shape) -> {
          int gpus = 1 + shape % 64;
          int perNode = Math.min(gpus, PER_NODE[(shape / 64) % 4]);
          int tp = Math.min(perNode, 1 << ((shape / 256) % 3));
          if (gpus % perNode != 0 || gpus % tp != 0 || perNode % tp != 0) {
            return; // not whole nodes, or a tensor group across nodes
          }
          Gpu gpu = GPUS.get((shape / 4096) % GPUS.size());
          Task task = MemoryKeyTest.task(model, kind, 1 + (shape / 16) % 4, (shape / 768) % 3,
              shape % 2 == 0 ? 0 : 4096).forGpu(gpu);
          Task plain = MemoryKeyTest.task(model, kind, 1, 0, 0).forGpu(gpu);
          Layout layout = new Layout(gpus / tp, tp, 1, ZeroStage.values()[zero], perNode);
          Hardware hw = Hardware.of(gpu, perNode, gpus / perNode);
          for (Estimator estimator : List.of(ESTIMATOR, AT_MFU)) {
            PerformanceEstimate p;
            try {
              p = estimator.performance(task, hw, layout);
            } catch (IllegalArgumentException e) {
              continue; // a layout the model refuses, or a batch that does not split over the ranks
            }
            double gpuSeconds = gpus * (p.totalTime().orElseThrow().toNanos() / 1e9);
            assertThat(estimator.leastGpuSeconds(plain, gpu)).isLessThanOrEqualTo(gpuSeconds);
            compared.incrementAndGet();
          }
        });
    assertThat(compared.get()).as("examples the estimator timed").isGreaterThan(300);
  }

  @Test
  void the_bound_is_the_arithmetic_at_the_peak_a_fraction_of_a_real_run() {
    // GIVEN Llama-2-7B pre-trained on 1 B tokens of 4,096 on one A100 and on eight
    Task task = Task.pretraining(Presets.get("llama-2-7b")).tokens(1e9).sequenceLength(4096).build();
    double bound = ESTIMATOR.leastGpuSeconds(task, TestGpus.A100_SXM4_80GB);
    // THEN it is at least 6 FLOPs per parameter and token at the 312 TFLOP/s peak (attention adds to it), and
    // below the GPU time of eight GPUs by no more than their MFU and recomputation make it
    assertThat(bound).isGreaterThanOrEqualTo(6 * 6.74e9 * 1e9 / 312e12);
    Task recomputed = task.toBuilder().microBatch(1).checkpointing(Checkpointing.FULL).build();
    double eight = 8 * ESTIMATOR.performance(recomputed, Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1),
        new Layout(8, 1, 1, ZeroStage.STAGE_3, 8)).totalTime().orElseThrow().toNanos() / 1e9;
    assertThat(bound).isBetween(eight / 3, eight);
    // AND inference has none (its decode is bound by memory traffic the arithmetic does not bound)
    assertThat(ESTIMATOR.leastGpuSeconds(Task.inference(Presets.get("llama-2-7b")).tokens(1e6).build(),
        TestGpus.A100_SXM4_80GB)).isZero();
  }
}
