package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.gpusizer.catalog.FormFactor;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.core.model.ConvNet;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import org.junit.jupiter.api.Test;

/** The power-limited sustained clock, the GeForce efficiencies and the depthwise and FP32-softmax terms (issue #11). */
class SustainedClockTest {
  private static Gpu withTdp(Gpu gpu, int watts) {
    return new Gpu(gpu.id(), gpu.name(), gpu.aliases(), gpu.vendor(), gpu.architecture(), gpu.computeCapability(),
        gpu.releaseYear(), gpu.memory(), gpu.memoryType(), gpu.memoryBandwidthGBps(), gpu.denseTflops(),
        gpu.fp16AccumulateTflops(), gpu.tensorCores(), gpu.formFactor(), gpu.nvlinkGBps(), gpu.pcieGeneration(),
        watts, gpu.smCount(), gpu.minCuda(), gpu.purchasePrice(), gpu.source(), gpu.unconfirmed());
  }

  @Test
  void a_70_watt_t4_sustains_the_900_of_1590_mhz_measured_under_load() {
    assertThat(Efficiency.sustainedClock(TestGpus.T4)).isCloseTo(900.0 / 1590, within(1e-9));
  }

  @Test
  void the_boards_the_gemm_efficiencies_were_set_on_hold_their_rated_clock() {
    assertThat(Efficiency.sustainedClock(TestGpus.A100_SXM4_80GB)).isEqualTo(1.0);
    assertThat(Efficiency.sustainedClock(TestGpus.V100_SXM2_16GB)).isEqualTo(1.0);
    assertThat(Efficiency.sustainedClock(TestGpus.H100_SXM)).isEqualTo(1.0);
    assertThat(Efficiency.sustainedClock(TestGpus.H200_SXM)).isEqualTo(1.0);
  }

  @Test
  void a_500_watt_h100_runs_below_the_700_watt_one_by_the_cube_root_of_the_power() {
    assertThat(Efficiency.sustainedClock(TestGpus.H100_SXM_96GB)).isCloseTo(Math.cbrt(500.0 / 700), within(1e-9));
  }

  @Test
  void a_250_watt_a100_pcie_and_a_350_watt_h100_pcie_run_below_their_sxm_siblings() {
    assertThat(Efficiency.sustainedClock(TestGpus.A100_PCIE_40GB)).isCloseTo(Math.cbrt(250.0 / 400), within(1e-9));
    assertThat(Efficiency.sustainedClock(TestGpus.H100_PCIE)).isBetween(0.85, 0.88);
  }

  @Test
  void an_a10_at_150_watts_runs_below_its_rated_clock_and_a_geforce_card_above_it() {
    assertThat(Efficiency.sustainedClock(TestGpus.A10)).isBetween(0.7, 0.85);
    assertThat(Efficiency.sustainedClock(TestGpus.RTX_4090)).isEqualTo(Efficiency.GEFORCE_BOOST_HEADROOM);
  }

  @Test
  void more_board_power_never_lowers_the_clock_and_only_geforce_cards_exceed_their_rating() {
    qt().forAll(integers().between(20, 2000), integers().between(20, 2000)).checkAssert((a, b) -> {
      for (Gpu gpu : new Gpu[] {TestGpus.T4, TestGpus.A10, TestGpus.A100_SXM4_80GB, TestGpus.H100_SXM,
          TestGpus.RTX_3090, TestGpus.RTX_4090}) {
        double low = Efficiency.sustainedClock(withTdp(gpu, Math.min(a, b)));
        double high = Efficiency.sustainedClock(withTdp(gpu, Math.max(a, b)));
        assertThat(high).as("%s at %s and %s W", gpu.id(), a, b).isGreaterThanOrEqualTo(low);
        assertThat(high).isPositive().isLessThanOrEqualTo(
            gpu.formFactor() == FormFactor.CONSUMER ? Efficiency.GEFORCE_BOOST_HEADROOM : 1.0);
      }
    });
  }

  @Test
  void the_clock_slows_arithmetic_but_not_a_bandwidth_bound_decode() {
    // GIVEN a T4 and the same card with power to hold its boost
    Gpu unthrottled = withTdp(TestGpus.T4, 1000);
    assertThat(Efficiency.sustainedClock(unthrottled)).isEqualTo(1.0);
    Estimator estimator = Estimator.defaults();
    // WHEN a compute-bound pass (BERT-base training) and a bandwidth-bound one (batch-1 decoding) are estimated
    Task train = Task.pretraining(Presets.get("bert-base")).microBatch(32).sequenceLength(128)
        .precision(PrecisionMode.FP16_MIXED).build();
    Task decode = Task.inference(Presets.get("gpt2")).sequenceLength(16).generatedTokens(64)
        .precision(PrecisionMode.FP16_MIXED).executionMode(io.github.gpusizer.core.task.ExecutionMode.COMPILED)
        .build();
    double trainT4 = rate(estimator, train, TestGpus.T4);
    double trainFull = rate(estimator, train, unthrottled);
    double decodeT4 = rate(estimator, decode, TestGpus.T4);
    double decodeFull = rate(estimator, decode, unthrottled);
    // THEN training slows down on the 70 W card while decoding, which reads memory, barely does
    assertThat(trainT4 / trainFull).isLessThan(0.8);
    assertThat(decodeT4 / decodeFull).isGreaterThan(0.9);
  }

  private static double rate(Estimator estimator, Task task, Gpu gpu) {
    return estimator.estimate(task, Hardware.single(gpu), Layout.single()).performance().samplesPerSecond();
  }

  @Test
  void gddr6x_cards_stream_at_91_percent_and_hbm_cards_at_80() {
    assertThat(Efficiency.bandwidth(TestGpus.RTX_4090)).isEqualTo(0.91);
    assertThat(Efficiency.bandwidth(TestGpus.A100_SXM4_80GB)).isEqualTo(0.80);
    assertThat(Efficiency.bandwidth(TestGpus.T4)).isEqualTo(0.80);
  }

  @Test
  void geforce_convolutions_run_at_the_gemm_efficiency_and_data_centre_ones_lose_the_conv_factor() {
    assertThat(Efficiency.halfRateAccumulation(TestGpus.RTX_4090)).isTrue();
    assertThat(Efficiency.halfRateAccumulation(TestGpus.A100_SXM4_80GB)).isFalse();
    assertThat(Efficiency.convolution(TestGpus.RTX_4090, Precision.FP16))
        .isEqualTo(Efficiency.gemm(TestGpus.RTX_4090, Precision.FP16));
    assertThat(Efficiency.convolution(TestGpus.A100_SXM4_80GB, Precision.FP16))
        .isEqualTo(Efficiency.TENSOR_GEMM * Efficiency.CONV_RELATIVE);
  }

  @Test
  void efficientnet_counts_its_depthwise_flops_and_they_cost_more_than_tensor_core_flops() {
    // GIVEN EfficientNet-B0, whose depthwise convolutions are about 9% of its multiply-accumulates (counted)
    ConvNet b0 = (ConvNet) Presets.get("efficientnet-b0");
    assertThat(b0.depthwiseFlops(224) / b0.forwardFlops(224)).isBetween(0.05, 0.15);
    ConvNet resnet = (ConvNet) Presets.get("resnet50");
    assertThat(resnet.depthwiseFlops(224)).isZero();
    // WHEN the same network is estimated as if those FLOPs ran on tensor cores
    ConvNet dense = new ConvNet(b0.name(), b0.parameters(), b0.forwardFlopsAtReference(),
        b0.activationElementsAtReference(), b0.referenceResolution(), b0.kernels(), 0);
    Estimator estimator = Estimator.defaults();
    Task real = Task.pretraining(b0).microBatch(256).precision(PrecisionMode.FP16_MIXED)
        .optimizer(Optimizer.SGD_MOMENTUM).build();
    Task asDense = Task.pretraining(dense).microBatch(256).precision(PrecisionMode.FP16_MIXED)
        .optimizer(Optimizer.SGD_MOMENTUM).build();
    // THEN the depthwise network is slower
    assertThat(rate(estimator, real, TestGpus.A100_SXM4_80GB))
        .isLessThan(rate(estimator, asDense, TestGpus.A100_SXM4_80GB));
  }

  @Test
  void autocast_keeps_softmax_probabilities_in_fp32_so_eager_scores_take_7_bytes_not_5() {
    Task amp = Task.pretraining(TestModels.BERT_LARGE).microBatch(8).sequenceLength(384)
        .precision(PrecisionMode.FP16_MIXED).flashAttention(false).build();
    Task pure = amp.toBuilder().precision(PrecisionMode.BF16_PURE).build();
    Task fp32 = amp.toBuilder().precision(PrecisionMode.FP32).build();
    Hardware hw = Hardware.single(TestGpus.A100_SXM4_80GB);
    assertThat(MemoryModel.scoreBytes(new Job(amp, hw, Layout.single()), true)).isEqualTo(7);
    assertThat(MemoryModel.scoreBytes(new Job(amp, hw, Layout.single()), false)).isEqualTo(6);
    assertThat(MemoryModel.scoreBytes(new Job(pure, hw, Layout.single()), true)).isEqualTo(5);
    assertThat(MemoryModel.scoreBytes(new Job(fp32, hw, Layout.single()), true)).isEqualTo(9);
  }
  @Test
  void a_composed_tanh_gelu_saves_three_more_ffn_wide_tensors_per_token() {
    // GIVEN GPT-2 medium with a fused GELU and with Hugging Face's gelu_new, in BF16 autocast
    io.github.gpusizer.core.model.Transformer fused = io.github.gpusizer.core.model.Transformer.builder("gpt2-medium")
        .layers(24).hidden(1024).heads(16).vocab(50257).maxPositions(1024).tiedEmbeddings(true).build();
    io.github.gpusizer.core.model.Transformer composed = fused.toBuilder()
        .activation(io.github.gpusizer.core.model.Activation.COMPOSED_TANH_GELU).build();
    Hardware hw = Hardware.single(TestGpus.H200_SXM);
    Task a = Task.pretraining(fused).microBatch(8).sequenceLength(1024).precision(PrecisionMode.BF16_MIXED).build();
    Task b = Task.pretraining(composed).microBatch(8).sequenceLength(1024).precision(PrecisionMode.BF16_MIXED)
        .build();
    // WHEN the bytes a layer saves per token are counted
    double extra = MemoryModel.layerBytesPerToken(new Job(b, hw, Layout.single()), composed, true)
        - MemoryModel.layerBytesPerToken(new Job(a, hw, Layout.single()), fused, true);
    // THEN the difference is 3 tensors x 2 bytes x the FFN width (4096), and training slows by the extra traffic
    assertThat(extra).isEqualTo(3 * 2 * 4096.0);
    assertThat(rate(Estimator.defaults(), b, TestGpus.H200_SXM)).isLessThan(rate(Estimator.defaults(), a,
        TestGpus.H200_SXM));
  }

  @Test
  void flash_attention_2_on_hopper_runs_at_35_percent_of_peak_but_serving_engines_use_hopper_kernels() {
    // FlashAttention-3 (Shah et al. 2024): FlashAttention-2 reaches only 35% of an H100's peak
    assertThat(Efficiency.flashRelative(TestGpus.H100_SXM, io.github.gpusizer.core.task.ExecutionMode.EAGER)
        * Efficiency.HOPPER_GEMM).isCloseTo(0.35, org.assertj.core.api.Assertions.within(1e-12));
    assertThat(Efficiency.flashRelative(TestGpus.H100_SXM, io.github.gpusizer.core.task.ExecutionMode.COMPILED))
        .isEqualTo(Efficiency.FLASH2_HOPPER_RELATIVE);
    assertThat(Efficiency.flashRelative(TestGpus.H100_SXM,
        io.github.gpusizer.core.task.ExecutionMode.SERVING_ENGINE)).isEqualTo(Efficiency.FLASH_RELATIVE);
    assertThat(Efficiency.flashRelative(TestGpus.A100_SXM4_80GB, io.github.gpusizer.core.task.ExecutionMode.EAGER))
        .isEqualTo(Efficiency.FLASH_RELATIVE);
  }
}
