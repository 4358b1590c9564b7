package io.github.gpusizer.examples.support;

import com.google.common.collect.ImmutableMap;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.core.Objective;
import io.github.gpusizer.core.model.Dropout;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.task.AttentionKernel;
import io.github.gpusizer.core.task.LossKernel;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Framework;
import io.github.gpusizer.core.task.LoraTarget;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.TaskKind;
import io.github.gpusizer.core.task.WeightQuantization;

/**
 * The words the examples accept for the library's closed sets, one table each, named by the command-line option;
 * the HTTP service's request fields take the same words and name the field instead ({@link Choices#get(String,
 * String)}).
 *
 * <pre>{@code
 * TaskKind kind = Words.TASKS.get("lora");                       // TaskKind.LORA
 * Task.Builder b = Words.taskBuilder(kind, Presets.get("llama-2-7b"), Words.DEFAULT_LORA_RANK);
 * }</pre>
 */
public final class Words {
  public static final Choices<TaskKind> TASKS = Choices.of("--task", ImmutableMap.of(
      "train", TaskKind.PRETRAINING, "finetune", TaskKind.FULL_FINE_TUNING, "lora", TaskKind.LORA,
      "qlora", TaskKind.QLORA, "infer", TaskKind.INFERENCE));
  public static final Choices<PrecisionMode> PRECISIONS = Choices.of("--precision", ImmutableMap.of(
      "fp32", PrecisionMode.FP32, "tf32", PrecisionMode.TF32, "fp16", PrecisionMode.FP16_MIXED,
      "bf16", PrecisionMode.BF16_MIXED, "bf16-pure", PrecisionMode.BF16_PURE, "fp8", PrecisionMode.FP8_MIXED));
  public static final Choices<Optimizer> OPTIMIZERS = Choices.of("--optimizer",
      ImmutableMap.<String, Optimizer>builder()
          .put("sgd", Optimizer.SGD).put("sgd-momentum", Optimizer.SGD_MOMENTUM).put("adam", Optimizer.ADAM)
          .put("adamw", Optimizer.ADAMW).put("adam-8bit", Optimizer.ADAM_8BIT).put("adamw-8bit", Optimizer.ADAM_8BIT)
          .put("adafactor", Optimizer.ADAFACTOR).put("lamb", Optimizer.LAMB).put("rmsprop", Optimizer.RMSPROP)
          .build());
  public static final Choices<Checkpointing> CHECKPOINTING = Choices.of("--checkpointing", ImmutableMap.of(
      "none", Checkpointing.NONE, "selective", Checkpointing.SELECTIVE, "full", Checkpointing.FULL));
  /** Weight quantisation of a task ({@code --quant}). */
  public static final Choices<WeightQuantization> QUANT = Choices.of("--quant", ImmutableMap.of(
      "none", WeightQuantization.NONE, "int8", WeightQuantization.INT8, "int4", WeightQuantization.INT4,
      "nf4", WeightQuantization.NF4));
  /** Weight quantisation of a served model ({@code serve --quantization}): FP8 too. */
  public static final Choices<WeightQuantization> SERVING_QUANT = Choices.of("--quantization", ImmutableMap.of(
      "none", WeightQuantization.NONE, "int8", WeightQuantization.INT8, "int4", WeightQuantization.INT4,
      "fp8", WeightQuantization.FP8, "nf4", WeightQuantization.NF4));
  public static final Choices<Precision> KV_TYPES = Choices.of("--kv-dtype", ImmutableMap.of(
      "bf16", Precision.BF16, "fp16", Precision.FP16, "fp8", Precision.FP8, "fp32", Precision.FP32));
  public static final Choices<LoraTarget> LORA_TARGETS = Choices.of("--lora-targets", ImmutableMap.of(
      "q", LoraTarget.Q, "k", LoraTarget.K, "v", LoraTarget.V, "o", LoraTarget.O, "mlp", LoraTarget.MLP));
  /** Every {@link Framework} by its id ({@code pytorch}, {@code hf-trainer}, {@code vllm}, {@code llama.cpp}). */
  public static final Choices<Framework> FRAMEWORKS = Choices.of("--framework",
      java.util.Arrays.stream(Framework.values()).collect(ImmutableMap.toImmutableMap(Framework::id, f -> f)));
  public static final Choices<ExecutionMode> ENGINES = Choices.of("--engine", ImmutableMap.of(
      "eager", ExecutionMode.EAGER, "compiled", ExecutionMode.COMPILED, "serving", ExecutionMode.SERVING_ENGINE,
      "tensorflow", ExecutionMode.TENSORFLOW_GRAPH));
  public static final Choices<Boolean> ON_OFF = Choices.of("--flash-attention", ImmutableMap.of("on", true,
      "off", false));
  public static final Choices<AttentionKernel> ATTENTION = Choices.of("--attention", ImmutableMap.of(
      "flash", AttentionKernel.FLASH, "fused-softmax", AttentionKernel.FUSED_SOFTMAX, "eager", AttentionKernel.EAGER));
  public static final Choices<LossKernel> LOSSES = Choices.of("--loss", ImmutableMap.of(
      "materialized", LossKernel.MATERIALIZED, "chunked", LossKernel.CHUNKED, "fused", LossKernel.FUSED));
  public static final Choices<Dropout> DROPOUT = Choices.of("--dropout", ImmutableMap.of(
      "pytorch", Dropout.FUSED_MASK, "tensorflow", Dropout.SCALED_FLOAT_MASK));
  public static final Choices<Objective> OBJECTIVES = Choices.of("--objective", ImmutableMap.of(
      "cheapest", Objective.CHEAPEST, "fastest", Objective.FASTEST, "value", Objective.BEST_VALUE));
  /** PEFT's {@code LoraConfig} default rank (huggingface/peft, src/peft/tuners/lora/config.py: {@code r: int = 8}). */
  public static final int DEFAULT_LORA_RANK = 8;

  private Words() {}

  /** The builder of a task of this kind; {@code loraRank} is used by LoRA and QLoRA only. */
  public static Task.Builder taskBuilder(TaskKind kind, ModelSpec model, int loraRank) {
    switch (kind) {
      case PRETRAINING:
        return Task.pretraining(model);
      case FULL_FINE_TUNING:
        return Task.fullFineTuning(model);
      case LORA:
        return Task.lora(model, loraRank);
      case QLORA:
        return Task.qlora(model, loraRank);
      default:
        return Task.inference(model);
    }
  }
}
