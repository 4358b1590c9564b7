package io.github.gpusizer.core.estimate;

import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.LoraTarget;
import io.github.gpusizer.core.task.Task;
import java.util.Set;

/**
 * What a task's model and adapters fix for every estimate of it: parameter counts and the LoRA adapters' widths. A
 * transformer counts its parameters from its dimensions on every call, and a layout search makes thousands of
 * estimates of one task, so {@link Estimator} works these out once per task (model, kind, rank and targets) and
 * hands them to each {@link Job}. Immutable.
 */
final class ModelFacts {
  private final ModelSpec model;
  private final boolean adapter;
  private final int loraRank;
  private final Set<LoraTarget> loraTargets;
  /** {@code model.parameters()}. */
  final double parameters;
  /** {@link Transformer#matmulParameters()} of a transformer; 0 for other models. */
  final double matmulParameters;
  /** {@link LoraTarget#adapterParameters}; 0 unless an adapter task on a transformer. */
  final long loraParameters;
  /**
   * Per LoRA target, in the targets' iteration order: the widths its adapter reads and writes per token
   * ({@code in + out}, times the MLP matrices and experts), as {@link ComputeModel} charges their traffic; empty
   * unless an adapter task on a transformer.
   */
  final double[] loraWidths;

  private ModelFacts(Task task) {
    this.model = task.model();
    this.adapter = task.kind().isAdapter();
    this.loraRank = task.loraRank();
    this.loraTargets = task.loraTargets();
    this.parameters = model.parameters();
    this.matmulParameters = model instanceof Transformer t ? t.matmulParameters() : 0;
    if (adapter && model instanceof Transformer t) {
      this.loraParameters = LoraTarget.adapterParameters(t, loraRank, loraTargets);
      double h = t.hidden();
      double q = t.queryDim();
      double kv = t.kvDim();
      double f = t.ffn();
      double experts = t.activeExperts();
      double[] widths = new double[loraTargets.size()];
      int k = 0;
      for (LoraTarget target : loraTargets) {
        widths[k++] = switch (target) {
          case Q -> h + q;
          case K, V -> h + kv;
          case O -> q + h;
          case MLP -> (t.gatedMlp() ? 3 : 2) * (h + f) * experts;
        };
      }
      this.loraWidths = widths;
    } else {
      this.loraParameters = 0;
      this.loraWidths = new double[0];
    }
  }

  /** The facts of {@code task}, worked out now. */
  static ModelFacts of(Task task) {
    return new ModelFacts(task);
  }

  /** Whether these are the facts of {@code task} (same model object, kind of adapter, rank and targets). */
  boolean describes(Task task) {
    return task.model() == model && task.kind().isAdapter() == adapter && task.loraRank() == loraRank
        && task.loraTargets().equals(loraTargets);
  }
}
