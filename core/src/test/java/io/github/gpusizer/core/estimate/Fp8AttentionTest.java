package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import org.junit.jupiter.api.Test;

/** FP8 training runs its matmuls in FP8 and its attention in 16 bits (Transformer Engine's default recipe). */
class Fp8AttentionTest {
  private static final Task BF16 = Task.pretraining(TestModels.LLAMA2_7B).microBatch(1).sequenceLength(32768)
      .precision(PrecisionMode.BF16_MIXED).build();
  private static final Hardware H100 = Hardware.single(TestGpus.H100_SXM);

  @Test
  void attention_under_fp8_runs_at_the_bf16_peak() {
    // GIVEN Llama-2-7B at 32k tokens on an H100 in BF16 and in FP8
    Job bf16 = new Job(BF16, H100, Layout.single());
    Job fp8 = new Job(BF16.toBuilder().precision(PrecisionMode.FP8_MIXED).build(), H100, Layout.single());
    // THEN attention keeps the BF16 peak's share of the FP8 peak (989.4 of 1978.9 TFLOP/s), the matmuls do not
    assertThat(ComputeModel.attentionPeakShare(fp8)).isCloseTo(989.4 / 1978.9, within(1e-12));
    assertThat(ComputeModel.attentionPeakShare(bf16)).isEqualTo(1);
    // and its time is the BF16 attention's wherever the two formats' GEMM efficiencies agree
    assertThat(ComputeModel.flashAttentionSecondsPerLayer(fp8, TestModels.LLAMA2_7B))
        .isCloseTo(ComputeModel.flashAttentionSecondsPerLayer(bf16, TestModels.LLAMA2_7B)
            * bf16.gemmEfficiency() / fp8.gemmEfficiency(), within(1e-12));
  }

  @Test
  void fp8_speeds_a_long_context_step_up_by_less_than_its_peak_ratio() {
    // GIVEN the same step in BF16 and FP8, where attention is a large share of the work at 32k tokens
    double bf16 = Estimator.defaults().estimate(BF16, H100, Layout.single()).performance().stepTime().toNanos();
    double fp8 = Estimator.defaults().estimate(BF16.toBuilder().precision(PrecisionMode.FP8_MIXED).build(), H100,
        Layout.single()).performance().stepTime().toNanos();
    // THEN FP8 is faster, but well short of twice as fast: attention and element-wise work keep their pace
    assertThat(fp8).isLessThan(bf16).isGreaterThan(0.6 * bf16);
  }
}
