package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.AttentionKernel;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Framework;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.LossKernel;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.TaskKind;
import io.github.gpusizer.core.task.WeightQuantization;
import java.util.Arrays;
import java.util.List;
import org.quicktheories.core.Gen;
import org.junit.jupiter.api.Test;

/** What a framework may and may not do to an estimate. */
class FrameworkProperties {
  private static final Estimator ESTIMATOR = Estimator.defaults();
  private static final List<Hardware> GPUS = List.of(Hardware.single(TestGpus.A100_SXM4_80GB),
      Hardware.single(TestGpus.H100_SXM), Hardware.single(TestGpus.RTX_4090), Hardware.single(TestGpus.T4));

  private static Gen<Framework> frameworks(Framework.Use use) {
    List<Framework> some = Arrays.stream(Framework.values()).filter(f -> f.use() == use).toList();
    return integers().between(0, some.size() - 1).map(some::get);
  }

  private static Gen<Transformer> llamas() {
    return integers().between(2, 40).zip(integers().between(4, 40), (layers, heads) -> Transformer
        .builder("llama-" + layers + "x" + heads).layers(layers).hidden(128 * heads).heads(heads).kvHeads(heads)
        .ffn(344 * heads).gatedMlp(true).vocab(32000).maxPositions(4096).build());
  }

  @Test
  void an_explicit_setting_always_beats_the_profile() {
    List<ExecutionMode> trainingModes = List.of(ExecutionMode.EAGER, ExecutionMode.COMPILED,
        ExecutionMode.TENSORFLOW_GRAPH);
    qt().forAll(frameworks(Framework.Use.TRAINING), integers().between(0, 2), integers().between(0, 2),
        integers().between(0, 2)).checkAssert((f, mode, attention, loss) -> {
          Task task = Task.lora(TestModels.LLAMA2_7B, 8).framework(f).executionMode(trainingModes.get(mode))
              .attention(AttentionKernel.values()[attention]).loss(LossKernel.values()[loss])
              .checkpointing(Checkpointing.SELECTIVE).build();
          assertThat(task.executionMode()).isEqualTo(trainingModes.get(mode));
          assertThat(task.attention()).isEqualTo(AttentionKernel.values()[attention]);
          assertThat(task.loss()).isEqualTo(LossKernel.values()[loss]);
          assertThat(task.checkpointing()).isEqualTo(Checkpointing.SELECTIVE);
        });
  }

  @Test
  void a_compiled_or_serving_engine_is_never_slower_than_eager_for_the_same_work() {
    qt().forAll(llamas(), integers().between(1, 64), integers().between(1, 2048), integers().between(0, 3))
        .checkAssert((model, batch, prompt, gpu) -> {
          Task eager = Task.inference(model).microBatch(batch).sequenceLength(prompt).generatedTokens(64)
              .framework(Framework.HF_GENERATE).build().forGpu(GPUS.get(gpu).gpu());
          double eagerSeconds = seconds(eager, GPUS.get(gpu));
          for (Framework engine : List.of(Framework.GPT_FAST, Framework.VLLM, Framework.TENSORRT_LLM,
              Framework.EXLLAMAV2, Framework.LLAMA_CPP)) {
            Task same = eager.toBuilder().framework(engine).build().forGpu(GPUS.get(gpu).gpu());
            if (ESTIMATOR.memory(same, GPUS.get(gpu), Layout.single()).fits()) {
              assertThat(seconds(same, GPUS.get(gpu))).as(engine.id()).isLessThanOrEqualTo(eagerSeconds * (1 + 1e-9));
            }
          }
        });
  }

  @Test
  void quantised_decode_never_beats_the_bandwidth_bound_of_its_bytes() {
    qt().forAll(llamas(), frameworks(Framework.Use.INFERENCE), integers().between(0, 3), integers().between(1, 3))
        .checkAssert((model, f, gpu, q) -> {
          WeightQuantization quantization = WeightQuantization.values()[q]; // INT8, INT4, NF4
          Hardware hw = GPUS.get(gpu);
          Task task = Task.inference(model).microBatch(1).sequenceLength(16).generatedTokens(128).framework(f)
              .quantization(quantization).build().forGpu(hw.gpu());
          double seconds = seconds(task, hw);
          // every stored weight is read once a token, but for the input embedding's table, of which a token reads a row
          double weightBytes = ESTIMATOR.memory(task, hw, Layout.single()).breakdown().weights().bytes()
              - 2.0 * model.vocab() * model.hidden();
          double boundSeconds = 128 * weightBytes / (hw.gpu().memoryBandwidthGBps() * 1e9);
          assertThat(seconds).as(f.id() + " " + quantization).isGreaterThanOrEqualTo(boundSeconds);
        });
  }

  @Test
  void reducing_gradients_in_16_bits_never_slows_a_multi_node_step() {
    qt().forAll(llamas(), integers().between(2, 16)).checkAssert((model, nodes) -> {
      Hardware hw = Hardware.of(TestGpus.A100_SXM4_80GB, 8, nodes);
      Layout layout = Layout.dataParallel(8 * nodes);
      Task fp32 = Task.pretraining(model).microBatch(1).sequenceLength(2048).framework(Framework.PYTORCH).build();
      Task bf16 = fp32.toBuilder().framework(Framework.DEEPSPEED).build();
      if (ESTIMATOR.memory(fp32, hw, layout).fits()) {
        assertThat(ESTIMATOR.estimate(bf16, hw, layout).performance().stepTime())
            .isLessThanOrEqualTo(ESTIMATOR.estimate(fp32, hw, layout).performance().stepTime());
      }
    });
  }

  private static double seconds(Task task, Hardware hw) {
    return ESTIMATOR.estimate(task, hw, Layout.single()).performance().stepTime().toNanos() / 1e9;
  }

  static {
    // the generator above indexes WeightQuantization by position: INT8, INT4, NF4 follow NONE
    assertThat(WeightQuantization.values()[1]).isEqualTo(WeightQuantization.INT8);
    assertThat(TaskKind.INFERENCE.isTraining()).isFalse();
  }
}
