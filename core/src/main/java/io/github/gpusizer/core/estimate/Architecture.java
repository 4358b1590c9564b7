package io.github.gpusizer.core.estimate;

import io.github.gpusizer.core.model.Positions;
import io.github.gpusizer.core.model.Stack;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.LoraTarget;
import java.util.Set;

/** Shapes of a transformer's parts, as memory and time need them. */
final class Architecture {
  private Architecture() {}

  /** Width of the query projection output: {@code heads × headDim}. */
  static long queryDim(Transformer t) {
    return (long) t.heads() * t.headDim();
  }

  /** Weights of the attention projections of one layer (Q, K, V, O; no biases). */
  static long attentionWeights(Transformer t) {
    long h = t.hidden();
    return h * queryDim(t) * 2 + 2 * h * t.kvDim();
  }

  /** Weights of one MLP expert (two or three matrices; no biases). */
  static long mlpWeights(Transformer t) {
    return (t.gatedMlp() ? 3L : 2L) * t.hidden() * t.ffn();
  }

  /**
   * Weights of the linear layers inside the transformer layers, all experts: what 4- and 8-bit weight quantisation
   * (bitsandbytes, GPTQ, AWQ) replaces. Embeddings and the output head stay in 16-bit (bitsandbytes and GPTQ skip
   * the {@code lm_head} by default).
   */
  static long quantizableWeights(Transformer t) {
    long perLayer = attentionWeights(t) + mlpWeights(t) * t.experts();
    long crossAttention = t.stack() == Stack.ENCODER_DECODER ? (long) t.decoderLayers() * attentionWeights(t) : 0;
    return (long) t.totalLayers() * perLayer + crossAttention;
  }

  /** Whether the model computes vocabulary logits for every token (decoders; encoder-only models are not). */
  static boolean hasLanguageHead(Transformer t) {
    return t.stack() != Stack.ENCODER;
  }

  /**
   * Parameters one token passes through in matrix multiplications: active parameters less the embedding tables,
   * which are looked up, not multiplied; the output head counts (tied or not) when the model has one.
   */
  static double matmulParameters(Transformer t) {
    long h = t.hidden();
    long lookup = (long) t.vocab() * h + (long) t.typeVocab() * h
        + (t.positions() == Positions.LEARNED ? (long) t.maxPositions() * h : 0);
    long head = hasLanguageHead(t) && t.tiedEmbeddings() ? (long) t.vocab() * h : 0;
    return Math.max(0, t.activeParameters() - lookup + head);
  }

  /** LoRA adapter parameters: {@link LoraTarget#adapterParameters}. */
  static long loraParameters(Transformer t, int rank, Set<LoraTarget> targets) {
    return LoraTarget.adapterParameters(t, rank, targets);
  }

  /**
   * Output widths per token of one layer's matrix multiplications in the order the forward pass runs them, as
   * torchtitan's Llama writes the layer: {@code wq, wk, wv, wo}, then {@code w1, w3, w2} for a gated MLP
   * ({@code w2(silu(w1(x)) * w3(x))}) or {@code up, down}; MLP widths times the active experts.
   */
  static double[] matmulOutputWidths(Transformer t) {
    double q = queryDim(t);
    double kv = t.kvDim();
    double h = t.hidden();
    double f = (double) t.ffn() * t.activeExperts();
    double down = h * t.activeExperts();
    return t.gatedMlp() ? new double[] {q, kv, kv, h, f, f, down} : new double[] {q, kv, kv, h, f, down};
  }

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
    double[] widths = matmulOutputWidths(t);
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
    double[] widths = matmulOutputWidths(t);
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

  /**
   * Whether the model was trained with dropout. Heuristic: the learned-position generation (BERT, GPT-2, ViT,
   * Whisper) uses dropout 0.1; rotary/ALiBi models (Llama, Mistral, MPT, Qwen) set it to 0.
   */
  static boolean dropout(Transformer t) {
    return t.positions() == Positions.LEARNED;
  }
}
