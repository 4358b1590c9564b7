package io.github.gpusizer.core.estimate;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.gpusizer.core.model.Norm;
import io.github.gpusizer.core.model.Positions;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** Invariants of the estimators over generated transformers and tasks. */
class EstimatorProperties {
  private static final Estimator ESTIMATOR = Estimator.defaults();
  private static final Hardware A100 = Hardware.single(TestGpus.A100_SXM4_80GB);

  /** Decoder transformers from 2 to 48 layers, 64-wide heads, 1 to 40 heads, gated or not. */
  private static Gen<Transformer> transformers() {
    return integers().between(2, 48).zip(integers().between(1, 40), integers().between(0, 1),
        (layers, heads, gated) -> Transformer.builder("t" + layers + "x" + heads).layers(layers)
            .hidden(64 * heads).heads(heads).vocab(32000).maxPositions(8192).gatedMlp(gated == 1)
            .norm(gated == 1 ? Norm.RMS_NORM : Norm.LAYER_NORM)
            .positions(gated == 1 ? Positions.ROTARY : Positions.LEARNED).build());
  }

  private static Task training(Transformer t, int microBatch, int sequence) {
    return Task.pretraining(t).microBatch(microBatch).sequenceLength(sequence)
        .precision(PrecisionMode.BF16_MIXED).build();
  }

  /**
   * Activations grow strictly; the peak never falls (it stays put while the optimizer step, not the end of the
   * forward pass, is the peak).
   */
  @Test
  void memory_grows_with_the_micro_batch() {
    qt().forAll(transformers(), integers().between(1, 64), integers().between(16, 4096))
        .checkAssert((t, b, s) -> {
          Task smaller = training(t, b, s);
          Task larger = training(t, b + 1, s);
          org.assertj.core.api.Assertions.assertThat(ESTIMATOR.memory(larger, A100, Layout.single()).perGpu())
              .isGreaterThanOrEqualTo(ESTIMATOR.memory(smaller, A100, Layout.single()).perGpu());
          org.assertj.core.api.Assertions.assertThat(activations(larger)).isGreaterThan(activations(smaller));
        });
  }

  @Test
  void memory_grows_with_the_sequence_length() {
    qt().forAll(transformers(), integers().between(1, 16), integers().between(16, 4096))
        .checkAssert((t, b, s) -> {
          Task shorter = training(t, b, s);
          Task longer = training(t, b, s + 16);
          org.assertj.core.api.Assertions.assertThat(ESTIMATOR.memory(longer, A100, Layout.single()).perGpu())
              .isGreaterThanOrEqualTo(ESTIMATOR.memory(shorter, A100, Layout.single()).perGpu());
          org.assertj.core.api.Assertions.assertThat(activations(longer)).isGreaterThan(activations(shorter));
        });
  }

  private static double activations(Task task) {
    return MemoryModel.trainingActivations(new Job(task, A100, Layout.single()));
  }

  @Test
  void more_data_parallel_ranks_never_raise_memory_per_gpu_under_zero_3() {
    qt().forAll(transformers(), integers().between(1, 8), integers().between(1, 7))
        .checkAssert((t, b, log) -> {
          int ranks = 1 << log;
          Task task = training(t, b, 1024);
          Hardware fewer = Hardware.of(TestGpus.A100_SXM4_80GB, 8, Math.max(1, ranks / 8));
          Hardware more = Hardware.of(TestGpus.A100_SXM4_80GB, 8, Math.max(1, 2 * ranks / 8));
          long atFewer = ESTIMATOR.memory(task, fewer, zero3(ranks)).perGpu().bytes();
          long atMore = ESTIMATOR.memory(task, more, zero3(2 * ranks)).perGpu().bytes();
          org.assertj.core.api.Assertions.assertThat(atMore).isLessThanOrEqualTo(atFewer);
        });
  }

  private static Layout zero3(int ranks) {
    return new Layout(ranks, 1, 1, ZeroStage.STAGE_3, Math.min(8, ranks));
  }

  @Test
  void time_falls_as_gpus_are_added_until_communication_dominates() {
    // Fixed work (tokens) and per-GPU micro-batch; the global batch grows with the GPUs.
    qt().forAll(transformers(), integers().between(0, 6), integers().between(0, 1))
        .checkAssert((t, log, fastNetwork) -> {
          int gpus = 1 << log;
          Task task = Task.pretraining(t).microBatch(4).sequenceLength(1024).tokens(1e10)
              .precision(PrecisionMode.BF16_MIXED).build();
          Estimate before = estimateOn(task, gpus, fastNetwork == 1);
          Estimate after = estimateOn(task, 2 * gpus, fastNetwork == 1);
          if (after.performance().bottleneck() != Bottleneck.COMMUNICATION) {
            org.assertj.core.api.Assertions.assertThat(after.performance().totalTime().orElseThrow())
                .isLessThan(before.performance().totalTime().orElseThrow());
          }
        });
  }

  private static Estimate estimateOn(Task task, int gpus, boolean fastNetwork) {
    int perNode = Math.min(8, gpus);
    Hardware hw = Hardware.of(TestGpus.A100_SXM4_80GB, perNode, gpus / perNode);
    if (fastNetwork) {
      hw = hw.withInterNodeGbps(1600);
    }
    Task scaled = task.toBuilder().globalBatch(task.microBatch() * gpus).build();
    return ESTIMATOR.estimate(scaled, hw, new Layout(gpus, 1, 1, ZeroStage.NONE, perNode));
  }

  @Test
  void checkpointing_lowers_activation_memory_and_raises_flops() {
    qt().forAll(transformers(), integers().between(1, 16), integers().between(64, 4096))
        .checkAssert((t, b, s) -> {
          Task none = training(t, b, s);
          Task full = none.toBuilder().checkpointing(Checkpointing.FULL).build();
          double keptNone = MemoryModel.trainingActivations(new Job(none, A100, Layout.single()));
          double keptFull = MemoryModel.trainingActivations(new Job(full, A100, Layout.single()));
          org.assertj.core.api.Assertions.assertThat(keptFull).isLessThan(keptNone);
          PerformanceEstimate pNone = ESTIMATOR.estimate(none, A100, Layout.single()).performance();
          PerformanceEstimate pFull = ESTIMATOR.estimate(full, A100, Layout.single()).performance();
          org.assertj.core.api.Assertions.assertThat(pFull.hardwareTflopsPerGpu() * pFull.stepTime().toNanos())
              .isGreaterThan(pNone.hardwareTflopsPerGpu() * pNone.stepTime().toNanos());
          org.assertj.core.api.Assertions.assertThat(pFull.flopsPerStep()).isEqualTo(pNone.flopsPerStep());
        });
  }

  @Test
  void breakdown_totals_are_the_sum_of_their_parts() {
    qt().forAll(transformers(), integers().between(1, 16), integers().between(16, 2048))
        .checkAssert((t, b, s) -> {
          MemoryBreakdown m = ESTIMATOR.memory(training(t, b, s), A100, Layout.single()).breakdown();
          long sum = m.weights().bytes() + m.gradients().bytes() + m.optimizer().bytes() + m.activations().bytes()
              + m.kvCache().bytes() + m.temporary().bytes();
          org.assertj.core.api.Assertions.assertThat(m.allocated().bytes()).isEqualTo(sum);
          org.assertj.core.api.Assertions.assertThat(m.total().bytes()).isEqualTo(sum + m.overhead().bytes());
        });
  }

  /**
   * Hybrid sharding over {@code n} nodes of 8 GPUs with shard groups of {@code g} ranks holds exactly what full
   * sharding over {@code g} GPUs holds, never less than full sharding over all of them, and at a group of all ranks
   * is full sharding.
   */
  @Test
  void hybrid_sharding_holds_what_a_shard_group_of_its_size_holds() {
    qt().forAll(transformers(), integers().between(1, 4), integers().between(0, 3))
        .checkAssert((t, nodes, log2Group) -> {
          int dp = 8 * nodes;
          int group = 1 << log2Group;
          Task task = training(t, 1, 1024);
          Hardware cluster = Hardware.of(TestGpus.A100_SXM4_80GB, 8, nodes);
          Layout full = new Layout(dp, 1, 1, ZeroStage.STAGE_3, 8);
          Layout hybrid = full.withShardGroup(group);
          long hybridBytes = ESTIMATOR.memory(task, cluster, hybrid).breakdown().allocated().bytes();
          long groupBytes = ESTIMATOR.memory(task, Hardware.of(TestGpus.A100_SXM4_80GB, group, 1),
              new Layout(group, 1, 1, ZeroStage.STAGE_3, group)).breakdown().allocated().bytes();
          org.assertj.core.api.Assertions.assertThat(hybridBytes).isEqualTo(groupBytes);
          org.assertj.core.api.Assertions.assertThat(hybridBytes)
              .isGreaterThanOrEqualTo(ESTIMATOR.memory(task, cluster, full).breakdown().allocated().bytes());
          org.assertj.core.api.Assertions.assertThat(ESTIMATOR.estimate(task, cluster, full.withShardGroup(dp)))
              .isEqualTo(ESTIMATOR.estimate(task, cluster, full));
        });
  }
}
