package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Estimator.Memo}, which a search uses to share micro-batch timings across instance counts and memory
 * allocations across GPU models, gives exactly the estimator's memory and performance, however the calls of one
 * memo interleave; and its least time never exceeds the time the run is then given.
 */
class EstimatorMemoProperties {
  private static final Estimator ESTIMATOR = Estimator.defaults();
  private static final List<String> MODELS = MemoryKeyTest.MODELS;
  /** Two GPUs of one capacity (80 GB) and two others: the memo shares allocations across all of them. */
  private static final List<Gpu> GPUS = List.of(TestGpus.A100_SXM4_80GB, TestGpus.H100_SXM, TestGpus.A10,
      TestGpus.T4);
  private static final int[] PER_NODE = {1, 2, 4, 8};

  /** Tasks by their parameters: the memo keys tasks by identity, so examples share them as a search's variants do. */
  private static final Map<List<Integer>, Task> TASKS = new HashMap<>();

  private static Task task(int model, int kind, int microBatch, int checkpointing, int globalBatch) {
    return TASKS.computeIfAbsent(List.of(model, kind, microBatch, checkpointing, globalBatch),
        k -> MemoryKeyTest.task(model, kind, microBatch, checkpointing, globalBatch));
  }

  @Test
  void one_memo_gives_the_estimators_memory_and_performance_and_a_lower_bound_of_its_time() {
    // one memo for every example: later examples meet what earlier ones left in it, as in a search
    Estimator.Memo memo = ESTIMATOR.memo();
    qt().withExamples(600).forAll(integers().between(0, MODELS.size() - 1), integers().between(0, 3),
            integers().between(0, ZeroStage.values().length - 1), integers().between(0, 16 * 64 - 1))
        .checkAssert((model, kind, zero, shape) -> {
          int gpus = 1 + shape % 64;
          int perNode = Math.min(gpus, PER_NODE[(shape / 64) % 4]);
          if (gpus % perNode != 0) {
            return; // not whole nodes
          }
          Task task = task(model, kind, 1 + shape % 3, (shape / 256) % 3, shape % 2 == 0 ? 0 : 4096);
          Gpu gpu = GPUS.get((shape / 16) % GPUS.size());
          Hardware hw = Hardware.of(gpu, perNode, gpus / perNode);
          Layout layout = new Layout(gpus, 1, 1, ZeroStage.values()[zero], perNode);
          if (shape % 5 == 0 && layout.zero() != ZeroStage.NONE && gpus % 2 == 0) {
            layout = layout.withShardGroup(gpus / 2); // hybrid sharding too
          }
          MemoryEstimate memory;
          try {
            memory = ESTIMATOR.memory(task, hw, layout);
          } catch (IllegalArgumentException e) {
            return; // a layout the estimator refuses (the memo's refusals are the estimator's: see below)
          }
          assertThat(memo.memory(task, hw, layout)).isEqualTo(memory);
          PerformanceEstimate performance;
          try {
            performance = ESTIMATOR.performance(task, hw, layout);
          } catch (IllegalArgumentException e) {
            return; // a global batch that does not split over the ranks, or a run beyond the horizon
          }
          Estimator.Memo.Run run = memo.run(task, hw, layout);
          assertThat(run.performance()).isEqualTo(performance);
          double seconds = performance.totalTime().orElseThrow().toNanos() / 1e9;
          assertThat(run.leastSeconds()).isLessThanOrEqualTo(seconds * (1 + 1e-9));
        });
  }

  @Test
  void the_memo_refuses_what_the_estimator_refuses() {
    Task task = task(2, 1, 1, 0, 0);
    Hardware hw = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
    Layout threeWayTensor = new Layout(1, 3, 1, ZeroStage.NONE, 8); // 32 heads do not split three ways
    Estimator.Memo memo = ESTIMATOR.memo();
    String reason = catchMessage(() -> ESTIMATOR.memory(task, hw, threeWayTensor));
    assertThat(reason).isNotEmpty();
    assertThat(catchMessage(() -> memo.memory(task, hw, threeWayTensor))).isEqualTo(reason);
    assertThat(catchMessage(() -> memo.run(task, hw, threeWayTensor))).isEqualTo(reason);
  }

  private static String catchMessage(Runnable call) {
    try {
      call.run();
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    return "";
  }
}
