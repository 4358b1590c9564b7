package io.github.gpusizer.examples.cli;

import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.LoraTarget;
import io.github.gpusizer.core.task.Task;

/** How many parameters a task trains: all for training, none for inference, the adapters for LoRA and QLoRA. */
final class Trainable {
  private Trainable() {}

  /**
   * LoRA adds {@code B (d_out × r)} and {@code A (r × d_in)} to each adapted matrix: {@code r · (d_in + d_out)}
   * parameters (Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language Models", section 4.1), for every
   * target matrix of every layer. Models other than transformers have no adapter targets here: 0.
   */
  static long parameters(Task task) {
    if (!task.kind().isTraining()) {
      return 0;
    }
    if (!task.kind().isAdapter()) {
      return task.model().parameters();
    }
    if (!(task.model() instanceof Transformer t)) {
      return 0;
    }
    long r = task.loraRank();
    long h = t.hidden();
    long q = (long) t.heads() * t.headDim();
    long kv = t.kvDim();
    long f = t.ffn();
    long perLayer = 0;
    for (LoraTarget target : task.loraTargets()) {
      switch (target) {
        case Q:
          perLayer += r * (h + q);
          break;
        case K:
        case V:
          perLayer += r * (h + kv);
          break;
        case O:
          perLayer += r * (q + h);
          break;
        default: // MLP: up and down, plus gate for a gated MLP; every expert of a mixture
          perLayer += (t.gatedMlp() ? 3 : 2) * r * (h + f) * t.experts();
          break;
      }
    }
    return perLayer * t.totalLayers();
  }
}
