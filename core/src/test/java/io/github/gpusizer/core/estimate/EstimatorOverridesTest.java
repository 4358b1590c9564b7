package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Every default constant of the estimator can be replaced by the caller, and each replacement does what it says. */
class EstimatorOverridesTest {
  private static final Hardware A100 = Hardware.single(TestGpus.A100_SXM4_80GB);
  private static final Hardware EIGHT_A100 = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
  private static final Task DECODE = Task.inference(TestModels.LLAMA2_7B).sequenceLength(128).generatedTokens(256)
      .tokens(1e6).build();
  private static final Task TRAIN = Task.pretraining(TestModels.LLAMA2_7B).microBatch(1).sequenceLength(2048)
      .tokens(1e9).build();

  @Test
  void a_cuda_context_override_moves_the_nvidia_smi_figure_by_exactly_the_difference() {
    MemoryEstimate standard = Estimator.defaults().memory(DECODE, A100, Layout.single());
    MemoryEstimate larger = Estimator.defaults().withCudaContext(DataSize.ofGiB(2)).memory(DECODE, A100,
        Layout.single());
    assertThat(larger.breakdown().allocated()).isEqualTo(standard.breakdown().allocated());
    assertThat(larger.perGpu().bytes() - standard.perGpu().bytes())
        .isEqualTo(DataSize.ofGiB(2).bytes() - MemoryModel.CUDA_CONTEXT_BYTES);
  }

  @Test
  void no_allocator_cache_leaves_only_the_context_as_overhead() {
    MemoryEstimate m = Estimator.defaults().withAllocatorCacheFraction(0).memory(DECODE, A100, Layout.single());
    assertThat(m.breakdown().overhead().bytes()).isEqualTo(MemoryModel.CUDA_CONTEXT_BYTES);
  }

  @Test
  void decoding_slows_with_the_memory_bandwidth_reached_and_with_host_time() {
    double standard = tokensPerSecond(Estimator.defaults().withCompiledExecution());
    double halfBandwidth = tokensPerSecond(Estimator.defaults().withCompiledExecution().withBandwidthEfficiency(0.4));
    assertThat(halfBandwidth).isLessThan(standard * 0.6);
    double eager = tokensPerSecond(Estimator.defaults());
    double slowerHost = tokensPerSecond(Estimator.defaults().withHostTimePerLayer(Duration.ofNanos(2_440_000)));
    assertThat(eager).isLessThan(standard);
    assertThat(slowerHost).isLessThan(eager);
  }

  @Test
  void a_slower_link_never_speeds_up_data_parallel_training() {
    Layout ddp = Layout.dataParallel(8).withZero(io.github.gpusizer.core.task.ZeroStage.STAGE_3);
    Duration standard = Estimator.defaults().performance(TRAIN, EIGHT_A100, ddp).stepTime();
    Duration slowLink = Estimator.defaults().withLinkEfficiency(0.05).performance(TRAIN, EIGHT_A100, ddp).stepTime();
    assertThat(slowLink).isGreaterThan(standard);
  }

  @Test
  void rejects_fractions_outside_their_range_naming_the_setting() {
    assertThatThrownBy(() -> Estimator.defaults().withBandwidthEfficiency(1.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("bandwidth efficiency must be in (0, 1], was 1.5");
    assertThatThrownBy(() -> Estimator.defaults().withLinkEfficiency(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("link efficiency must be in (0, 1], was 0.0");
    assertThatThrownBy(() -> Estimator.defaults().withAllocatorCacheFraction(-0.1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("allocator cache fraction must be in [0, 1], was -0.1");
    assertThatThrownBy(() -> Estimator.defaults().withHostTimePerLayer(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("host time per layer must be >= 0");
  }

  private static double tokensPerSecond(Estimator estimator) {
    return estimator.performance(DECODE, A100, Layout.single()).tokensPerSecond();
  }
}
