package io.github.gpusizer.core.model;

/** Counts a transformer's parameters from its dimensions. */
final class TransformerParameters {
  private TransformerParameters() {}

  /** Parameters with {@code experts} MLP experts per layer (all of them, or the active ones for MoE). */
  static long count(Transformer t, int experts) {
    long h = t.hidden();
    long norm = t.norm() == Norm.LAYER_NORM ? 2 * h : h;
    long embeddings = (long) t.vocab() * h
        + (t.positions() == Positions.LEARNED ? (long) t.maxPositions() * h : 0)
        + (long) t.typeVocab() * h;
    long selfAttention = attention(t);
    long mlp = mlp(t) * experts + (t.experts() > 1 ? h * t.experts() : 0); // router: h × E
    long encoderLayer = selfAttention + mlp + 2 * norm;
    long total = embeddings + t.layers() * encoderLayer;
    if (t.stack() == Stack.ENCODER_DECODER) {
      // Decoder layers add cross-attention and its norm.
      total += t.decoderLayers() * (encoderLayer + selfAttention + norm);
    }
    if (t.stack() == Stack.ENCODER) {
      total += norm; // BERT: the embedding LayerNorm
    } else {
      total += norm * (t.stack() == Stack.ENCODER_DECODER ? 2 : 1); // final norm after each stack
    }
    if (t.pooler()) {
      total += h * h + h;
    }
    if (!t.tiedEmbeddings()) {
      total += (long) t.vocab() * h;
    }
    return total;
  }

  private static long attention(Transformer t) {
    long h = t.hidden();
    long q = (long) t.heads() * t.headDim();
    long kv = t.kvDim();
    long weights = h * q + 2 * h * kv + q * h;
    return weights + (t.bias() ? q + 2 * kv + h : 0);
  }

  private static long mlp(Transformer t) {
    long h = t.hidden();
    long f = t.ffn();
    long matrices = t.gatedMlp() ? 3 : 2;
    long bias = t.bias() ? (matrices - 1) * f + h : 0;
    return matrices * h * f + bias;
  }
}
