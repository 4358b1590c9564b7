package io.github.gpusizer.core.model;

import static java.lang.Math.addExact;
import static java.lang.Math.multiplyExact;

/**
 * Counts a transformer's parameters from its dimensions, the way {@code sum(p.numel() for p in model.parameters())}
 * counts them for the Hugging Face implementation (tied matrices once, buffers such as rotary frequencies not at
 * all).
 *
 * <p>Per layer: self-attention {@code h·q + 2·h·kv + q·h} (q = heads × head_dim, kv = KV heads × head_dim) plus
 * biases where present; the MLP {@code m·h·f} with m = 3 matrices when gated (SwiGLU/GeGLU) else 2, plus biases; two
 * norms (one for a parallel attention/MLP block); an MoE router {@code h × experts}. Decoder layers of an
 * encoder-decoder model add cross-attention and its norm. Once per model: token, learned-position and token-type
 * embeddings, one {@code buckets × heads} relative-position table per stack (T5), a final norm per stack (BERT: the
 * embedding norm instead), an encoder's own position table and an audio front-end of two kernel-3 convolutions
 * (Whisper), a pooler, and an untied output head. All arithmetic is overflow-checked.
 */
final class TransformerParameters {
  private TransformerParameters() {}

  /**
   * Kernel width of both convolutions of an audio front-end: Hugging Face {@code modeling_whisper.py}
   * {@code WhisperEncoder}, {@code nn.Conv1d(num_mel_bins, embed_dim, kernel_size=3, padding=1)} and
   * {@code nn.Conv1d(embed_dim, embed_dim, kernel_size=3, stride=2, padding=1)}; Radford et al. 2022, section 2.2.
   */
  private static final long AUDIO_CONV_KERNEL = 3;

  /** Parameters with {@code experts} MLP experts per layer (all of them, or the active ones for MoE). */
  static long count(Transformer t, int experts) {
    long h = t.hidden();
    long norm = t.norm().parameters(h);
    long embeddings = addExact(multiplyExact((long) t.vocab(), h),
        addExact(t.positions() == Positions.LEARNED ? multiplyExact((long) t.maxPositions(), h) : 0,
            multiplyExact((long) t.typeVocab(), h)));
    long selfAttention = attention(t);
    long router = t.experts() > 1 ? multiplyExact(h, t.experts()) : 0; // no bias (Mixtral's gate)
    long mlp = addExact(multiplyExact(mlp(t), experts), router);
    long encoderLayer = addExact(addExact(selfAttention, mlp), (t.parallelBlock() ? 1 : 2) * norm);
    long total = addExact(embeddings, multiplyExact(t.layers(), encoderLayer));
    int stacks = t.stack() == Stack.ENCODER_DECODER ? 2 : 1;
    if (t.stack() == Stack.ENCODER_DECODER) {
      // Decoder layers add cross-attention and its norm.
      long decoderLayer = addExact(addExact(encoderLayer, selfAttention), norm);
      total = addExact(total, multiplyExact(t.decoderLayers(), decoderLayer));
    }
    total = addExact(total, multiplyExact(stacks, multiplyExact((long) t.relativeAttentionBuckets(), t.heads())));
    // BERT-style encoders normalise the embeddings instead of the last layer's output; the others end each stack
    // with a final norm.
    total = addExact(total, t.stack() == Stack.ENCODER ? norm : stacks * norm);
    total = addExact(total, multiplyExact((long) t.encoderPositions(), h));
    if (t.melBins() > 0) {
      // Whisper's conv1 (melBins -> h) and conv2 (h -> h), with biases.
      long conv1 = multiplyExact(AUDIO_CONV_KERNEL * t.melBins(), h) + h;
      long conv2 = multiplyExact(AUDIO_CONV_KERNEL * h, h) + h;
      total = addExact(total, addExact(conv1, conv2));
    }
    if (t.pooler()) {
      total = addExact(total, h * h + h);
    }
    if (!t.tiedEmbeddings()) {
      total = addExact(total, multiplyExact((long) t.vocab(), h));
    }
    if (t.hasBias(BiasSite.LM_HEAD)) {
      total = addExact(total, t.vocab());
    }
    return total;
  }

  private static long attention(Transformer t) {
    long h = t.hidden();
    long q = multiplyExact((long) t.heads(), t.headDim());
    long kv = multiplyExact((long) t.kvHeads(), t.headDim());
    long weights = addExact(multiplyExact(2 * h, q), multiplyExact(2 * h, kv));
    long qkvBias = t.hasBias(BiasSite.QKV) ? q + 2 * kv : t.hasBias(BiasSite.QUERY_VALUE) ? q + kv : 0;
    long bias = qkvBias + (t.hasBias(BiasSite.ATTENTION_OUT) ? h : 0);
    return addExact(weights, bias);
  }

  private static long mlp(Transformer t) {
    long h = t.hidden();
    long f = t.ffn();
    long matrices = t.gatedMlp() ? 3 : 2;
    long bias = t.hasBias(BiasSite.MLP) ? (matrices - 1) * f + h : 0;
    return addExact(multiplyExact(matrices * h, f), bias);
  }
}
