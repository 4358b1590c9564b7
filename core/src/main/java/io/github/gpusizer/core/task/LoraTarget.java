package io.github.gpusizer.core.task;

import io.github.gpusizer.core.model.Transformer;
import java.util.Set;

/** Which projections of each transformer layer get LoRA adapters. */
public enum LoraTarget {
  Q,
  K,
  V,
  O,
  /** All MLP matrices (gate, up, down). */
  MLP;

  /**
   * Parameters of rank-{@code rank} adapters on the {@code targets} of every layer: {@code r · (d_in + d_out)} per
   * adapted matrix (Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language Models", §4.1: {@code W + BA} with
   * {@code B ∈ R^{d×r}}, {@code A ∈ R^{r×k}}); every expert's MLP of a mixture. Llama-2-7B, rank 8 on Q and V:
   * 32 × 2 × 8 × (4096 + 4096) = 4,194,304.
   */
  public static long adapterParameters(Transformer t, int rank, Set<LoraTarget> targets) {
    long h = t.hidden();
    long q = (long) t.heads() * t.headDim();
    long kv = t.kvDim();
    long perLayer = 0;
    for (LoraTarget target : targets) {
      perLayer += switch (target) {
        case Q -> rank * (h + q);
        case K, V -> rank * (h + kv);
        case O -> rank * (q + h);
        case MLP -> (t.gatedMlp() ? 3L : 2L) * rank * (h + t.ffn()) * t.experts();
      };
    }
    return perLayer * t.totalLayers();
  }
}
