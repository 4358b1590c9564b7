package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.TaskKind;
import io.github.gpusizer.core.task.WeightQuantization;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

/**
 * Fuzzes the sizer's inputs: a {@link Task} built from fuzzed numbers and enums, and a {@link GpuSizer} with fuzzed
 * constraints. The contract: a bad number fails its setter or {@code build()} at once with an
 * {@link IllegalArgumentException} that has a message; {@code recommend()} on inputs that passed those checks
 * either returns a recommendation whose options all fit and meet the constraints, or throws the
 * {@link IllegalStateException} its documentation lists; never an {@code IllegalArgumentException} from deep
 * inside, an {@code ArithmeticException}, a {@code NullPointerException} or an index error.
 *
 * <p>Without {@code JAZZER_FUZZ} the seeds in {@code SizerFuzzTestInputs/sizerInputs/} run as regression tests.
 */
class SizerFuzzTest {
  /** A small catalog (AWS and AIStudio test offerings), so that each input is sized in milliseconds. */
  private static final Catalog CATALOG = Fixtures.aws().merge(Fixtures.aistudio());
  private static final List<String> MODELS = List.of("gpt2", "llama-2-7b", "resnet-50", "bert-base", "mixtral-8x7b");
  private static final List<String> CURRENCIES = List.of("USD", "CNY", "EUR", "JPY", "XXX", "usd", "ABC", "");

  @FuzzTest(maxDuration = "2m")
  void sizerInputs(FuzzedDataProvider in) {
    ModelSpec model = Presets.get(in.pickValue(MODELS));
    TaskKind kind = in.pickValue(TaskKind.values());
    Task.Builder b = switch (kind) {
      case PRETRAINING -> Task.pretraining(model);
      case FULL_FINE_TUNING -> Task.fullFineTuning(model);
      case LORA -> Task.lora(model, in.consumeInt());
      case QLORA -> Task.qlora(model, in.consumeInt());
      case INFERENCE -> Task.inference(model);
    };
    if (in.consumeBoolean()) {
      b.tokens(in.consumeDouble());
    } else {
      b.samples(in.consumeDouble()).epochs(in.consumeDouble());
    }
    Task task;
    Sizer sizer;
    try {
      b.microBatch(in.consumeInt()).globalBatch(in.consumeInt()).sequenceLength(in.consumeInt())
          .imageSize(in.consumeInt()).precision(in.pickValue(PrecisionMode.values()))
          .optimizer(in.pickValue(Optimizer.values())).checkpointing(in.pickValue(Checkpointing.values()))
          .flashAttention(in.consumeBoolean()).quantization(in.pickValue(WeightQuantization.values()))
          .generatedTokens(in.consumeInt());
      boolean dataset = in.consumeBoolean();
      long datasetBytes = in.consumeLong();
      if (in.consumeBoolean()) {
        b.cpuMsPerSample(in.consumeDouble());
      }
      if (dataset) {
        b.datasetSize(DataSize.ofBytes(datasetBytes));
      }
      task = b.build();
      sizer = GpuSizer.forTask(task);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotBlank();
      return;
    }
    sizer.catalog(CATALOG);
    set(in, () -> sizer.deadline(Duration.ofSeconds(in.consumeLong())));
    set(in, () -> sizer.budget(Money.of(BigDecimal.valueOf(in.consumeLong(), in.consumeInt(-6, 6)),
        Money.currency(in.pickValue(CURRENCIES)))));
    // Bounded: recommend() tries every instance count up to the bound, so its time grows with it (the setters reject
    // more than GpuSizer.MAX_CLUSTER_GPUS; SizerHostileInputTest covers those).
    set(in, () -> sizer.maxGpus(in.consumeInt(-1, 1024)));
    set(in, () -> sizer.maxNodes(in.consumeInt(-1, 256)));
    set(in, () -> sizer.objective(in.pickValue(Objective.values())));
    set(in, () -> sizer.bestValueFactor(in.consumeDouble()));
    set(in, () -> sizer.minHeadroom(in.consumeDouble()));
    set(in, () -> sizer.currency(in.pickValue(CURRENCIES)));
    set(in, () -> sizer.cudaVersion(in.consumeString(8)));
    set(in, () -> sizer.runs(in.consumeInt()));
    set(in, sizer::allowSpot);

    Recommendation rec;
    try {
      rec = sizer.recommend();
    } catch (IllegalStateException e) {
      assertThat(e.getMessage()).isNotBlank();
      return;
    }
    for (Option o : rec.options()) {
      assertThat(o.memory().fits()).as("%s", o).isTrue();
      assertThat(o.cost().isNegative()).as("%s", o).isFalse();
      assertThat(o.gpus()).isPositive();
    }
    assertThat(rec.isFeasible() || rec.suggestion().isPresent() || !rec.rejected().isEmpty()).isTrue();
  }

  /** Applies a setting if the input says so; a setter may reject its value, with a message. */
  private static void set(FuzzedDataProvider in, Runnable setter) {
    if (!in.consumeBoolean()) {
      return;
    }
    try {
      setter.run();
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
  }
}
