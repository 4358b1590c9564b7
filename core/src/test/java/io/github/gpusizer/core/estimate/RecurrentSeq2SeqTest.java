package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.model.Recurrent;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import org.junit.jupiter.api.Test;

/** A GNMT-style recurrent encoder-decoder through the estimators. */
class RecurrentSeq2SeqTest {
  private static final Estimator ESTIMATOR = Estimator.defaults();
  private static final Hardware V100 = Hardware.single(TestGpus.V100_SXM2_16GB);
  private static final Recurrent GNMT = (Recurrent) Presets.get("gnmt-v2");
  /** The same stacks without attention and with a unidirectional encoder. */
  private static final Recurrent PLAIN = new Recurrent("plain", Recurrent.Cell.LSTM, 4, 1024, 1024, 32320, false, 4,
      0, false);

  private static Task training(Recurrent model, int sequence) {
    return Task.pretraining(model).microBatch(128).sequenceLength(sequence).precision(PrecisionMode.FP16_MIXED)
        .build();
  }

  @Test
  void gnmt_v2_trains_at_the_readme_batch_of_128_on_a_16_gb_v100() {
    // GIVEN DeepLearningExamples' default: 128 sentence pairs per GPU, mixed precision, sequences up to 50 tokens
    Estimate e = ESTIMATOR.estimate(training(GNMT, 50), V100, Layout.single());
    // THEN it fits and runs
    assertThat(e.memory().fits()).isTrue();
    assertThat(e.performance().tokensPerSecond()).isPositive();
  }

  @Test
  void attention_and_the_bidirectional_layer_add_work_and_memory() {
    Estimate gnmt = ESTIMATOR.estimate(training(GNMT, 50), V100, Layout.single());
    Estimate plain = ESTIMATOR.estimate(training(PLAIN, 50), V100, Layout.single());
    assertThat(gnmt.performance().flopsPerStep()).isGreaterThan(plain.performance().flopsPerStep());
    assertThat(gnmt.memory().breakdown().activations().bytes())
        .isGreaterThan(plain.memory().breakdown().activations().bytes());
    assertThat(GNMT.parameters() - PLAIN.parameters())
        .isEqualTo(GNMT.attentionParameters() + 4L * 1024 * (1024 + 1024) + 8L * 1024 // the reverse direction
            + 4L * 1024 * 1024 // encoder layer 2 reads both directions
            + 3L * 4 * 1024 * 1024); // decoder layers 2-4 read the attention context
  }

  @Test
  void attention_memory_grows_faster_than_linearly_with_the_sequence() {
    // scores over the source for every target token: s² per sequence
    double per50 = ESTIMATOR.memory(training(GNMT, 50), V100, Layout.single()).breakdown().activations().bytes()
        / 50.0;
    double per200 = ESTIMATOR.memory(training(GNMT, 200), V100, Layout.single()).breakdown().activations().bytes()
        / 200.0;
    assertThat(per200).isGreaterThan(per50);
  }
}
