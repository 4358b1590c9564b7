package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.common.testing.NullPointerTester;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.core.task.Framework;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Intervals, error bands, their bundled file, and the three-valued fit. */
class ErrorBandsTest {
  private static final ErrorBand TEN_PERCENT = new ErrorBand(0.9, 1.1, "test band");

  @Test
  void measured_rate_lies_between_prediction_over_high_ratio_and_prediction_over_low_ratio() {
    // GIVEN predictions that land 10% low to 10% high of the measurements
    // WHEN a rate of 1000/s is predicted
    Interval<Double> rate = TEN_PERCENT.ofPredicted(1000.0);
    // THEN the measured rate lies in [1000 / 1.1, 1000 / 0.9]
    assertThat(rate.low()).isCloseTo(909.0909, within(1e-3));
    assertThat(rate.nominal()).isEqualTo(1000.0);
    assertThat(rate.high()).isCloseTo(1111.1111, within(1e-3));
  }

  @Test
  void measured_time_scales_with_the_ratio_because_time_goes_as_one_over_speed() {
    // GIVEN the same band WHEN a time of 10 h is predicted
    Interval<Duration> time = TEN_PERCENT.ofPredictedTime(Duration.ofHours(10));
    // THEN the measured time lies in [9 h, 11 h]: a rate predicted 10% too high means a time 10% too short
    assertThat(time.low()).isEqualTo(Duration.ofHours(9));
    assertThat(time.high()).isEqualTo(Duration.ofHours(11));
  }

  @Test
  void interval_is_widened_to_contain_the_prediction_when_every_case_erred_the_same_way() {
    // GIVEN a class whose predictions were all 5% to 20% too low (ratios 0.80 to 0.95)
    ErrorBand low = new ErrorBand(0.80, 0.95, "all too low");
    // WHEN 10 GiB is predicted
    Interval<DataSize> memory = low.ofPredicted(DataSize.ofGiB(10));
    // THEN the interval starts at the prediction and reaches 10 / 0.8 = 12.5 GiB
    assertThat(memory.low()).isEqualTo(DataSize.ofGiB(10));
    assertThat(memory.high()).isEqualTo(DataSize.ofGiB(12.5));
  }

  @Test
  void no_band_gives_the_point_itself() {
    assertThat(ErrorBand.none().ofPredictedTime(Duration.ofMinutes(3)))
        .isEqualTo(Interval.point(Duration.ofMinutes(3)));
  }

  @Test
  void interval_rejects_a_nominal_outside_its_ends_and_says_which() {
    assertThatThrownBy(() -> new Interval<>(2.0, 1.0, 3.0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an interval must have low <= nominal <= high, was 2.0, 1.0, 3.0");
  }

  @Test
  void interval_contains_its_ends() {
    Interval<Double> i = new Interval<>(1.0, 2.0, 3.0);
    assertThat(i.contains(1.0)).isTrue();
    assertThat(i.contains(3.0)).isTrue();
    assertThat(i.contains(3.0001)).isFalse();
    assertThat(i.contains(0.9999)).isFalse();
  }

  @Test
  void error_band_rejects_a_high_ratio_below_the_low_one() {
    assertThatThrownBy(() -> new ErrorBand(1.2, 1.1, "x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("high ratio must be finite and >= the low ratio 1.2, was 1.1");
  }

  @Test
  void public_constructors_and_factories_reject_nulls() {
    NullPointerTester tester = new NullPointerTester();
    tester.testAllPublicConstructors(Interval.class);
    tester.testAllPublicStaticMethods(Interval.class);
    tester.testAllPublicInstanceMethods(TEN_PERCENT);
    tester.testAllPublicConstructors(ErrorBand.class);
  }

  @Test
  void quantile_sits_at_the_plotting_positions_of_a_prediction_interval_as_r_type_6_does() {
    // R: quantile(1:10, c(0.1, 0.9), type = 6) == c(1.1, 9.9), numpy.quantile(..., method="weibull") the same
    double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertThat(ErrorBands.quantile(sorted, 0.1)).isCloseTo(1.1, within(1e-12));
    assertThat(ErrorBands.quantile(sorted, 0.9)).isCloseTo(9.9, within(1e-12));
    // positions outside [1, n] take the extreme cases: four cases put the p10 at position 0.5
    assertThat(ErrorBands.quantile(new double[] {1, 2, 3, 4}, 0.1)).isEqualTo(1);
    assertThat(ErrorBands.quantile(new double[] {1, 2, 3, 4}, 0.9)).isEqualTo(4);
    assertThat(ErrorBands.quantile(new double[] {5}, 0.9)).isEqualTo(5);
  }

  @Test
  void band_of_n_cases_covers_a_new_case_with_probability_eighty_percent() {
    // GIVEN n exchangeable cases, a new case is equally likely to fall in each of the n + 1 gaps between them
    double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    // WHEN the band of nine cases is taken
    double low = ErrorBands.quantile(sorted, 0.1);
    double high = ErrorBands.quantile(sorted, 0.9);
    // THEN it spans 8 of the 10 gaps (from the smallest case to the largest): 80%
    assertThat(low).isEqualTo(1);
    assertThat(high).isEqualTo(9);
  }

  @Test
  void class_with_fewer_than_nine_cases_takes_the_pooled_band_and_says_so() {
    // GIVEN nine CNN training cases and two adapter cases, all speed
    List<ErrorBands.Residual> residuals = new ArrayList<>();
    double[] cnn = {0.8, 0.85, 0.9, 0.95, 1.0, 1.05, 1.1, 1.15, 1.2};
    for (int i = 0; i < cnn.length; i++) {
      residuals.add(new ErrorBands.Residual(ErrorBands.Quantity.SPEED, WorkloadClass.CNN_TRAINING, "c" + i, cnn[i]));
    }
    residuals.add(new ErrorBands.Residual(ErrorBands.Quantity.SPEED, WorkloadClass.ADAPTER_TRAINING, "a1", 1.5));
    residuals.add(new ErrorBands.Residual(ErrorBands.Quantity.SPEED, WorkloadClass.ADAPTER_TRAINING, "a2", 1.6));
    for (int i = 0; i < 9; i++) {
      residuals.add(new ErrorBands.Residual(ErrorBands.Quantity.MEMORY, WorkloadClass.INFERENCE, "m" + i, 1.0));
    }
    // WHEN derived
    ErrorBands bands = ErrorBands.derive(residuals);
    // THEN the CNN class has its own band (exp of type-6 quantiles of the logs), the adapters the pooled one
    ErrorBand own = bands.speed(WorkloadClass.CNN_TRAINING);
    double[] logs = java.util.Arrays.stream(cnn).map(Math::log).toArray();
    assertThat(own.lowRatio()).isCloseTo(Math.exp(ErrorBands.quantile(logs, 0.1)), within(1e-4));
    assertThat(own.highRatio()).isCloseTo(Math.exp(ErrorBands.quantile(logs, 0.9)), within(1e-4));
    assertThat(own.basis()).isEqualTo("p10–p90 of predicted/measured over 9 speed calibration cases of CNN (vision) "
        + "training");
    ErrorBand adapters = bands.speed(WorkloadClass.ADAPTER_TRAINING);
    assertThat(adapters.basis()).isEqualTo("p10–p90 of predicted/measured over all 11 speed calibration cases "
        + "(pooled: LoRA/QLoRA fine-tuning has 2, fewer than 9)");
    assertThat(adapters.highRatio()).isGreaterThan(own.highRatio());
    // AND the text written for the file reads back to the same bands
    ErrorBands reread = ErrorBands.parse(List.of(bands.toTsv().split("\n")), "test");
    assertThat(reread.speed(WorkloadClass.CNN_TRAINING)).isEqualTo(own);
    assertThat(reread.speed(WorkloadClass.ADAPTER_TRAINING)).isEqualTo(adapters);
  }

  @Test
  void band_ratios_are_rounded_outwards_so_the_cases_at_the_quantiles_stay_covered() {
    // GIVEN nineteen cases, whose p10 and p90 (positions 0.1 x 20 and 0.9 x 20) are exactly the 2nd and 18th
    // order statistics
    List<ErrorBands.Residual> residuals = new ArrayList<>();
    for (int i = 0; i <= 18; i++) {
      residuals.add(new ErrorBands.Residual(ErrorBands.Quantity.SPEED, WorkloadClass.INFERENCE, "s" + i,
          1 + 0.012345 * i));
      residuals.add(new ErrorBands.Residual(ErrorBands.Quantity.MEMORY, WorkloadClass.INFERENCE, "m" + i, 1.0));
    }
    // WHEN derived
    ErrorBand band = ErrorBands.derive(residuals).speed(WorkloadClass.INFERENCE);
    // THEN the band still contains those two ratios, 1.012345 and 1.209865, after rounding to four decimals
    assertThat(band.lowRatio()).isEqualTo(1.0123);
    assertThat(band.highRatio()).isEqualTo(1.2099);
  }

  @Test
  void malformed_line_of_the_bands_file_fails_the_load_with_its_line_number() throws IOException {
    // GIVEN the bundled file with one ratio spoilt
    List<String> lines = new ArrayList<>(com.google.common.io.Resources.readLines(
        com.google.common.io.Resources.getResource(ErrorBands.class, ErrorBands.RESOURCE), StandardCharsets.UTF_8));
    int index = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("speed\tCNN_TRAINING\t")) {
        index = i;
      }
    }
    assertThat(index).isPositive();
    String[] cells = lines.get(index).split("\t");
    cells[3] = "zero";
    lines.set(index, String.join("\t", cells));
    // WHEN parsed THEN the error names the file and the line
    int number = index + 1;
    assertThatThrownBy(() -> ErrorBands.parse(lines, "error-bands.tsv")).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("error-bands.tsv line " + number + ": ");
  }

  @Test
  void bands_file_without_a_class_fails_the_load() throws IOException {
    List<String> lines = new ArrayList<>(com.google.common.io.Resources.readLines(
        com.google.common.io.Resources.getResource(ErrorBands.class, ErrorBands.RESOURCE), StandardCharsets.UTF_8));
    lines.removeIf(l -> l.startsWith("memory\tINFERENCE\t"));
    assertThatThrownBy(() -> ErrorBands.parse(lines, "error-bands.tsv")).isInstanceOf(IllegalStateException.class)
        .hasMessage("error-bands.tsv has no line for MEMORY INFERENCE");
  }

  @Test
  void estimator_attaches_the_band_of_the_jobs_workload_class() {
    // GIVEN ResNet-50 training and Llama-2-7B LoRA fine-tuning on one A100
    Hardware a100 = Hardware.single(TestGpus.A100_SXM4_80GB);
    Task cnn = Task.pretraining(TestModels.RESNET50).microBatch(64).build();
    Task lora = Task.lora(TestModels.LLAMA2_7B, 8).microBatch(1).sequenceLength(512).build();
    // WHEN estimated
    Estimate c = Estimator.defaults().estimate(cnn, a100, Layout.single());
    Estimate l = Estimator.defaults().estimate(lora, a100, Layout.single());
    // THEN each carries the bundled band of its class (the framework was assumed: the band of every stack, saying so),
    // and the intervals follow from it
    ErrorBand cnnSpeed = ErrorBands.bundled().speed(WorkloadClass.CNN_TRAINING);
    assertThat(c.performance().errorBand()).isEqualTo(new ErrorBand(cnnSpeed.lowRatio(), cnnSpeed.highRatio(),
        cnnSpeed.basis() + "; the framework was assumed, so the band spans every stack in the table"));
    assertThat(c.memory().errorBand())
        .isEqualTo(ErrorBands.bundled().memory(WorkloadClass.CNN_TRAINING, Framework.PYTORCH, true));
    assertThat(l.performance().errorBand())
        .isEqualTo(ErrorBands.bundled().speed(WorkloadClass.ADAPTER_TRAINING, Framework.PYTORCH, true));
    assertThat(l.memory().errorBand())
        .isEqualTo(ErrorBands.bundled().memory(WorkloadClass.ADAPTER_TRAINING, Framework.PYTORCH, true));
    assertThat(c.performance().samplesPerSecondInterval())
        .isEqualTo(c.performance().errorBand().ofPredicted(c.performance().samplesPerSecond()));
    assertThat(c.memory().perGpuInterval()).isEqualTo(c.memory().errorBand().ofPredicted(c.memory().perGpu()));
  }

  @Test
  void estimate_of_a_peak_within_the_band_of_the_capacity_warns_that_it_may_not_fit() {
    // GIVEN Llama-2-7B LoRA at sequence 1280 on a 24 GiB RTX 4090: about 22.7 GiB predicted, and memory
    // predictions ran up to 18% low (the pooled band, 0.8450)
    Task lora = Task.lora(TestModels.LLAMA2_7B, 8).microBatch(1).sequenceLength(1280).build();
    // WHEN estimated
    Estimate e = Estimator.defaults().estimate(lora, Hardware.single(TestGpus.RTX_4090), Layout.single());
    // THEN it fits nominally, may not fit in truth, and the warnings say so
    assertThat(e.memory().fits()).isTrue();
    assertThat(e.memory().fit()).isEqualTo(Fit.MAY_NOT_FIT);
    assertThat(e.warnings()).map(Warning::message).contains(e.memory().mayNotFitWarning().orElseThrow());
  }

  @Test
  void jobs_are_classed_by_kind_model_and_nodes() {
    Hardware one = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
    Hardware two = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 2);
    Task llm = Task.pretraining(TestModels.LLAMA2_7B).microBatch(1).sequenceLength(512).build();
    assertThat(WorkloadClass.of(new Job(llm, one, Layout.dataParallel(8)))).isEqualTo(WorkloadClass.TRAINING_ONE_NODE);
    assertThat(WorkloadClass.of(new Job(llm, two, Layout.dataParallel(16).withGpusPerNode(8))))
        .isEqualTo(WorkloadClass.TRAINING_MULTI_NODE);
    assertThat(WorkloadClass.of(new Job(Task.inference(TestModels.LLAMA2_7B).build(), one, Layout.single())))
        .isEqualTo(WorkloadClass.INFERENCE);
    assertThat(WorkloadClass.of(new Job(Task.qlora(TestModels.LLAMA2_7B, 8).build(), one, Layout.single())))
        .isEqualTo(WorkloadClass.ADAPTER_TRAINING);
    assertThat(WorkloadClass.of(new Job(Task.pretraining(TestModels.RESNET50).build(), two,
        Layout.dataParallel(16).withGpusPerNode(8)))).isEqualTo(WorkloadClass.CNN_TRAINING);
  }

  // ---------------------------------------------------------------- the three-valued fit

  private static MemoryEstimate peakOf(double gib) {
    MemoryBreakdown b = new MemoryBreakdown(DataSize.ofGiB(gib), DataSize.ZERO, DataSize.ZERO, DataSize.ZERO,
        DataSize.ZERO, DataSize.ZERO, DataSize.ZERO);
    return MemoryEstimate.of(b, DataSize.ofGiB(80), TEN_PERCENT);
  }

  @Test
  void peak_whose_high_end_fits_fits() {
    // 70 GiB predicted: at most 70 / 0.9 = 77.8 GiB measured, within 80 GiB
    MemoryEstimate m = peakOf(70);
    assertThat(m.fit()).isEqualTo(Fit.FITS);
    assertThat(m.fits()).isTrue();
    assertThat(m.mayNotFitWarning()).isEmpty();
  }

  @Test
  void peak_that_fits_nominally_but_whose_high_end_exceeds_the_capacity_may_not_fit() {
    // 75 GiB predicted: up to 83.3 GiB measured, beyond 80 GiB
    MemoryEstimate m = peakOf(75);
    assertThat(m.fit()).isEqualTo(Fit.MAY_NOT_FIT);
    assertThat(m.fits()).isTrue();
    assertThat(m.mayNotFitWarning()).hasValue("may not fit: needs 75.0 GiB per GPU (68.2 GiB to 83.3 GiB, test band)"
        + " of 80.0 GiB; leave more memory free or lower the micro-batch");
  }

  @Test
  void peak_beyond_the_capacity_whose_low_end_would_fit_may_not_fit() {
    // 81 GiB predicted: 73.6 to 90.0 GiB measured, so the interval straddles 80 GiB
    MemoryEstimate m = peakOf(81);
    assertThat(m.fit()).isEqualTo(Fit.MAY_NOT_FIT);
    assertThat(m.fits()).isFalse();
    assertThat(m.mayNotFitWarning()).hasValue("may not fit: needs 81.0 GiB per GPU (73.6 GiB to 90.0 GiB, test band)"
        + " of 80.0 GiB, more than it has: it fits only if the estimate is high; lower the micro-batch or shard more");
  }

  @Test
  void peak_whose_low_end_exceeds_the_capacity_does_not_fit() {
    // 90 GiB predicted: at least 81.8 GiB measured, beyond 80 GiB
    MemoryEstimate m = peakOf(90);
    assertThat(m.fit()).isEqualTo(Fit.DOES_NOT_FIT);
    assertThat(m.fits()).isFalse();
    assertThat(m.mayNotFitWarning()).isEmpty();
  }

  @Test
  void estimate_built_without_a_band_only_fits_or_does_not() {
    MemoryBreakdown b = new MemoryBreakdown(DataSize.ofGiB(79.9), DataSize.ZERO, DataSize.ZERO, DataSize.ZERO,
        DataSize.ZERO, DataSize.ZERO, DataSize.ZERO);
    assertThat(MemoryEstimate.of(b, DataSize.ofGiB(80)).fit()).isEqualTo(Fit.FITS);
  }

  @Test
  void fit_labels_are_the_words_the_cli_prints() {
    assertThat(Fit.FITS.label()).isEqualTo("fits");
    assertThat(Fit.MAY_NOT_FIT.label()).isEqualTo("may not fit");
    assertThat(Fit.DOES_NOT_FIT.label()).isEqualTo("does not fit");
  }

  @Test
  void a_named_framework_gets_its_stacks_band_where_the_stack_has_enough_cases_and_says_so_where_not() {
    // GIVEN one-node LLM training named as Hugging Face's Trainer (12 speed cases on Hugging Face stacks) and as
    // torchtune (the standard stack)
    Task hf = Task.pretraining(TestModels.LLAMA2_7B).microBatch(1).sequenceLength(1024)
        .framework(Framework.HF_TRAINER).build();
    Estimate e = Estimator.defaults().estimate(hf, Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single());
    // THEN its speed band is its stack's, and names it; its memory band names why it is the class's
    assertThat(e.performance().errorBand().basis()).contains("run on Hugging Face eager stacks");
    assertThat(e.memory().errorBand().basis()).containsAnyOf("run on Hugging Face eager stacks",
        "for a band of their own");
    assertThat(e.performance().errorBand())
        .isNotEqualTo(ErrorBands.bundled().speed(WorkloadClass.TRAINING_ONE_NODE, Framework.HF_TRAINER, true));
  }
}
