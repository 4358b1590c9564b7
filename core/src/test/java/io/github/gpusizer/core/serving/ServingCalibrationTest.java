package io.github.gpusizer.core.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Serving passes against NVIDIA's published TensorRT-LLM measurements: "Performance of TensorRT-LLM",
 * {@code docs/source/performance.md} of NVIDIA/TensorRT-LLM (v0.5 low-latency tables, v0.6.1 peak-throughput
 * tables; Llama-2 7B and 70B; A100 in FP16, H100 and L40S in FP8 with an FP8 KV cache). First-token latency is
 * one prefill at batch 1; throughput is a static batch, {@code B · out / (prefill(B, in) + out · step(B))}. Each
 * case prints its error and holds a tolerance stated with its reason.
 */
class ServingCalibrationTest {
  private static final Catalog CATALOG = Catalog.bundled();
  private static final Estimator ESTIMATOR = Estimator.defaults();

  /** Prompts of 2048 tokens: compute-bound prefills, within 30%. */
  private static final double LONG_PREFILL = 0.30;
  /**
   * Prompts of 128 tokens: the measured times carry per-request runtime overheads (tokens in and out, engine
   * set-up) the roofline does not model; under-predicted by about 40%.
   */
  private static final double SHORT_PREFILL = 0.45;
  /** Decode-dominated static batches, within 15%. */
  private static final double THROUGHPUT = 0.15;
  /**
   * L40S (TensorRT-LLM v0.5): its FP8 prefill is over-predicted by about a third, +42% since FP8 jobs run attention
   * at the 16-bit peak (TensorRT-LLM v0.5 had no FP8 attention kernel; the H100 FP8 rows stay within 5%); within 45%.
   */
  private static final double L40S = 0.45;

  static Stream<Arguments> firstTokenLatency() {
    return Stream.of(
        Arguments.of("a100-sxm4-80gb", "llama-2-7b", false, 1, 128, 16.0, SHORT_PREFILL),
        Arguments.of("a100-sxm4-80gb", "llama-2-7b", false, 1, 2048, 133.0, LONG_PREFILL),
        Arguments.of("a100-sxm4-80gb", "llama-2-70b", false, 4, 128, 47.0, SHORT_PREFILL),
        Arguments.of("a100-sxm4-80gb", "llama-2-70b", false, 4, 2048, 377.0, LONG_PREFILL),
        Arguments.of("h100-sxm", "llama-2-7b", true, 1, 2048, 36.0, LONG_PREFILL),
        Arguments.of("h100-sxm", "llama-2-70b", true, 4, 2048, 109.0, LONG_PREFILL),
        Arguments.of("l40s", "llama-2-7b", true, 1, 2048, 73.0, L40S));
  }

  static Stream<Arguments> throughput() {
    return Stream.of(
        Arguments.of("a100-sxm4-80gb", "llama-2-7b", false, 1, 60, 128, 2048, 1928.0, THROUGHPUT),
        Arguments.of("a100-sxm4-80gb", "llama-2-7b", false, 1, 384, 128, 128, 5586.0, THROUGHPUT),
        Arguments.of("a100-sxm4-80gb", "llama-2-7b", false, 1, 52, 2048, 128, 591.0, THROUGHPUT),
        Arguments.of("h100-sxm", "llama-2-7b", true, 1, 112, 128, 2048, 6818.0, THROUGHPUT),
        Arguments.of("l40s", "llama-2-7b", true, 1, 64, 128, 2048, 1622.0, THROUGHPUT));
  }

  private static Task task(String model, boolean fp8, int batch, int tokens) {
    return Task.inference(Presets.get(model)).executionMode(ExecutionMode.SERVING_ENGINE).microBatch(batch)
        .sequenceLength(tokens).precision(fp8 ? PrecisionMode.FP8_MIXED : PrecisionMode.FP16_MIXED).build();
  }

  private static double error(String what, double predicted, double measured) {
    double error = predicted / measured - 1;
    System.out.printf(Locale.ROOT, "serving calibration %-60s predicted %8.1f measured %8.1f error %+5.0f%%%n",
        what, predicted, measured, error * 100);
    return error;
  }

  @ParameterizedTest(name = "{1} TP{3} on {0}, {4}-token prompt: {5} ms to the first token")
  @MethodSource("firstTokenLatency")
  void predicts_first_token_latency_at_batch_1(String gpuId, String model, boolean fp8, int tp, int prompt,
                                               double measuredMs, double tolerance) {
    Gpu gpu = CATALOG.gpu(gpuId);
    double ms = ESTIMATOR.prefill(task(model, fp8, 1, prompt), Hardware.of(gpu, tp, 1),
        new Layout(1, tp, 1, ZeroStage.NONE, tp)).seconds() * 1e3;

    double error = error(model + " TP" + tp + " " + gpuId + " TTFT " + prompt, ms, measuredMs);

    assertThat(Math.abs(error)).isLessThanOrEqualTo(tolerance);
  }

  @ParameterizedTest(name = "{1} on {0}, batch {4}, {5}/{6} tokens: {7} output tokens/s")
  @MethodSource("throughput")
  void predicts_static_batch_output_throughput(String gpuId, String model, boolean fp8, int tp, int batch,
                                               int in, int out, double measured, double tolerance) {
    Gpu gpu = CATALOG.gpu(gpuId);
    Hardware hardware = Hardware.of(gpu, tp, 1);
    Layout layout = new Layout(1, tp, 1, ZeroStage.NONE, tp);
    double prefill = ESTIMATOR.prefill(task(model, fp8, batch, in), hardware, layout).seconds();
    double step = ESTIMATOR.decodeStep(task(model, fp8, batch, in + (out + 1) / 2), hardware, layout, fp8 ? 1 : 2)
        .seconds();
    double tokensPerSecond = batch * out / (prefill + out * step);

    double error = error(model + " " + gpuId + " batch " + batch + " " + in + "/" + out, tokensPerSecond,
        measured);

    assertThat(Math.abs(error)).isLessThanOrEqualTo(tolerance);
  }
}
