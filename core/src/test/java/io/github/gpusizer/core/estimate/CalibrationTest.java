package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.io.Resources;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Framework;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.WeightQuantization;
import io.github.gpusizer.core.task.ZeroStage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Predictions against the published measurements of {@code calibration.tsv} (a copy of the project's
 * {@code data/calibration.tsv} with its source column). Each case builds the model from the row's architecture
 * dimensions, states which quantity it compares (nvidia-smi vs {@code total()}, {@code max_memory_allocated} vs
 * {@code allocated()}, per-GPU vs total throughput), prints prediction, measurement and error, and fails beyond its
 * documented bound. CALIBRATION.md explains each bound and each miss.
 */
class CalibrationTest {
  /** Memory predictions should land within 15% of the measurement. */
  static final double MEMORY_BOUND = 0.15;
  /** Throughput predictions should land within 25%. */
  static final double THROUGHPUT_BOUND = 0.25;

  private static final Estimator ESTIMATOR = Estimator.defaults();

  /**
   * Lambda's ResNet-50 FP16 training throughput on "A100 80GB SXM4", images/s:
   * lambdal/deeplearning-benchmark@0551cb70ffdc155dc4cb2c10dddebb65651c3883:pytorch/pytorch-train-throughput-fp16.csv.
   */
  static final double LAMBDA_A100_80GB_SXM4_RESNET50 = 1582;
  /** Lambda's BERT-large SQuAD FP16 fine-tuning throughput on "A100 80GB SXM4", sequences/s (same CSV). */
  static final double LAMBDA_A100_80GB_SXM4_BERT_LARGE_SQUAD = 152;
  private static final ImmutableMap<String, ImmutableMap<String, String>> ROWS = load("calibration.tsv");
  /** Measurements made for this project on an H200 (measurements/h200.tsv, script beside it). */
  private static final ImmutableMap<String, ImmutableMap<String, String>> OWN = load("measurements/h200.tsv");

  /**
   * One comparison: what is predicted, what was measured, the bound it must meet, and the error band it belongs to
   * (empty for the one case that compares a ratio of two predictions, which no band describes).
   */
  record Case(String row, String quantity, double measured, DoubleSupplier prediction, double bound,
              Optional<Subject> subject, double fittedFactor) {
    Case(String row, String quantity, double measured, DoubleSupplier prediction, double bound) {
      this(row, quantity, measured, prediction, bound, Optional.empty(), 1);
    }

    Case(String row, String quantity, double measured, DoubleSupplier prediction, double bound,
         Optional<Subject> subject) {
      this(row, quantity, measured, prediction, bound, subject, 1);
    }

    /**
     * This case where a constant was set from its own source and multiplies its prediction by {@code factor}: held
     * out with its source, the model predicts {@code predicted() / factor} ({@link #heldOutPredicted()}).
     */
    Case withFittedFactor(double factor) {
      return new Case(row, quantity, measured, prediction, bound, subject, factor);
    }

    /** What the model predicts for this case without the constants its own source set. */
    double heldOutPredicted() {
      return predicted() / fittedFactor;
    }

    double predicted() {
      return prediction.getAsDouble();
    }

    Case withBound(double newBound) {
      return new Case(row, quantity, measured, prediction, newBound, subject, fittedFactor);
    }

    /** This case as a speed prediction (rate, FLOP/s or time) of the task's workload class. */
    Case speed(Task task, Hardware hw, Layout layout) {
      return new Case(row, quantity, measured, prediction, bound,
          Optional.of(new Subject(ErrorBands.Quantity.SPEED, WorkloadClass.of(new Job(task, hw, layout)),
              frameworkOf(row, task))), fittedFactor);
    }

    /** This case as a memory prediction of the task's workload class. */
    Case memory(Task task, Hardware hw, Layout layout) {
      return new Case(row, quantity, measured, prediction, bound,
          Optional.of(new Subject(ErrorBands.Quantity.MEMORY, WorkloadClass.of(new Job(task, hw, layout)),
              frameworkOf(row, task))), fittedFactor);
    }

    double error() {
      return predicted() / measured - 1;
    }

    String line() {
      String interval = subject.map(s -> {
        Interval<Double> i = s.band(ErrorBands.bundled()).ofPredicted(predicted());
        return String.format(Locale.ROOT, "p10-p90 %12.2f to %12.2f %-7s", i.low(), i.high(),
            i.contains(measured) ? "covered" : "OUTSIDE");
      }).orElse(String.format(Locale.ROOT, "%-40s", "(no band: a ratio of two predictions)"));
      return String.format(Locale.ROOT,
          "%-44s %-46s predicted %12.2f %s measured %12.2f error %+6.1f%% (bound %.0f%%)", row, quantity,
          predicted(), interval, measured, 100 * error(), 100 * bound);
    }
  }

  /** Which band a case belongs to: its quantity and its task's workload class; and the framework it ran on. */
  record Subject(ErrorBands.Quantity quantity, WorkloadClass workloadClass, Framework framework) {
    /** The band of this case's workload class (the rule the in-sample and leave-one-out tests check). */
    ErrorBand band(ErrorBands bands) {
      return quantity == ErrorBands.Quantity.SPEED ? bands.speed(workloadClass) : bands.memory(workloadClass);
    }

    /** The band the estimator gives a task of this class whose framework is named: its stack's joined with it. */
    ErrorBand namedBand(ErrorBands bands) {
      return quantity == ErrorBands.Quantity.SPEED ? bands.speed(workloadClass, framework, false)
          : bands.memory(workloadClass, framework, false);
    }
  }

  @TestFactory
  Stream<DynamicTest> every_case_lands_within_its_documented_bound() {
    return cases().stream().map(c -> DynamicTest.dynamicTest(c.row() + ": " + c.quantity(), () -> {
      System.out.println(c.line());
      assertThat(Math.abs(c.error())).as(c.line()).isLessThanOrEqualTo(c.bound());
    }));
  }

  @Test
  void most_throughput_cases_land_within_25_percent_and_most_memory_cases_within_15_percent() {
    List<Case> all = cases();
    System.out.println("---- calibration table ----");
    all.forEach(c -> System.out.println(c.line()));
    // Published measurements come from tuned code (NVIDIA, MLPerf, Megatron, LLM Foundry, LitGPT): three in four
    // must land within 15% (memory) and 25% (throughput). Our own H200 runs use stock Hugging Face eager code, whose
    // host overhead and unfused element-wise work the estimator underrates: their shares are printed, not held to
    // that bar, and each case still fails beyond its own documented bound (CALIBRATION.md).
    List<Case> published = all.stream().filter(c -> ROWS.containsKey(c.row())).toList();
    List<Case> own = all.stream().filter(c -> !ROWS.containsKey(c.row())).toList();
    System.out.print("published: ");
    assertShare(published, 3, 4);
    System.out.print("own H200 (Hugging Face eager): ");
    assertShare(own, 0, 1);
  }

  private static void assertShare(List<Case> cases, int numerator, int denominator) {
    List<Case> memory = cases.stream().filter(CalibrationTest::isMemory).toList();
    List<Case> speed = cases.stream().filter(c -> !isMemory(c)).toList();
    long memoryWithin = memory.stream().filter(c -> Math.abs(c.error()) <= MEMORY_BOUND).count();
    long speedWithin = speed.stream().filter(c -> Math.abs(c.error()) <= THROUGHPUT_BOUND).count();
    System.out.printf(Locale.ROOT, "memory within 15%%: %d of %d; throughput within 25%%: %d of %d%n", memoryWithin,
        memory.size(), speedWithin, speed.size());
    assertThat(memoryWithin * denominator).isGreaterThan((long) memory.size() * numerator - 1);
    assertThat(speedWithin * denominator).isGreaterThan((long) speed.size() * numerator - 1);
  }

  /** A memory case by its band; the ratios of two predictions (no band) are speeds. */
  private static boolean isMemory(Case c) {
    return c.subject().map(s -> s.quantity() == ErrorBands.Quantity.MEMORY).orElse(false);
  }

  /** A case with a band and its prediction, computed once. */
  private record Scored(Case c, Subject subject, double predicted) {
    ErrorBands.Residual residual() {
      // the held-out prediction: a constant set from this case's own source does not narrow the band
      return new ErrorBands.Residual(subject.quantity(), subject.workloadClass(),
          Optional.of(subject.framework().stack()), c.row(), c.heldOutPredicted() / c.measured());
    }

    boolean coveredBy(ErrorBands bands) {
      return subject.band(bands).ofPredicted(predicted).contains(c.measured());
    }
  }

  private static List<Scored> scored() {
    return cases().stream().filter(c -> c.subject().isPresent())
        .map(c -> new Scored(c, c.subject().get(), c.predicted())).toList();
  }

  private static List<ErrorBands.Residual> residuals(List<Scored> scored) {
    return scored.stream().map(Scored::residual).toList();
  }

  @Test
  void every_case_but_the_ratio_of_two_predictions_belongs_to_an_error_band() {
    // the ratios within Lambda's one suite and within NeMo's long-sequence table (a ratio of two predictions, which
    // no band describes)
    assertThat(cases().stream().filter(c -> c.subject().isEmpty()).map(Case::quantity))
        .hasSize(10).allMatch(q -> q.contains(" / A100-80GB") && q.contains("one suite")
            || q.contains(" / 32k TFLOP/s"));
  }

  @Test
  void bundled_error_bands_are_the_ones_derived_from_the_calibration_cases() throws IOException {
    // GIVEN the bands derived from this test's cases by ErrorBands' rule
    String derived = ErrorBands.derive(residuals(scored())).toTsv();
    // WHEN compared with the file on the class path
    String bundled = Resources.toString(Resources.getResource(ErrorBands.class, ErrorBands.RESOURCE),
        StandardCharsets.UTF_8);
    // THEN they are the same text: the file is derived, never typed in
    if (!derived.equals(bundled)) {
      java.nio.file.Path out = java.nio.file.Path.of("target", ErrorBands.RESOURCE);
      java.nio.file.Files.writeString(out, derived, StandardCharsets.UTF_8);
      System.out.println("---- error-bands.tsv is stale; the derived file, also written to " + out.toAbsolutePath()
          + ", goes to core/src/main/resources/io/github/gpusizer/core/estimate/ ----\n" + derived);
    }
    assertThat(bundled).as("error-bands.tsv against the bands derived from the calibration cases").isEqualTo(derived);
  }

  @Test
  void the_nominal_80_percent_interval_covers_70_to_90_percent_of_the_calibration_cases() {
    // GIVEN every prediction that has a band, with the interval the estimator's bundled bands give it
    List<Scored> scored = scored();
    System.out.println("---- predictions with their p10-p90 intervals (bundled bands) ----");
    scored.forEach(x -> System.out.println(x.c().line()));
    // WHEN counting the measurements inside their intervals
    double speed = coverage(scored, ErrorBands.Quantity.SPEED, ErrorBands.bundled(), "in-sample");
    double memory = coverage(scored, ErrorBands.Quantity.MEMORY, ErrorBands.bundled(), "in-sample");
    double all = coverage(scored, null, ErrorBands.bundled(), "in-sample");
    // THEN the nominal 80% covers 70-90% of them, for speed and memory separately (issue #11). The bands come from
    // these very cases, so this checks the rule (quantiles, pooling, rounding), not how it generalises; see the
    // leave-one-out test for that.
    assertThat(speed).as("speed coverage").isBetween(0.70, 0.90);
    assertThat(memory).as("memory coverage").isBetween(0.70, 0.90);
    assertThat(all).as("coverage of all cases").isBetween(0.70, 0.90);
  }

  @Test
  void leave_one_out_intervals_cover_70_to_90_percent_of_the_calibration_cases() {
    // GIVEN for each case the bands derived from all the other cases
    List<Scored> scored = scored();
    List<ErrorBands.Residual> residuals = residuals(scored);
    int speedCovered = 0;
    int speedCases = 0;
    int memoryCovered = 0;
    int memoryCases = 0;
    System.out.println("---- leave-one-out: each case against the bands of the others ----");
    for (int i = 0; i < scored.size(); i++) {
      List<ErrorBands.Residual> others = new ArrayList<>(residuals);
      others.remove(i);
      Scored x = scored.get(i);
      ErrorBand band = x.subject().band(ErrorBands.derive(others));
      Interval<Double> interval = band.ofPredicted(x.predicted());
      boolean covered = interval.contains(x.c().measured());
      System.out.printf(Locale.ROOT, "%-44s %-46s predicted %12.2f p10-p90 %12.2f to %12.2f measured %12.2f %s%n",
          x.c().row(),
          x.c().quantity(), x.predicted(), interval.low(), interval.high(), x.c().measured(),
          covered ? "covered" : "OUTSIDE");
      if (x.subject().quantity() == ErrorBands.Quantity.SPEED) {
        speedCases++;
        speedCovered += covered ? 1 : 0;
      } else {
        memoryCases++;
        memoryCovered += covered ? 1 : 0;
      }
    }
    // WHEN counted
    System.out.printf(Locale.ROOT, "leave-one-out coverage: speed %d of %d (%.0f%%), memory %d of %d (%.0f%%), "
            + "all %d of %d (%.0f%%)%n", speedCovered, speedCases, 100.0 * speedCovered / speedCases, memoryCovered,
        memoryCases, 100.0 * memoryCovered / memoryCases, speedCovered + memoryCovered, speedCases + memoryCases,
        100.0 * (speedCovered + memoryCovered) / (speedCases + memoryCases));
    // THEN the nominal 80% interval covers 70-90% of the cases it was not derived from, for speed and memory
    // separately (issue #11): the bands are prediction intervals (type-6 positions p(n + 1), classes of at least 9
    // cases), so a case left out falls outside only when it is more extreme than about the outer tenth of the others
    double all = (double) (speedCovered + memoryCovered) / (speedCases + memoryCases);
    assertThat((double) speedCovered / speedCases).as("speed leave-one-out coverage").isBetween(0.70, 0.90);
    assertThat((double) memoryCovered / memoryCases).as("memory leave-one-out coverage").isBetween(0.70, 0.90);
    assertThat(all).as("leave-one-out coverage of all cases").isBetween(0.70, 0.90);
  }

  /** The share of cases of a quantity (all when null) whose measurement lies in its interval, printed by class. */
  private static double coverage(List<Scored> scored, ErrorBands.Quantity quantity, ErrorBands bands, String what) {
    List<Scored> chosen = scored.stream().filter(x -> quantity == null || x.subject().quantity() == quantity)
        .toList();
    long covered = chosen.stream().filter(x -> x.coveredBy(bands)).count();
    StringBuilder byClass = new StringBuilder();
    for (WorkloadClass c : WorkloadClass.values()) {
      List<Scored> own = chosen.stream().filter(x -> x.subject().workloadClass() == c).toList();
      if (!own.isEmpty()) {
        byClass.append(String.format(Locale.ROOT, "; %s %d of %d", c, own.stream().filter(x -> x.coveredBy(bands))
            .count(), own.size()));
      }
    }
    double share = (double) covered / chosen.size();
    System.out.printf(Locale.ROOT, "%s coverage of the nominal 80%% interval, %s: %d of %d (%.0f%%)%s%n", what,
        quantity == null ? "all" : quantity.name().toLowerCase(Locale.ROOT), covered, chosen.size(), 100 * share,
        quantity == null ? "" : byClass);
    return share;
  }

  @Test
  void bert_large_fp32_on_a_16gb_v100_fits_micro_batch_8_but_not_16() {
    // GIVEN BERT-large pre-training phase 1 in FP32 with LAMB at sequence length 128 (TF1 NGC 20.06), run as a
    // TensorFlow graph (TensorFlow's executor and BFC allocator)
    Task task = Task.pretraining(TestModels.BERT_LARGE_TF1).microBatch(8).globalBatch(65536).sequenceLength(128)
        .precision(PrecisionMode.FP32).optimizer(Optimizer.LAMB).flashAttention(false)
        .executionMode(ExecutionMode.TENSORFLOW_GRAPH).build();
    // WHEN the largest micro-batch that fits on a V100-SXM2-16GB is searched
    int largest = ESTIMATOR.maxMicroBatch(task, Hardware.single(TestGpus.V100_SXM2_16GB), Layout.single());
    // THEN it lies on the measured boundary: at least the 8 that ran, below the 16 that ran out of memory
    // (dle_bertL_tf1_V100_16_fp32_seq128_memfit). The model counts TF1's GELU, dropout and LayerNorm written in
    // TensorFlow operations, LAMB's terms that the executor computes at the start of the step, and TensorFlow's
    // context and system reserve (12; 19 before the last two).
    System.out.println("dle_bertL_tf1_V100_16_fp32_seq128_memfit: largest micro-batch predicted " + largest
        + ", measured 8 fits / 16 OOM");
    assertThat(ROWS.get("dle_bertL_tf1_V100_16_fp32_seq128_memfit").get("value")).isEqualTo("8 / 16");
    assertThat(largest).isBetween(8, 15);
  }

  @Test
  void bert_large_tf1_at_sequence_512_fits_fp32_micro_batch_2_but_not_4_and_amp_micro_batch_4() {
    // GIVEN the same row's notes: at sequence 512 FP32 micro-batch 2 fits and 4 runs out of memory; AMP fits 4 at
    // sequence 512 and 16 at sequence 128 (the throughput row's batch)
    Task fp32 = Task.pretraining(TestModels.BERT_LARGE_TF1).microBatch(2).globalBatch(65536).sequenceLength(512)
        .precision(PrecisionMode.FP32).optimizer(Optimizer.LAMB).flashAttention(false)
        .executionMode(ExecutionMode.TENSORFLOW_GRAPH).build();
    Task amp512 = fp32.toBuilder().microBatch(4).precision(PrecisionMode.FP16_MIXED).build();
    Task amp128 = amp512.toBuilder().microBatch(16).sequenceLength(128).build();
    Hardware v100 = Hardware.single(TestGpus.V100_SXM2_16GB);
    assertThat(ROWS.get("dle_bertL_tf1_V100_16_fp32_seq128_memfit").get("notes"))
        .contains("seq 512: FP32 bs 2 fits, bs 4 OOM").contains("AMP bs 16 (seq128) and 4 (seq512) fit");
    // WHEN the largest micro-batches that fit are searched
    int fp32Largest = ESTIMATOR.maxMicroBatch(fp32, v100, Layout.single());
    // THEN FP32 at sequence 512 lands on the measured side of the boundary (2 or 3; 3 was not run) and AMP fits 16
    // at sequence 128 (not called out of memory). AMP's 4 at sequence 512 is a documented miss (CALIBRATION.md): the model puts it 8% over the
    // card; the row's runs used XLA (DeepLearningExamples' benchmark script passes use_xla), which fuses the
    // element-wise chains and orders the optimizer's terms itself, and the graph mode models TensorFlow without it
    MemoryEstimate amp = ESTIMATOR.memory(amp512, v100, Layout.single());
    System.out.println("dle_bertL_tf1 sequence 512 FP32: largest micro-batch predicted " + fp32Largest
        + ", measured 2 fits / 4 OOM; AMP micro-batch 4 predicted at " + amp.breakdown().total() + " of "
        + amp.capacity() + ", measured to fit");
    assertThat(fp32Largest).isBetween(2, 3);
    assertThat(ESTIMATOR.memory(amp128, v100, Layout.single()).fit()).isNotEqualTo(Fit.DOES_NOT_FIT);
    assertThat((double) amp.breakdown().total().bytes()).isLessThan(1.10 * amp.capacity().bytes());
  }

  @Test
  void bert_large_squad_under_tensorflow_1_calls_no_batch_that_ran_out_of_memory_and_none_that_failed_a_sure_fit() {
    // GIVEN DeepLearningExamples' SQuAD fine-tuning of BERT-large at sequence 384 under NGC TensorFlow 19.03
    // (run_squad.py, BERT's AdamW) on V100-SXM2s: FP32 2 ran and 3 did not on 16 GB, 4 ran and 10 did not on 32 GB;
    // FP16 (AMP) 3 and 10 ran (dle_bertL_squad_tf1_V100_fp32_seq384_memfit, a row the graph mode's last round was
    // not fitted to)
    ImmutableMap<String, String> row = ROWS.get("dle_bertL_squad_tf1_V100_fp32_seq384_memfit");
    assertThat(row.get("value")).isEqualTo("2 / 3");
    assertThat(row.get("notes")).contains("FP32 batch 4 ran, 10 OOM").contains("FP16 batch 3 (16 GB) and 10 (32 GB) ran");
    Gpu v100x32 = io.github.gpusizer.catalog.Catalog.bundled().gpus().stream()
        .filter(g -> g.id().equals("v100-sxm2-32gb")).findFirst().orElseThrow();
    Task fp32 = Task.fullFineTuning(TestModels.BERT_LARGE_TF1).tokens(1e6).microBatch(1).sequenceLength(384)
        .precision(PrecisionMode.FP32).optimizer(Optimizer.ADAMW).flashAttention(false)
        .executionMode(ExecutionMode.TENSORFLOW_GRAPH).build();
    Task amp = fp32.toBuilder().precision(PrecisionMode.FP16_MIXED).build();
    Object[][] runs = {{fp32, TestGpus.V100_SXM2_16GB, 2, true}, {fp32, TestGpus.V100_SXM2_16GB, 3, false},
        {amp, TestGpus.V100_SXM2_16GB, 3, true}, {fp32, v100x32, 4, true}, {fp32, v100x32, 10, false},
        {amp, v100x32, 10, true}};
    for (Object[] run : runs) {
      Task task = ((Task) run[0]).toBuilder().microBatch((Integer) run[2]).build();
      // WHEN its memory is estimated
      MemoryEstimate m = ESTIMATOR.memory(task, Hardware.single((Gpu) run[1]), Layout.single());
      String what = String.format(Locale.ROOT, "%s batch %d on %s (%s)", task.precision(), run[2],
          ((Gpu) run[1]).id(), (Boolean) run[3] ? "ran" : "out of memory");
      System.out.printf(Locale.ROOT, "dle_bertL_squad_tf1 %s: %.3f of the card, %s%n", what,
          (double) m.breakdown().total().bytes() / m.capacity().bytes(), m.fit().label());
      // THEN a batch that ran is not called out of memory, and one that ran out is not called a sure fit (before
      // TensorFlow's optimizer terms and context, FP32 3 on 16 GB and 10 on 32 GB were sure fits)
      assertThat(m.fit()).as(what).isNotEqualTo((Boolean) run[3] ? Fit.DOES_NOT_FIT : Fit.FITS);
    }
  }

  @Test
  void the_largest_bert_batches_of_a_12_gb_card_under_tensorflow_1_are_found_within_the_tables_grid() {
    // GIVEN google-research/bert's table of the largest batches that fit a 12 GB Titan X under TensorFlow 1.11
    // (run_classifier.py / run_squad.py: FP32, BERT's AdamW, GELU, dropout and LayerNorm written as TensorFlow
    // operations). The table's grid is coarse (BERT-Base 64/32/16 at the short sequences: powers of two), so a batch
    // twice the one listed is taken not to fit; 0 says one sequence did not fit.
    int[] sequences = {64, 128, 256, 320, 384, 512};
    int[][] largest = {{64, 32, 16, 14, 12, 6}, {12, 6, 2, 1, 0, 0}};
    String[] rows = {"google_bertB_tf111_titanx12_fp32_memfit", "google_bertL_tf111_titanx12_fp32_memfit"};
    String[] presets = {"bert-base", "bert-large"};
    // sized on the Tesla M40 (GM200 with 12 GB, the Maxwell Titan X's chip): only the capacity matters here
    Gpu twelveGb = io.github.gpusizer.catalog.Catalog.bundled().gpus().stream().filter(g -> g.id().equals("m40"))
        .findFirst().orElseThrow();
    Hardware card = Hardware.single(twelveGb);
    for (int m = 0; m < 2; m++) {
      assertThat(ROWS.get(rows[m]).get("notes")).contains(String.join("/", java.util.Arrays.stream(largest[m])
          .mapToObj(Integer::toString).toList()));
      Transformer model = ((Transformer) io.github.gpusizer.core.model.Presets.get(presets[m])).toBuilder()
          .activation(io.github.gpusizer.core.model.Activation.COMPOSED_TANH_GELU)
          .dropout(io.github.gpusizer.core.model.Dropout.SCALED_FLOAT_MASK)
          .norm(io.github.gpusizer.core.model.Norm.COMPOSED_LAYER_NORM).build();
      for (int k = 0; k < sequences.length; k++) {
        int measured = largest[m][k];
        Task task = Task.fullFineTuning(model).tokens(1e6).microBatch(Math.max(1, measured))
            .sequenceLength(sequences[k]).precision(PrecisionMode.FP32).optimizer(Optimizer.ADAMW)
            .flashAttention(false).executionMode(ExecutionMode.TENSORFLOW_GRAPH).build();
        // WHEN the largest batch that fits is searched, and the memory of the batch listed and of twice it (one
        // sequence where none fitted) estimated
        int predicted = ESTIMATOR.maxMicroBatch(task, card, Layout.single());
        MemoryEstimate ran = ESTIMATOR.memory(task, card, Layout.single());
        MemoryEstimate failed = measured == 0 ? ran
            : ESTIMATOR.memory(task.toBuilder().microBatch(2 * measured).build(), card, Layout.single());
        double share = (double) ran.breakdown().total().bytes() / ran.capacity().bytes();
        System.out.printf(Locale.ROOT, "%s sequence %d: largest batch predicted %d, measured %d (batch %d at %.3f of "
            + "the card, %s; batch %d %s)%n", rows[m], sequences[k], predicted, measured, Math.max(1, measured), share,
            ran.fit().label(), Math.max(1, 2 * measured), failed.fit().label());
        // THEN a batch that ran needs at most 3% more than the card (BERT-Base at 384, 2.2%, is the one that needs
        // more at all: CALIBRATION.md), and a batch taken not to fit is never called a sure fit
        if (measured > 0) {
          assertThat(share).as("%s at sequence %d", presets[m], sequences[k]).isLessThan(1.03);
        }
        assertThat(failed.fit()).as("%s at sequence %d", presets[m], sequences[k]).isNotEqualTo(Fit.FITS);
      }
    }
  }

  static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    // ---- CNN training throughput (synthetic data or DALI: no CPU limit), images/s per GPU
    cases.add(cnnTraining("dle_rn50_pyt_1xA100_80_amp", TestGpus.A100_SXM4_80GB, 256, PrecisionMode.FP16_MIXED));
    cases.add(cnnTraining("dle_rn50_pyt_1xV100_16_amp", TestGpus.V100_SXM2_16GB, 256, PrecisionMode.FP16_MIXED));
    cases.add(cnnTraining("dle_rn50_pyt_1xV100_16_fp32", TestGpus.V100_SXM2_16GB, 112, PrecisionMode.FP32));
    // Lambda's suite runs 0.64x NVIDIA's own scripts on the A100 (1,582 vs 2,470 images/s): the absolute RTX 4090
    // figure carries the same suite effect (a documented miss, CALIBRATION.md); its ratio to the suite's A100 below
    // tests the GPU model.
    cases.add(cnnTraining("lambda_rn50_rtx4090_fp16", TestGpus.RTX_4090, 448, PrecisionMode.FP16_MIXED)
        .withBound(0.35));
    // Lambda's suite runs ResNet-50 far below NVIDIA's own scripts: its A100 80GB SXM4 figure is 1,582 images/s
    // (pytorch-train-throughput-fp16.csv, same file and column) against DeepLearningExamples' 2,470. The absolute H100
    // figure is a documented miss (CALIBRATION.md); the H100/A100 ratio within the one suite is checked instead.
    cases.add(cnnTraining("lambda_rn50_h100sxm_fp16", TestGpus.H100_SXM, 1280, PrecisionMode.FP16_MIXED)
        .withBound(1.00));
    {
      Task h100 = Task.pretraining(TestModels.RESNET50).microBatch(1280).precision(PrecisionMode.FP16_MIXED)
          .optimizer(Optimizer.SGD_MOMENTUM).build();
      Task a100 = h100.toBuilder().microBatch(256).build();
      cases.add(new Case("lambda_rn50_h100sxm_fp16", "H100 / A100-80GB speed, one suite (A100 1582)",
          value("lambda_rn50_h100sxm_fp16") / LAMBDA_A100_80GB_SXM4_RESNET50,
          () -> ESTIMATOR.estimate(h100, Hardware.single(TestGpus.H100_SXM), Layout.single()).performance()
              .samplesPerSecond()
              / ESTIMATOR.estimate(a100, Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single()).performance()
              .samplesPerSecond(), THROUGHPUT_BOUND));
    }
    // Within Lambda's one suite (the same CSV, same column), each card's speed over its A100 80GB SXM4 figure: what the
    // suite's own overheads do to every card alike cancels, so the ratio tests the GPU model (GeForce, power limits).
    cases.add(lambdaRatio("lambda_rn50_rtx4090_fp16", "RTX 4090 / A100-80GB ResNet-50, one suite (A100 1582)",
        TestGpus.RTX_4090, 1301.0 / LAMBDA_A100_80GB_SXM4_RESNET50, false));
    // The suite's own per-image overhead pulls every ratio towards 1 (its H100 / A100 is 1.65 where the model says
    // 1.86): the slow cards' ratios read high by about as much, hence 30% (CALIBRATION.md).
    cases.add(lambdaRatio("lambda_rn50_rtx3090_fp16", "RTX 3090 / A100-80GB ResNet-50, one suite (A100 1582)",
        TestGpus.RTX_3090, value("lambda_rn50_rtx3090_fp16") / LAMBDA_A100_80GB_SXM4_RESNET50, false)
        .withBound(0.30));
    cases.add(lambdaRatio("lambda_rn50_a10_fp16", "A10 / A100-80GB ResNet-50, one suite (A100 1582)",
        TestGpus.A10, value("lambda_rn50_a10_fp16") / LAMBDA_A100_80GB_SXM4_RESNET50, false).withBound(0.30));
    // Power-limited data-centre boards in the same suite: the A100 at 250 W and the H100 PCIe at 350 W.
    cases.add(lambdaRatio("lambda_rn50_a100pcie40_fp16", "A100 PCIe 250 W / A100-80GB ResNet-50, one suite (A100 1582)",
        TestGpus.A100_PCIE_40GB, value("lambda_rn50_a100pcie40_fp16") / LAMBDA_A100_80GB_SXM4_RESNET50, false));
    cases.add(lambdaRatio("lambda_rn50_h100pcie_fp16", "H100 PCIe 350 W / A100-80GB ResNet-50, one suite (A100 1582)",
        TestGpus.H100_PCIE, value("lambda_rn50_h100pcie_fp16") / LAMBDA_A100_80GB_SXM4_RESNET50, false));
    cases.add(lambdaRatio("lambda_bertL_squad_rtx4090_fp16", "RTX 4090 / A100-80GB BERT-L SQuAD, one suite (A100 152)",
        TestGpus.RTX_4090, value("lambda_bertL_squad_rtx4090_fp16") / LAMBDA_A100_80GB_SXM4_BERT_LARGE_SQUAD, true));
    cases.add(lambdaRatio("lambda_bertL_squad_a10_fp16", "A10 / A100-80GB BERT-L SQuAD, one suite (A100 152)",
        TestGpus.A10, value("lambda_bertL_squad_a10_fp16") / LAMBDA_A100_80GB_SXM4_BERT_LARGE_SQUAD, true));
    // ---- depthwise-separable CNNs (NVIDIA DeepLearningExamples EfficientNet, PyTorch 21.03, NHWC, RMSprop).
    // Batch per GPU is not restated in the README: 256 on the A100 80GB and 128 on the V100 16GB are assumed.
    {
      ModelSpec b0 = io.github.gpusizer.core.model.Presets.get("efficientnet-b0");
      // AMP on the A100: the element-wise work of MBConv blocks (SiLU, squeeze-excitation, batch norm over 6x
      // expanded tensors) runs slower than the streaming rate the model charges: a documented miss (CALIBRATION.md).
      cases.add(cnnTraining("dle_effb0_pyt_1xA100_80_amp", b0, TestGpus.A100_SXM4_80GB, 256,
          PrecisionMode.FP16_MIXED).withBound(0.45));
      cases.add(cnnTraining("dle_effb0_pyt_1xV100_16_amp", b0, TestGpus.V100_SXM2_16GB, 128,
          PrecisionMode.FP16_MIXED));
      cases.add(cnnTraining("dle_effb0_pyt_1xV100_16_fp32", b0, TestGpus.V100_SXM2_16GB, 128, PrecisionMode.FP32));
    }
    {
      // MLPerf v2.1: 35 epochs of ImageNet-1k (1,281,167 images) in 28.69 min wall clock on 8 A100: 26,048 img/s
      // (evaluation and start-up included, so the true training rate is a little higher).
      Task task = Task.pretraining(TestModels.RESNET50).microBatch(408).globalBatch(3264)
          .precision(PrecisionMode.FP16_MIXED).optimizer(Optimizer.SGD_MOMENTUM).build();
      Hardware hw = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
      double minutes = value("mlperf21_rn50_8xA100_80_ttt");
      cases.add(new Case("mlperf21_rn50_8xA100_80_ttt", "images/s, 8 GPUs (35 epochs / time)",
          35 * 1_281_167 / (minutes * 60),
          () -> ESTIMATOR.estimate(task, hw, Layout.dataParallel(8)).performance().samplesPerSecond(),
          THROUGHPUT_BOUND).speed(task, hw, Layout.dataParallel(8)));
    }
    {
      // PyTorch from the NGC container, no TensorRT: eager execution.
      Task task = Task.inference(TestModels.RESNET50).microBatch(64).precision(PrecisionMode.FP16_MIXED)
          .executionMode(ExecutionMode.EAGER).build();
      cases.add(new Case("dle_rn50_pyt_T4_infer_amp_bs64", "images/s per GPU", value("dle_rn50_pyt_T4_infer_amp_bs64"),
          () -> ESTIMATOR.estimate(task, Hardware.single(TestGpus.T4), Layout.single()).performance()
              .samplesPerSecond(), THROUGHPUT_BOUND).speed(task, Hardware.single(TestGpus.T4), Layout.single()));
    }
    // ---- BERT-large
    {
      Task task = Task.pretraining(TestModels.BERT_LARGE_DLE).microBatch(256).globalBatch(8192).sequenceLength(128)
          .precision(PrecisionMode.FP16_MIXED).optimizer(Optimizer.LAMB).flashAttention(false).build();
      cases.add(throughput("dle_bertL_pyt_1xA100_80_amp_seq128", "sequences/s per GPU", task,
          Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single(), THROUGHPUT_BOUND, false));
    }
    {
      Task task = Task.pretraining(TestModels.BERT_LARGE_TF1).microBatch(16).globalBatch(65536).sequenceLength(128)
          .precision(PrecisionMode.FP16_MIXED).optimizer(Optimizer.LAMB).flashAttention(false)
          .executionMode(ExecutionMode.TENSORFLOW_GRAPH).build();
      // TensorFlow 1's automatic mixed precision: +24% with TF1's composed GELU, dropout (a float mask) and LayerNorm
      // counted as element-wise work (+56% before the GELU); the rest is TF1's AMP graph (CALIBRATION.md).
      cases.add(throughput("dle_bertL_tf1_1xV100_16_amp_seq128", "sequences/s per GPU", task,
          Hardware.single(TestGpus.V100_SXM2_16GB), Layout.single(), THROUGHPUT_BOUND, false));
      Task fp32 = task.toBuilder().microBatch(8).precision(PrecisionMode.FP32).build();
      cases.add(throughput("dle_bertL_tf1_1xV100_16_amp_seq128", "sequences/s per GPU, FP32 mbs 8 (notes)", 39.43,
          fp32, Hardware.single(TestGpus.V100_SXM2_16GB), Layout.single(), THROUGHPUT_BOUND, false));
    }
    {
      // SQuAD v1.1 fine-tuning (run_squad.py, BertForQuestionAnswering, AMP, no fused attention in 21.11).
      Task task = Task.fullFineTuning(TestModels.BERT_LARGE).microBatch(32).sequenceLength(384)
          .precision(PrecisionMode.FP16_MIXED).optimizer(Optimizer.ADAMW).flashAttention(false).build();
      cases.add(throughput("dle_bertL_squad_pyt_1xA100_80_amp_seq384", "sequences/s per GPU", task,
          Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single(), THROUGHPUT_BOUND, false));
    }
    {
      Task task = Task.fullFineTuning(TestModels.BERT_LARGE).microBatch(4).sequenceLength(512)
          .precision(PrecisionMode.FP32).optimizer(Optimizer.ADAMW).flashAttention(false).build();
      Hardware hw = Hardware.single(TestGpus.V100_SXM2_16GB);
      cases.add(new Case("hf_bertL_V100_16_fp32_bs4_mem", "nvidia-smi MiB vs total()",
          value("hf_bertL_V100_16_fp32_bs4_mem"),
          () -> ESTIMATOR.memory(task, hw, Layout.single()).perGpu().toMiB(), MEMORY_BOUND)
          .memory(task, hw, Layout.single()));
      // Same row, notes: 8.86 samples/s.
      cases.add(new Case("hf_bertL_V100_16_fp32_bs4_mem", "samples/s per GPU (notes)", 8.86,
          () -> ESTIMATOR.estimate(task, hw, Layout.single()).performance().samplesPerSecond(), THROUGHPUT_BOUND)
          .speed(task, hw, Layout.single()));
    }
    // ---- LLM pre-training
    {
      // Narayanan et al. 2021 use activation recomputation and count its FLOPs: compare hardware TFLOP/s.
      Task task = Task.pretraining(TestModels.GPT_1_7B).microBatch(16).globalBatch(512).sequenceLength(2048)
          .precision(PrecisionMode.FP16_MIXED).optimizer(Optimizer.ADAM).checkpointing(Checkpointing.FULL)
          .attention(io.github.gpusizer.core.task.AttentionKernel.FUSED_SOFTMAX).build(); // FusedScaleMaskSoftmax
      Hardware hw = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 4).withInterNodeGbps(1600);
      Layout layout = new Layout(32, 1, 1, ZeroStage.NONE, 8);
      cases.add(new Case("megatron_gpt1p7b_32xA100", "hardware TFLOP/s per GPU", value("megatron_gpt1p7b_32xA100"),
          () -> ESTIMATOR.estimate(task, hw, layout).performance().hardwareTflopsPerGpu(), THROUGHPUT_BOUND)
          .speed(task, hw, layout));
    }
    {
      Task task = Task.pretraining(TestModels.GPT_7_1B).microBatch(1).globalBatch(192).sequenceLength(4096)
          .precision(PrecisionMode.BF16_MIXED).optimizer(Optimizer.ADAM).build();
      // "IB inter-node", speed not stated: the H100-class default fabric, 8 x 400 Gb/s per node (DGX H100).
      Hardware hw = Hardware.of(TestGpus.H100_SXM, 8, 12);
      Layout layout = new Layout(48, 2, 1, ZeroStage.STAGE_1, 8);
      cases.add(new Case("megatron_gpt7p1b_96xH100", "model TFLOP/s per GPU", value("megatron_gpt7p1b_96xH100"),
          () -> ESTIMATOR.estimate(task, hw, layout).performance().achievedTflopsPerGpu(), THROUGHPUT_BOUND)
          .speed(task, hw, layout));
    }
    {
      // NeMo's long-sequence table, Llama 2 7B in FP8 on DGX H100 with context parallelism (ring attention). Not
      // stated, assumed: Megatron-LM's defaults (no activation recomputation, distributed optimizer = ZeRO-1),
      // micro-batch 1, the page's 4M-token global batch, the H100-class default fabric. TFLOPS/GPU are model FLOPs (attention
      // counted in full), the model's achievedTflopsPerGpu.
      ImmutableList<int[]> table = ImmutableList.of(new int[] {32, 2, 8, 2}, new int[] {128, 4, 8, 4},
          new int[] {1024, 8, 4, 32}); // {sequence in K = GPUs, TP, DP, CP}
      List<DoubleSupplier> predicted = new ArrayList<>();
      Task first = null;
      Hardware firstHw = null;
      Layout firstLayout = null;
      for (int[] r : table) {
        Task task = Task.pretraining(TestModels.LLAMA2_7B).microBatch(1).globalBatch(4096 / r[0])
            .sequenceLength(r[0] * 1024).precision(PrecisionMode.FP8_MIXED).build();
        Hardware hw = Hardware.of(TestGpus.H100_SXM, 8, r[0] / 8);
        Layout layout = new Layout(r[2], r[1], 1, ZeroStage.STAGE_1, 8).withContextParallel(r[3]);
        predicted.add(() -> ESTIMATOR.estimate(task, hw, layout).performance().achievedTflopsPerGpu());
        if (first == null) {
          first = task;
          firstHw = hw;
          firstLayout = layout;
        }
      }
      cases.add(new Case("nemo_llama2_7b_fp8_h100_cp32k", "model TFLOP/s per GPU, 32k tokens, CP 2",
          value("nemo_llama2_7b_fp8_h100_cp32k"), predicted.get(0), THROUGHPUT_BOUND)
          .speed(first, firstHw, firstLayout));
      // the same table's longer sequences over its 32k figure: how throughput holds up as CP grows (a ratio of two
      // predictions, which no band describes)
      cases.add(new Case("nemo_llama2_7b_fp8_h100_cp32k", "128k (CP 4, TP 4) / 32k TFLOP/s (notes)", 555.0 / 610,
          () -> predicted.get(1).getAsDouble() / predicted.get(0).getAsDouble(), THROUGHPUT_BOUND));
      cases.add(new Case("nemo_llama2_7b_fp8_h100_cp32k", "1024k (CP 32, TP 8) / 32k TFLOP/s (notes)", 536.0 / 610,
          () -> predicted.get(2).getAsDouble() / predicted.get(0).getAsDouble(), THROUGHPUT_BOUND));
    }
    {
      Task task = Task.pretraining(TestModels.MPT_7B).microBatch(6).globalBatch(96).sequenceLength(2048)
          .precision(PrecisionMode.BF16_MIXED).framework(Framework.LLM_FOUNDRY).build();
      Layout fsdp = Layout.dataParallel(8).withZero(ZeroStage.STAGE_3);
      cases.add(perGpuTokens("foundry_mpt7b_8xA100_80", task, Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1), fsdp));
      Task h100 = task.toBuilder().globalBatch(48).build();
      cases.add(perGpuTokens("foundry_mpt7b_8xH100_bf16", h100, Hardware.of(TestGpus.H100_SXM, 8, 1), fsdp));
      // the 40 GB card needs activation checkpointing: pure BF16 (Composer's PURE mixed precision), full recomputation
      Task a100_40 = task.toBuilder().microBatch(12).globalBatch(384).precision(PrecisionMode.BF16_PURE)
          .checkpointing(Checkpointing.FULL).build();
      cases.add(perGpuTokens("foundry_mpt7b_8xA100_40_ckpt", a100_40, Hardware.of(TestGpus.A100_SXM4_40GB, 8, 1),
          fsdp));
    }
    {
      // 2.0T tokens in 184,320 A100-80GB hours: 3,014 tokens/s per GPU. Layout not stated; assumed: 1024 GPUs in
      // 128 nodes with the A100-class default fabric (8 x 200 Gb/s InfiniBand, as on a DGX A100; the row states
      // none), FSDP full shard, 4M-token batches of 4096-token sequences. GPU-hours
      // include restarts, evaluation and checkpointing and the GPUs were capped at 350-400 W: a documented miss.
      Task task = Task.pretraining(TestModels.LLAMA2_7B).microBatch(1).globalBatch(1024).sequenceLength(4096)
          .precision(PrecisionMode.BF16_MIXED).build();
      Hardware hw = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 128);
      Layout layout = new Layout(1024, 1, 1, ZeroStage.STAGE_3, 8);
      cases.add(new Case("llama2_7b_gpu_hours", "tokens/s per GPU (2T tokens / GPU-hours)",
          2.0e12 / (value("llama2_7b_gpu_hours") * 3600),
          () -> ESTIMATOR.estimate(task, hw, layout).performance().tokensPerSecond() / layout.gpus(), 0.60)
          .speed(task, hw, layout));
    }
    {
      // IBM's fms-fsdp on 16 nodes of 8 A100s (and 12 of 8 H100s): PyTorch FSDP, HSDP for 7B and 13B, full sharding
      // with every block recomputed for 34B and 70B, as its README's table gives them; sequence 4096, global batch
      // = batch per GPU x GPUs. Assumed: an RDMA fabric at the README's 400 (800) Gb/s per node. fms-fsdp reduces
      // gradients in BF16 where the model reduces them in FP32, which matters only for 13B's exposed exchange.
      Object[][] runs = {
          {"fmsfsdp_llama2_7b_128xA100_hsdp", TestModels.LLAMA2_7B, 2, Checkpointing.NONE, 8},
          {"fmsfsdp_llama2_13b_128xA100_hsdp", TestModels.LLAMA2_13B, 1, Checkpointing.NONE, 8},
          {"fmsfsdp_llama2_34b_128xA100_fsdp", TestModels.LLAMA2_34B, 8, Checkpointing.FULL, 0},
          {"fmsfsdp_llama2_70b_128xA100_fsdp", TestModels.LLAMA2_70B, 6, Checkpointing.FULL, 0},
          {"fmsfsdp_llama2_7b_96xH100_hsdp", TestModels.LLAMA2_7B, 2, Checkpointing.NONE, 8}};
      for (Object[] run : runs) {
        boolean h100 = ((String) run[0]).contains("H100");
        int gpus = h100 ? 96 : 128;
        int microBatch = (Integer) run[2];
        Task task = Task.pretraining((Transformer) run[1]).microBatch(microBatch).globalBatch(microBatch * gpus)
            .sequenceLength(4096).precision(PrecisionMode.BF16_MIXED).checkpointing((Checkpointing) run[3]).build();
        Hardware hw = Hardware.of(h100 ? TestGpus.H100_SXM : TestGpus.A100_SXM4_80GB, 8, gpus / 8)
            .withInterNodeGbps(h100 ? 800 : 400).withInterNodeFabric(io.github.gpusizer.catalog.Fabric.CLUSTER);
        Layout fsdp = new Layout(gpus, 1, 1, ZeroStage.STAGE_3, 8);
        Layout layout = (Integer) run[4] > 0 ? fsdp.withShardGroup((Integer) run[4]) : fsdp; // {.., shard group}
        cases.add(perGpuTokens((String) run[0], task, hw, layout));
      }
    }
    {
      // torchtitan (eager, FSDP2 over 8 GPUs of one host, op-level selective checkpointing) on H100 96GB at 500 W.
      // Its memory monitor logs torch.cuda.max_memory_reserved: compared with total() less the CUDA context.
      Task task = Task.pretraining(TestModels.LLAMA3_8B).microBatch(2).globalBatch(16).sequenceLength(8192)
          .precision(PrecisionMode.BF16_MIXED).optimizer(Optimizer.ADAMW).checkpointing(Checkpointing.SELECTIVE)
          .build();
      Hardware hw = Hardware.of(TestGpus.H100_SXM_96GB, 8, 1);
      Layout fsdp = Layout.dataParallel(8).withZero(ZeroStage.STAGE_3);
      cases.add(new Case("torchtitan_llama31_8b_8xH100_96_sac_mem", "MiB reserved (torch max_memory_reserved)",
          value("torchtitan_llama31_8b_8xH100_96_sac_mem") * 1024,
          () -> (ESTIMATOR.memory(task, hw, fsdp).breakdown().total().bytes() - MemoryModel.CUDA_CONTEXT_BYTES)
              / (double) (1L << 20), MEMORY_BOUND).memory(task, hw, fsdp));
      cases.add(perGpuTokens("torchtitan_llama31_8b_8xH100_96_sac_tps", task, hw, fsdp));
    }
    // ---- fine-tuning memory (torch.cuda.max_memory_allocated, 10^9 bytes)
    Hardware a100x40 = Hardware.single(TestGpus.A100_SXM4_40GB);
    {
      Task mbs1 = Task.lora(TestModels.LLAMA2_7B, 8).microBatch(1).globalBatch(128).sequenceLength(1304).build();
      cases.add(allocated("litgpt_lora_llama2_7b_A100_40_mbs1", "GB allocated, mbs 1",
          value("litgpt_lora_llama2_7b_A100_40_mbs1"), mbs1, a100x40));
      Task mbs2 = mbs1.toBuilder().microBatch(2).build();
      cases.add(allocated("litgpt_lora_llama2_7b_A100_40_mbs1", "GB allocated, mbs 2 (notes)", 29.07, mbs2,
          a100x40));
      Task qlora = Task.qlora(TestModels.LLAMA2_7B, 8).microBatch(1).globalBatch(128).sequenceLength(1304).build();
      cases.add(allocated("litgpt_qlora_llama2_7b_A100_40_mbs1", "GB allocated, nf4-dq (notes)", 13.84, qlora,
          a100x40));
    }
    {
      Task t0 = Task.fullFineTuning(TestModels.T0_3B).microBatch(8).sequenceLength(64)
          .precision(PrecisionMode.FP32).optimizer(Optimizer.ADAMW).flashAttention(false).build();
      // PyTorch 1.13's for-loop AdamW (the table dates from early 2023) had no foreach scratch: a documented +21%.
      cases.add(allocated("peft_t0_3b_full_A100_80", "GB allocated (method not stated)",
          value("peft_t0_3b_full_A100_80"), t0, Hardware.single(TestGpus.A100_SXM4_80GB)).withBound(0.25));
    }
    // ---- inference (LitGPT generate: batch 1, short prompt, 50 new tokens)
    {
      // LitGPT's generate.py without --compile: eager execution.
      Task b7 = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).generatedTokens(50)
          .executionMode(ExecutionMode.EAGER).build();
      cases.add(allocated("litgpt_infer_llama2_7b_bf16_A100_40", "GB allocated, 7B bf16",
          value("litgpt_infer_llama2_7b_bf16_A100_40"), b7, a100x40));
      cases.add(throughput("litgpt_infer_llama2_7b_bf16_A100_40", "tokens/s, 7B bf16 (notes)", 30.97, b7, a100x40,
          Layout.single(), THROUGHPUT_BOUND, true));
      Task b13 = Task.inference(TestModels.LLAMA2_13B).sequenceLength(16).generatedTokens(50)
          .executionMode(ExecutionMode.EAGER).build();
      cases.add(allocated("litgpt_infer_llama2_7b_bf16_A100_40", "GB allocated, 13B bf16 (notes)", 26.21, b13,
          a100x40));
      cases.add(throughput("litgpt_infer_llama2_7b_bf16_A100_40", "tokens/s, 13B bf16 (notes)", 24.82, b13, a100x40,
          Layout.single(), THROUGHPUT_BOUND, true));
    }
    {
      // gpt-fast: torch.compile(mode="reduce-overhead") captures each decode step in a CUDA graph.
      Task compiled = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).generatedTokens(200)
          .executionMode(ExecutionMode.COMPILED).build();
      cases.add(throughput("gptfast_llama2_7b_A100_80_compiled", "tokens/s, 7B bf16 (torch.compile)", compiled,
          Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single(), THROUGHPUT_BOUND, true));
    }
    // ---- serving engines: TensorRT-LLM 0.17's offline throughput, 1,000 prompt and 1,000 output tokens a request
    {
      Transformer llama70b = (Transformer) io.github.gpusizer.core.model.Presets.get("llama-3-70b");
      Gpu l40s = io.github.gpusizer.catalog.Catalog.bundled().gpu("l40s");
      cases.add(served("trtllm017_llama31_8b_H100_fp8_1k1k", TestModels.LLAMA3_8B, true, TestGpus.H100_SXM, 1));
      cases.add(served("trtllm017_llama31_8b_H200_fp8_1k1k", TestModels.LLAMA3_8B, true, TestGpus.H200_SXM, 1));
      cases.add(served("trtllm017_llama31_8b_L40S_fp8_1k1k", TestModels.LLAMA3_8B, true, l40s, 1));
      cases.add(served("trtllm017_llama31_8b_A100_80_fp16_1k1k", TestModels.LLAMA3_8B, false,
          TestGpus.A100_SXM4_80GB, 1));
      cases.add(served("trtllm017_llama31_70b_H200_fp8_1k1k", llama70b, true, TestGpus.H200_SXM, 1));
      cases.add(served("trtllm017_llama31_70b_4xH100_fp8_tp4_1k1k", llama70b, true, TestGpus.H100_SXM, 4));
      cases.add(served("trtllm017_llama31_70b_4xA100_80_fp16_tp4_1k1k", llama70b, false, TestGpus.A100_SXM4_80GB, 4));
    }
    // ---- frameworks' own published decode and training figures (issue #28), each task on its framework
    cases.addAll(frameworkCases());
    // ---- own measurements on an H200 (PyTorch 2.11, synthetic data, random weights)
    Hardware h200 = Hardware.single(TestGpus.H200_SXM);
    {
      Task task = Task.pretraining(TestModels.RESNET50).microBatch(256).precision(PrecisionMode.FP16_MIXED)
          .optimizer(Optimizer.SGD_MOMENTUM).build();
      cases.add(new Case("h200_rn50_amp_bs256_ips", "images/s per GPU", value("h200_rn50_amp_bs256_ips"),
          () -> ESTIMATOR.estimate(task, h200, Layout.single()).performance().samplesPerSecond(), THROUGHPUT_BOUND)
          .speed(task, h200, Layout.single()));
      cases.add(allocated("h200_rn50_amp_bs256_mem", "GB allocated", value("h200_rn50_amp_bs256_mem"), task, h200));
    }
    {
      // Hugging Face GPT-2: a Python tanh-GELU (four extra saved tensors per MLP) and an FP32 residual stream under
      // autocast make it heavier and slower than the kernels the model assumes: documented misses (CALIBRATION.md).
      Transformer gpt2Medium = Transformer.builder("gpt2-medium").layers(24).hidden(1024).heads(16).vocab(50257)
          .maxPositions(1024).tiedEmbeddings(true)
          .activation(io.github.gpusizer.core.model.Activation.COMPOSED_TANH_GELU).build(); // HF "gelu_new"
      Task task = Task.pretraining(gpt2Medium).microBatch(8).sequenceLength(1024)
          .precision(PrecisionMode.BF16_MIXED).build();
      cases.add(new Case("h200_gpt2m_bf16_bs8_tps", "tokens/s per GPU", value("h200_gpt2m_bf16_bs8_tps"),
          () -> ESTIMATOR.estimate(task, h200, Layout.single()).performance().tokensPerSecond(), 1.00)
          .speed(task, h200, Layout.single()));
      cases.add(allocated("h200_gpt2m_bf16_bs8_mem", "GB allocated", value("h200_gpt2m_bf16_bs8_mem"), task, h200)
          .withBound(0.35));
    }
    {
      // Hugging Face generate in eager mode spends ~2.3 ms of host time per layer per token, twice gpt-fast's.
      Task decode = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).generatedTokens(50).build();
      cases.add(throughput("h200_llama2_7b_decode_eager", "tokens/s (HF generate, eager)",
          value("h200_llama2_7b_decode_eager"), decode, h200, Layout.single(), 1.00, true));
      Task lora = Task.lora(TestModels.LLAMA2_7B, 8).microBatch(1).sequenceLength(1024).build();
      cases.add(allocated("h200_llama2_7b_lora_mem", "GB allocated (peft)", value("h200_llama2_7b_lora_mem"), lora,
          h200));
    }
    {
      // core/calibration/measure_gpu.py: Hugging Face models with SDPA attention, fused AdamW, random tokens.
      Transformer tinyLlama = Transformer.builder("tinyllama-1.1b").layers(22).hidden(2048).heads(32).kvHeads(4)
          .ffn(5632).vocab(32000).maxPositions(2048).gatedMlp(true).norm(io.github.gpusizer.core.model.Norm.RMS_NORM)
          .positions(io.github.gpusizer.core.model.Positions.ROTARY).bias(false).build();
      Task plain = Task.pretraining(tinyLlama).microBatch(4).sequenceLength(2048).precision(PrecisionMode.BF16_MIXED)
          .build();
      Task recomputed = plain.toBuilder().checkpointing(Checkpointing.FULL).build();
      cases.add(new Case("h200_tinyllama_bf16_b4_tps", "tokens/s per GPU", value("h200_tinyllama_bf16_b4_tps"),
          () -> ESTIMATOR.estimate(plain, h200, Layout.single()).performance().tokensPerSecond(), THROUGHPUT_BOUND)
          .speed(plain, h200, Layout.single()));
      cases.add(allocated("h200_tinyllama_bf16_b4_mem", "GB allocated", value("h200_tinyllama_bf16_b4_mem"), plain,
          h200));
      cases.add(new Case("h200_tinyllama_bf16_b4_ckpt_tps", "tokens/s per GPU, full recomputation",
          value("h200_tinyllama_bf16_b4_ckpt_tps"),
          () -> ESTIMATOR.estimate(recomputed, h200, Layout.single()).performance().tokensPerSecond(),
          THROUGHPUT_BOUND).speed(recomputed, h200, Layout.single()));
      cases.add(allocated("h200_tinyllama_bf16_b4_ckpt_mem", "GB allocated, full recomputation",
          value("h200_tinyllama_bf16_b4_ckpt_mem"), recomputed, h200));
      Task bert = Task.pretraining(TestModels.BERT_LARGE).microBatch(64).sequenceLength(128)
          .precision(PrecisionMode.BF16_MIXED).build();
      cases.add(throughput("h200_bertL_bf16_b64_s128_sps", "sequences/s per GPU", bert, h200, Layout.single()));
      // BertForPreTraining adds an MLM transform (dense + GELU + LayerNorm over b·s·h) before its logits and keeps
      // dropout masks at every dropout site; neither is in the encoder model: a documented miss (CALIBRATION.md).
      cases.add(allocated("h200_bertL_bf16_b64_s128_mem", "GB allocated", value("h200_bertL_bf16_b64_s128_mem"),
          bert, h200).withBound(0.25));
      Transformer gpt2 = Transformer.builder("gpt2").layers(12).hidden(768).heads(12).vocab(50257)
          .maxPositions(1024).tiedEmbeddings(true)
          .activation(io.github.gpusizer.core.model.Activation.COMPOSED_TANH_GELU).build(); // HF "gelu_new"
      Task gpt2Task = Task.pretraining(gpt2).microBatch(8).sequenceLength(1024).precision(PrecisionMode.BF16_MIXED)
          .build();
      cases.add(new Case("h200_gpt2s_bf16_b8_tps", "tokens/s per GPU", value("h200_gpt2s_bf16_b8_tps"),
          () -> ESTIMATOR.estimate(gpt2Task, h200, Layout.single()).performance().tokensPerSecond(), 1.00)
          .speed(gpt2Task, h200, Layout.single()));
      cases.add(allocated("h200_gpt2s_bf16_b8_mem", "GB allocated", value("h200_gpt2s_bf16_b8_mem"), gpt2Task, h200)
          .withBound(0.35));
      Task lora512 = Task.lora(TestModels.LLAMA2_7B, 8).microBatch(1).sequenceLength(512).build();
      cases.add(allocated("h200_llama2_7b_lora_s512_mem", "GB allocated (peft), sequence 512",
          value("h200_llama2_7b_lora_s512_mem"), lora512, h200));
      // peft wraps every targeted projection in extra eager modules (dropout, two small matmuls, a scaled add): more
      // host time per layer than the default assumes, so short LoRA steps run slower than predicted (CALIBRATION.md).
      Task lora1024 = Task.lora(TestModels.LLAMA2_7B, 8).microBatch(1).sequenceLength(1024).build();
      cases.add(throughput("h200_llama2_7b_lora_s512_tps", "tokens/s (peft, eager), sequence 512",
          value("h200_llama2_7b_lora_s512_tps"), lora512, h200, Layout.single(), 0.60, true));
      cases.add(throughput("h200_llama2_7b_lora_s1024_tps", "tokens/s (peft, eager), sequence 1024",
          value("h200_llama2_7b_lora_s1024_tps"), lora1024, h200, Layout.single(), 0.60, true));
      Task decode16 = Task.inference(TestModels.LLAMA2_7B).microBatch(16).sequenceLength(128).generatedTokens(256)
          .build();
      cases.add(throughput("h200_llama2_7b_decode_b16_eager", "tokens/s, batch 16 (HF generate, eager)",
          value("h200_llama2_7b_decode_b16_eager"), decode16, h200, Layout.single(), 1.00, true));
    }
    return cases;
  }

  /**
   * The framework a row ran on: the task's where it names one, else the row's stack as its source describes it
   * (the estimates of these rows do not depend on the difference: their profiles match the task's settings).
   */
  static Framework frameworkOf(String row, Task task) {
    if (!task.frameworkAssumed()) {
      return task.framework();
    }
    if (row.startsWith("dle_") && row.contains("_tf1_") || row.startsWith("google_bert")) {
      return Framework.TENSORFLOW;
    }
    if (row.startsWith("dle_") || row.startsWith("mlperf21_")) {
      return Framework.NVIDIA_DLE;
    }
    if (row.startsWith("megatron_") || row.startsWith("nemo_")) {
      return Framework.MEGATRON;
    }
    if (row.startsWith("torchtitan_")) {
      return Framework.TORCHTITAN;
    }
    if (row.startsWith("litgpt_")) {
      return Framework.LITGPT;
    }
    if (row.startsWith("gptfast_")) {
      return Framework.GPT_FAST;
    }
    if (row.startsWith("trtllm")) {
      return Framework.TENSORRT_LLM;
    }
    if (row.startsWith("hf_") || row.startsWith("peft_")
        || row.startsWith("h200_") && !row.startsWith("h200_rn50")) {
      return task.kind().isTraining() ? Framework.HF_TRAINER : Framework.HF_GENERATE;
    }
    return task.framework(); // Lambda's suite, Meta's Llama 2, IBM's fms-fsdp, torchvision: plain PyTorch
  }

  /**
   * The source a row comes from, for holding a whole source out: the repository (owner/name) its source column
   * cites first, the page's site and path for web pages, or this project's own H200 measurements.
   */
  static String sourceOf(String row) {
    if (!ROWS.containsKey(row)) {
      return "this project's H200 measurements";
    }
    String source = ROWS.get(row).get("source").strip();
    // a GitHub repository however it is cited: owner/name@commit, "owner/name, path at commit", or a github.com URL
    java.util.regex.Matcher repo = java.util.regex.Pattern
        .compile("github\\.com/([\\w.-]+/[\\w.-]+)|^([\\w.-]+/[\\w.-]+)[@, ]").matcher(source);
    if (repo.find()) {
      return repo.group(1) != null ? repo.group(1) : repo.group(2);
    }
    java.util.regex.Matcher url = java.util.regex.Pattern.compile("https?://([^/\\s]+/[^/\\s]+/[^/\\s]+)")
        .matcher(source);
    if (url.find()) {
      return url.group(1);
    }
    return source.length() <= 48 ? source : source.substring(0, 48);
  }

  /** The rows of issue #28's frameworks: decode at batch 1 per framework and format, serving engines, torchtune. */
  private static List<Case> frameworkCases() {
    List<Case> cases = new ArrayList<>();
    Hardware a100 = Hardware.single(TestGpus.A100_SXM4_80GB);
    Hardware rtx4090 = Hardware.single(TestGpus.RTX_4090);
    io.github.gpusizer.catalog.Catalog bundled = io.github.gpusizer.catalog.Catalog.bundled();
    Hardware a6000 = Hardware.single(bundled.gpu("rtx-a6000"));
    // gpt-fast (torch.compile, CUDA graphs): 5-token prompt, 200 new tokens, batch 1. Its INT8 and INT4 shares of
    // bandwidth (Framework.GPT_FAST) were set from these very rows: held out, the model predicts them at share 1.
    Task gptFast = Task.inference(TestModels.LLAMA2_7B).sequenceLength(5).generatedTokens(200)
        .framework(Framework.GPT_FAST).build();
    cases.add(throughput("gptfast-l2-7b-bf16", "tokens/s, batch 1, bf16", value("gptfast-l2-7b-bf16"), gptFast, a100,
        Layout.single(), THROUGHPUT_BOUND, true));
    cases.add(throughput("gptfast-l2-7b-int8", "tokens/s, batch 1, int8", value("gptfast-l2-7b-int8"),
        gptFast.toBuilder().quantization(WeightQuantization.INT8).build(), a100, Layout.single(), THROUGHPUT_BOUND,
        true).withFittedFactor(quantizedFactor(Framework.GPT_FAST, WeightQuantization.INT8)));
    cases.add(throughput("gptfast-l2-7b-int4", "tokens/s, batch 1, int4 (group 32)", value("gptfast-l2-7b-int4"),
        gptFast.toBuilder().quantization(WeightQuantization.INT4).build(), a100, Layout.single(), THROUGHPUT_BOUND,
        true).withFittedFactor(quantizedFactor(Framework.GPT_FAST, WeightQuantization.INT4)));
    // llama.cpp llama-bench tg128 (no prompt): F16, Q8_0 and Q4_0; the Q8_0 and Q4_0 shares come from these rows
    Task llamaCpp = Task.inference(TestModels.LLAMA2_7B).sequenceLength(1).generatedTokens(128)
        .precision(PrecisionMode.FP16_MIXED).framework(Framework.LLAMA_CPP).build();
    cases.add(throughput("llamacpp-cl7b-f16-4090", "tokens/s, tg128, F16", value("llamacpp-cl7b-f16-4090"), llamaCpp,
        rtx4090, Layout.single(), THROUGHPUT_BOUND, true));
    cases.add(throughput("llamacpp-cl7b-q8_0-4090", "tokens/s, tg128, Q8_0", value("llamacpp-cl7b-q8_0-4090"),
        llamaCpp.toBuilder().quantization(WeightQuantization.INT8).build(), rtx4090, Layout.single(),
        THROUGHPUT_BOUND, true).withFittedFactor(quantizedFactor(Framework.LLAMA_CPP, WeightQuantization.INT8)));
    cases.add(throughput("llamacpp-l7b-q4_0-3090ti", "tokens/s, tg128, Q4_0", value("llamacpp-l7b-q4_0-3090ti"),
        llamaCpp.toBuilder().quantization(WeightQuantization.INT4).build(), Hardware.single(TestGpus.RTX_3090_TI),
        Layout.single(), THROUGHPUT_BOUND, true).withFittedFactor(quantizedFactor(Framework.LLAMA_CPP, WeightQuantization.INT4)));
    // TinyChat's Hugging Face FP16 baseline: per-token latency after a prompt of over 500 tokens. The host's speed
    // decides eager decoding here (CALIBRATION.md): the model's 1.22 ms a layer reads these fast desktop hosts slow.
    Task hf = Task.inference(TestModels.LLAMA2_7B).sequenceLength(512).generatedTokens(200)
        .precision(PrecisionMode.FP16_MIXED).framework(Framework.HF_GENERATE).build();
    cases.add(throughput("hf-l2-7b-fp16-4090", "tokens/s, batch 1 (1000 / ms a token)",
        1000 / value("hf-l2-7b-fp16-4090"), hf, rtx4090, Layout.single(), 0.70, true));
    cases.add(throughput("hf-l2-7b-fp16-a6000", "tokens/s, batch 1 (1000 / ms a token)",
        1000 / value("hf-l2-7b-fp16-a6000"), hf, a6000, Layout.single(), 0.50, true));
    // ExLlamaV2 (GPTQ 4-bit) and MLC-LLM (q4f16_1) on an RTX 4090, short prompts
    Task exl2 = Task.inference(TestModels.LLAMA2_7B).sequenceLength(4).generatedTokens(128)
        .precision(PrecisionMode.FP16_MIXED).quantization(WeightQuantization.INT4).framework(Framework.EXLLAMAV2)
        .build();
    cases.add(throughput("exl2-llama-7b-gptq-4090", "tokens/s, batch 1, GPTQ 4-bit", value("exl2-llama-7b-gptq-4090"),
        exl2, rtx4090, Layout.single(), THROUGHPUT_BOUND, true)
        .withFittedFactor(quantizedFactor(Framework.EXLLAMAV2, WeightQuantization.INT4)));
    Task mlc = Task.inference(TestModels.LLAMA2_7B).sequenceLength(8).generatedTokens(256)
        .precision(PrecisionMode.FP16_MIXED).quantization(WeightQuantization.INT4).framework(Framework.MLC_LLM)
        .build();
    cases.add(throughput("mlc-l2-7b-q4f16-4090", "tokens/s, batch 1, q4f16_1", value("mlc-l2-7b-q4f16-4090"), mlc,
        rtx4090, Layout.single(), THROUGHPUT_BOUND, true)
        .withFittedFactor(quantizedFactor(Framework.MLC_LLM, WeightQuantization.INT4)));
    // TensorRT-LLM 0.6.1, LLaMA-7B, 128 in / 128 out at its tabled batch: FP16 on an A100, FP8 on an H100
    Task trt = Task.inference(TestModels.LLAMA2_7B).microBatch(384).sequenceLength(128).generatedTokens(128)
        .precision(PrecisionMode.FP16_MIXED).framework(Framework.TENSORRT_LLM).build();
    cases.add(throughput("trtllm-l7b-a100-fp16-thr", "output tokens/s, batch 384", value("trtllm-l7b-a100-fp16-thr"),
        trt, a100, Layout.single(), THROUGHPUT_BOUND, true));
    Task trtFp8 = trt.toBuilder().microBatch(768).precision(PrecisionMode.FP8_MIXED)
        .kvCache(io.github.gpusizer.catalog.Precision.FP8).build();
    cases.add(throughput("trtllm-l7b-h100-fp8-thr", "output tokens/s, batch 768, FP8", value("trtllm-l7b-h100-fp8-thr"),
        trtFp8, Hardware.single(TestGpus.H100_SXM), Layout.single(), THROUGHPUT_BOUND, true));
    // vLLM on 8 MI300X: Llama 3.1 405B in FP8 at TP 8, one request of 128 in and 128 out
    {
      Task task = Task.inference(io.github.gpusizer.core.model.Presets.get("llama-3.1-405b")).sequenceLength(128)
          .generatedTokens(128).precision(PrecisionMode.FP8_MIXED).framework(Framework.VLLM).build();
      Hardware hw = Hardware.of(bundled.gpu("mi300x"), 8, 1);
      Layout tp8 = new Layout(1, 8, 1, ZeroStage.NONE, 8);
      // ROCm's kernels reach less of the MI300X's 5.3 TB/s than the HBM efficiency the model takes from NVIDIA's
      // parts, and 8-way all-reduces of one token per layer add latency: a documented miss (CALIBRATION.md)
      cases.add(new Case("vllm-l31-405b-fp8-8xmi300x-bs1", "output tokens/s, batch 1, TP 8",
          value("vllm-l31-405b-fp8-8xmi300x-bs1"),
          () -> ESTIMATOR.estimate(task, hw, tp8).performance().tokensPerSecond(), 1.00).speed(task, hw, tp8));
    }
    // torchtune: batch 2, packed 2,048-token sequences, torch.compile, activation checkpointing, pure BF16
    {
      Task full = Task.fullFineTuning(TestModels.LLAMA3_8B).microBatch(2).sequenceLength(2048)
          .optimizer(Optimizer.ADAM_8BIT).executionMode(ExecutionMode.COMPILED).framework(Framework.TORCHTUNE)
          .build();
      cases.add(throughput("torchtune-l31-8b-full-4090-tps", "tokens/s, full fine-tuning (8-bit AdamW)",
          value("torchtune-l31-8b-full-4090-tps"), full, rtx4090, Layout.single(), THROUGHPUT_BOUND, true));
      // Not a case: torchtune's LoRA figure on an RTX A6000 (4,699 tokens/s, the same README) implies 150 TFLOP/s of
      // LoRA work without recomputation, 97% of the card's dense FP16 peak: a set-up the README does not state.
    }
    return cases;
  }

  /**
   * A quantised decode's rate is proportional to the bandwidth share its kernels reach: held out with its source, the
   * framework's share is the median of the other sources' ({@code QuantizedDecode.shareWithout}), so the prediction
   * falls by the ratio of the two.
   */
  private static double quantizedFactor(Framework framework, WeightQuantization format) {
    String source = io.github.gpusizer.core.task.QuantizedDecode.MEASURED.stream()
        .filter(m -> m.framework() == framework && m.format() == format).map(m -> m.source()).findFirst()
        .orElseThrow();
    return framework.profile().bandwidthShare(format)
        / io.github.gpusizer.core.task.QuantizedDecode.shareWithout(format, source);
  }

  private static Case cnnTraining(String row, Gpu gpu, int batch, PrecisionMode precision) {
    return cnnTraining(row, TestModels.RESNET50, gpu, batch, precision);
  }

  /**
   * A card's speed over the A100 80GB SXM4's within Lambda's suite: ResNet-50 training (AMP, micro-batch 256 on
   * both, which leaves every kernel large) or BERT-large SQuAD fine-tuning (AMP, sequence 384, micro-batch 16 on both,
   * which fits a 24 GB card; Lambda's own batch sizes differ per card, the ratio hardly depends on them).
   */
  private static Case lambdaRatio(String row, String quantity, Gpu gpu, double measured, boolean bert) {
    Task task = bert
        ? Task.fullFineTuning(TestModels.BERT_LARGE).microBatch(16).sequenceLength(384)
            .precision(PrecisionMode.FP16_MIXED).optimizer(Optimizer.ADAMW).flashAttention(false).build()
        : Task.pretraining(TestModels.RESNET50).microBatch(256).precision(PrecisionMode.FP16_MIXED)
            .optimizer(Optimizer.SGD_MOMENTUM).build();
    return new Case(row, quantity, measured,
        () -> ESTIMATOR.estimate(task, Hardware.single(gpu), Layout.single()).performance().samplesPerSecond()
            / ESTIMATOR.estimate(task, Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single()).performance()
            .samplesPerSecond(), THROUGHPUT_BOUND);
  }

  private static Case cnnTraining(String row, ModelSpec model, Gpu gpu, int batch, PrecisionMode precision) {
    Task task = Task.pretraining(model).microBatch(batch).precision(precision)
        .optimizer(Optimizer.SGD_MOMENTUM).build();
    return new Case(row, "images/s per GPU", value(row),
        () -> ESTIMATOR.estimate(task, Hardware.single(gpu), Layout.single()).performance().samplesPerSecond(),
        THROUGHPUT_BOUND).speed(task, Hardware.single(gpu), Layout.single());
  }

  private static Case throughput(String row, String quantity, Task task, Hardware hw, Layout layout) {
    return throughput(row, quantity, task, hw, layout, THROUGHPUT_BOUND, false);
  }

  private static Case throughput(String row, String quantity, double measured, Task task, Hardware hw,
                                 Layout layout, double bound, boolean tokens) {
    return new Case(row, quantity, measured, () -> {
      PerformanceEstimate p = ESTIMATOR.estimate(task, hw, layout).performance();
      return (tokens ? p.tokensPerSecond() : p.samplesPerSecond()) / layout.gpus();
    }, bound).speed(task, hw, layout);
  }

  private static Case throughput(String row, String quantity, Task task, Hardware hw, Layout layout, double bound,
                                 boolean tokens) {
    return throughput(row, quantity, value(row), task, hw, layout, bound, tokens);
  }

  /**
   * A serving engine's offline throughput of 1,000-token prompts answered with 1,000 tokens, in output tokens/s over
   * the tensor-parallel group: at the batch the sizer would run, the most sequences (up to vLLM's 256) that surely
   * fit beside the weights ({@code LayoutSearch.SERVING_ENGINE_SEQUENCES}); FP8 weights with an FP8 KV cache, or FP16.
   */
  private static Case served(String row, Transformer model, boolean fp8, Gpu gpu, int tp) {
    Task.Builder b = Task.inference(model).sequenceLength(1000).generatedTokens(1000)
        .executionMode(ExecutionMode.SERVING_ENGINE)
        .precision(fp8 ? PrecisionMode.FP8_MIXED : PrecisionMode.FP16_MIXED);
    if (fp8) {
      b.kvCache(io.github.gpusizer.catalog.Precision.FP8);
    }
    Task open = b.build();
    Hardware hw = Hardware.of(gpu, tp, 1);
    Layout layout = new Layout(1, tp, 1, ZeroStage.NONE, tp);
    int lo = 1;
    int hi = 256;
    while (lo < hi) { // the largest batch whose memory surely fits: memory grows with the batch
      int mid = (lo + hi + 1) / 2;
      if (ESTIMATOR.memory(open.toBuilder().microBatch(mid).build(), hw, layout).fit() == Fit.FITS) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    Task task = open.toBuilder().microBatch(lo).build();
    return new Case(row, "output tokens/s, batch " + lo + ", TP " + tp, value(row),
        () -> ESTIMATOR.estimate(task, hw, layout).performance().tokensPerSecond(), THROUGHPUT_BOUND)
        .speed(task, hw, layout);
  }

  private static Case perGpuTokens(String row, Task task, Hardware hw, Layout layout) {
    return new Case(row, "tokens/s per GPU", value(row),
        () -> ESTIMATOR.estimate(task, hw, layout).performance().tokensPerSecond() / layout.gpus(),
        THROUGHPUT_BOUND).speed(task, hw, layout);
  }

  private static Case allocated(String row, String quantity, double measuredGB, Task task, Hardware hw) {
    return new Case(row, quantity, measuredGB,
        () -> ESTIMATOR.memory(task, hw, Layout.single()).breakdown().allocated().toGB(), MEMORY_BOUND)
        .memory(task, hw, Layout.single());
  }

  /** The leading number of a row's value column. */
  static double value(String row) {
    ImmutableMap<String, String> columns = ROWS.containsKey(row) ? ROWS.get(row) : OWN.get(row);
    assertThat(columns).as("row %s in calibration.tsv", row).isNotNull();
    String text = columns.get("value").trim();
    int end = 0;
    while (end < text.length() && (Character.isDigit(text.charAt(end)) || text.charAt(end) == '.')) {
      end++;
    }
    return Double.parseDouble(text.substring(0, end));
  }

  private static ImmutableMap<String, ImmutableMap<String, String>> load(String resource) {
    try {
      List<String> lines = Resources.readLines(Resources.getResource(resource), StandardCharsets.UTF_8);
      Splitter tab = Splitter.on('\t');
      List<String> header = tab.splitToList(lines.get(0));
      ImmutableMap.Builder<String, ImmutableMap<String, String>> rows = ImmutableMap.builder();
      for (String line : lines.subList(1, lines.size())) {
        if (line.isBlank()) {
          continue;
        }
        List<String> cells = tab.splitToList(line);
        assertThat(cells).as("columns of %s", line).hasSameSizeAs(header);
        ImmutableMap.Builder<String, String> row = ImmutableMap.builder();
        for (int i = 0; i < header.size(); i++) {
          row.put(header.get(i), cells.get(i));
        }
        ImmutableMap<String, String> built = row.build();
        assertThat(built.get("source")).as("source of %s", built.get("id")).isNotBlank();
        rows.put(built.get("id"), built);
      }
      return rows.build();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
  }

  static ImmutableList<String> ids() {
    return ROWS.keySet().asList();
  }
}
