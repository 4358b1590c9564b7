package io.github.gpusizer.core.estimate;

import io.github.gpusizer.core.model.Transformer;

/**
 * The estimators' policies over a transformer's layer shapes: which matmul outputs op-level selective
 * checkpointing keeps. The shapes themselves ({@link Transformer#queryDim()}, {@link Transformer#matmulOutputWidths()},
 * {@link Transformer#quantizableWeights()} and the rest) belong to {@link Transformer}.
 */
final class Architecture {
  private Architecture() {}

  /**
   * Whether op-level selective activation checkpointing keeps the output of a layer's {@code index}-th (0-based)
   * matrix multiplication: torchtitan's policy ({@code torchtitan/distributed/activation_checkpoint.py},
   * {@code _custom_policy}: "Saves output of all compute ops, except every second mm") keeps the 1st, 3rd, 5th and
   * 7th and recomputes the others.
   */
  static boolean selectiveKeepsMatmul(int index) {
    return index % 2 == 0;
  }

  /** Per-token output elements of the matmuls op-level selective checkpointing keeps in one layer. */
  static double selectiveKeptMatmulElements(Transformer t) {
    double[] widths = t.matmulOutputWidths();
    double kept = 0;
    for (int i = 0; i < widths.length; i++) {
      kept += selectiveKeepsMatmul(i) ? widths[i] : 0;
    }
    return kept;
  }

  /**
   * The share of each fused matmul group's FLOPs that op-level selective checkpointing recomputes, in the order
   * {@code {QKV, O, up (gate and up), down}}: Q, K and V are one group of widths {@code q + 2kv}, the gate and up
   * projections one group of {@code 2f}.
   */
  static double[] selectiveRecomputedShares(Transformer t) {
    double[] widths = t.matmulOutputWidths();
    int mlpUp = t.gatedMlp() ? 2 : 1;
    int[][] groups = {{0, 1, 2}, {3}, mlpUp == 2 ? new int[] {4, 5} : new int[] {4}, {widths.length - 1}};
    double[] shares = new double[groups.length];
    for (int g = 0; g < groups.length; g++) {
      double all = 0;
      double recomputed = 0;
      for (int i : groups[g]) {
        all += widths[i];
        recomputed += selectiveKeepsMatmul(i) ? 0 : widths[i];
      }
      shares[g] = recomputed / all;
    }
    return shares;
  }
}
