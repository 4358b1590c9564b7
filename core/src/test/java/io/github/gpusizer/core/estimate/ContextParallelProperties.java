package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
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

/** Invariants of context parallelism over generated transformers, sequences and degrees. */
class ContextParallelProperties {
  private static final Estimator ESTIMATOR = Estimator.defaults();

  /** A decoder of {@code layers} layers and {@code heads} 128-wide heads, trained at {@code sequence} tokens. */
  private static Task task(int layers, int heads, int sequence, int checkpointing) {
    Transformer t = Transformer.builder("t" + layers + "x" + heads).layers(layers).hidden(128 * heads).heads(heads)
        .vocab(32000).maxPositions(1 << 17).gatedMlp(true).norm(Norm.RMS_NORM).positions(Positions.ROTARY)
        .bias(false).build();
    return Task.pretraining(t).microBatch(1).globalBatch(64).sequenceLength(sequence)
        .precision(PrecisionMode.BF16_MIXED).checkpointing(Checkpointing.values()[checkpointing]).build();
  }

  @Test
  void activation_memory_per_gpu_halves_each_time_the_degree_doubles_and_the_peak_never_rises() {
    qt().withExamples(60).forAll(integers().between(2, 40), integers().between(4, 32), integers().between(12, 16),
            integers().between(0, 2))
        .checkAssert((layers, heads, log2Sequence, checkpointing) -> {
          Task task = task(layers, heads, 1 << log2Sequence, checkpointing);
          Hardware node = Hardware.of(TestGpus.H100_SXM, 8, 1);
          double previousActivations = Double.MAX_VALUE;
          long previousPeak = Long.MAX_VALUE;
          for (int cp = 1; cp <= 8; cp *= 2) {
            Layout layout = new Layout(1, 1, 1, ZeroStage.STAGE_1, 8).withContextParallel(cp);
            MemoryBreakdown memory = ESTIMATOR.memory(task, Hardware.of(TestGpus.H100_SXM, cp, 1), layout)
                .breakdown();
            double activations = MemoryModel.trainingActivations(new Job(task, node, layout));
            if (cp > 1) {
              assertThat(activations).isCloseTo(previousActivations / 2,
                  org.assertj.core.api.Assertions.within(1e-9 * previousActivations));
            }
            assertThat(memory.allocated().bytes()).isLessThanOrEqualTo(previousPeak);
            previousActivations = activations;
            previousPeak = memory.allocated().bytes();
          }
        });
  }

  @Test
  void splitting_a_sequence_speeds_a_compiled_step_up_but_never_more_than_the_degree() {
    qt().withExamples(40).forAll(integers().between(8, 40), integers().between(16, 32), integers().between(13, 16))
        .checkAssert((layers, heads, log2Sequence) -> {
          Task task = task(layers, heads, 1 << log2Sequence, 2).toBuilder()
              .executionMode(io.github.gpusizer.core.task.ExecutionMode.COMPILED).build();
          double one = ESTIMATOR.estimate(task, Hardware.of(TestGpus.H100_SXM, 1, 1), Layout.single())
              .performance().stepTime().toNanos();
          for (int cp = 2; cp <= 8; cp *= 2) {
            Layout layout = new Layout(1, 1, 1, ZeroStage.STAGE_1, cp).withContextParallel(cp);
            double split = ESTIMATOR.estimate(task, Hardware.of(TestGpus.H100_SXM, cp, 1), layout).performance()
                .stepTime().toNanos();
            // the GPU's arithmetic and traffic over tokens fall cp-fold; weights are read in full; the ring and the
            // gradient all-reduce add time
            assertThat(split).isLessThan(one).isGreaterThanOrEqualTo(one / cp - 1);
          }
        });
  }
}
