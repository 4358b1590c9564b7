package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * A recurrent language model: an embedding, stacked LSTM or GRU layers, and an output projection. Recurrent
 * networks step through a sequence one token at a time, so they are usually bound by memory bandwidth.
 *
 * <pre>{@code
 * Recurrent lm = new Recurrent("lstm-lm", Recurrent.Cell.LSTM, 2, 1500, 1500, 33278, true);
 * }</pre>
 *
 * @param name short name
 * @param cell LSTM (4 gates) or GRU (3 gates)
 * @param layers stacked recurrent layers
 * @param hidden hidden state width
 * @param embedding input embedding width
 * @param vocab vocabulary size
 * @param tiedEmbeddings the output projection shares the embedding (needs {@code embedding == hidden})
 * @param decoderLayers decoder layers of an encoder-decoder (sequence-to-sequence) model, which then shares one
 *     embedding table between its encoder and decoder (GNMT v2's {@code share_embedding}); 0 for a language model,
 *     whose {@code layers} are all its layers
 * @param bidirectionalLayers bottom encoder layers that run in both directions (their output is {@code 2 × hidden}
 *     wide); 0 for none
 * @param attention the decoder attends over the encoder's output: normalised Bahdanau attention from the first
 *     decoder layer's output, whose context is concatenated with the input of every later decoder layer (GNMT v2;
 *     Wu et al. 2016, arXiv:1609.08144, §3, as NVIDIA's DeepLearningExamples implement it)
 */
public record Recurrent(
    String name, Cell cell, int layers, int hidden, int embedding, int vocab, boolean tiedEmbeddings,
    int decoderLayers, int bidirectionalLayers, boolean attention)
    implements ModelSpec {

  /** The recurrent cell. */
  public enum Cell {
    LSTM(4),
    GRU(3);

    private final int gates;

    Cell(int gates) {
      this.gates = gates;
    }

    /** Gate matrices per layer. */
    public int gates() {
      return gates;
    }
  }

  public Recurrent {
    checkArgument(!checkNotNull(name, "name").isBlank(), "model needs a name");
    checkNotNull(cell, "cell");
    checkArgument(layers > 0, "%s: layers must be > 0, was %s", name, layers);
    checkArgument(hidden > 0, "%s: hidden size must be > 0, was %s", name, hidden);
    checkArgument(embedding > 0, "%s: embedding size must be > 0, was %s", name, embedding);
    checkArgument(vocab > 0, "%s: vocabulary must be > 0, was %s", name, vocab);
    checkArgument(!tiedEmbeddings || embedding == hidden,
        "%s: tied embeddings need embedding size %s == hidden size %s", name, embedding, hidden);
    checkArgument(decoderLayers >= 0, "%s: decoder layers must be >= 0, was %s", name, decoderLayers);
    checkArgument(bidirectionalLayers >= 0 && bidirectionalLayers <= layers,
        "%s: bidirectional layers must be in 0..%s (the encoder's layers), was %s", name, layers,
        bidirectionalLayers);
    checkArgument(!attention || decoderLayers > 0, "%s: attention needs decoder layers to attend from", name);
    checkArgument(bidirectionalLayers == 0 || decoderLayers > 0,
        "%s: bidirectional layers need an encoder-decoder model (a language model cannot read ahead)", name);
  }

  /** A language model: stacked layers, no decoder, no bidirectional layers, no attention. */
  public Recurrent(String name, Cell cell, int layers, int hidden, int embedding, int vocab, boolean tiedEmbeddings) {
    this(name, cell, layers, hidden, embedding, vocab, tiedEmbeddings, 0, 0, false);
  }

  /**
   * A GNMT-style sequence-to-sequence model: {@code encoderLayers} LSTM layers (the first bidirectional),
   * {@code decoderLayers} LSTM layers with attention, a shared embedding of width {@code hidden} and an untied
   * classifier, as NVIDIA's GNMT v2 builds it ({@code seq2seq/models/gnmt.py}).
   */
  public static Recurrent gnmt(String name, int encoderLayers, int decoderLayers, int hidden, int vocab) {
    return new Recurrent(name, Cell.LSTM, encoderLayers, hidden, hidden, vocab, false, decoderLayers, 1, true);
  }

  /** Whether the model is an encoder-decoder (sequence-to-sequence) model. */
  public boolean encoderDecoder() {
    return decoderLayers > 0;
  }

  /** All recurrent layers: the encoder's (or the language model's) and the decoder's. */
  public int totalLayers() {
    return layers + decoderLayers;
  }

  /** Directions layer {@code layer} (0-based over {@link #totalLayers()}, encoder first) runs in: 1 or 2. */
  public int directions(int layer) {
    return layer < bidirectionalLayers ? 2 : 1;
  }

  /** Width of the encoder's output: what the attention reads. */
  public int encoderOutputWidth() {
    return directions(layers - 1) * hidden;
  }

  /**
   * Input width of layer {@code layer} (0-based over {@link #totalLayers()}, encoder first): the embedding for the
   * first layer of each stack, the previous layer's output (both directions) otherwise, plus the attention context
   * for decoder layers after the first.
   */
  public int layerInput(int layer) {
    if (layer == 0 || layer == layers) {
      return embedding;
    }
    int below = directions(layer - 1) * hidden;
    return layer > layers && attention ? below + encoderOutputWidth() : below;
  }

  /**
   * Parameters of the attention: query and key projections into {@code hidden} (no biases), the score vector, and
   * the normalisation scalar and bias (DeepLearningExamples {@code seq2seq/models/attention.py},
   * {@code BahdanauAttention(normalize=True)}); 0 without attention.
   */
  public long attentionParameters() {
    if (!attention) {
      return 0;
    }
    long h = hidden;
    return h * h + (long) encoderOutputWidth() * h + h + 1 + h;
  }

  /**
   * One embedding (shared by encoder and decoder) + per layer and direction {@code gates × (in·h + h·h + 2h)}
   * (PyTorch keeps two bias vectors) + the attention + output projection {@code h·V + V}.
   */
  @Override
  public long parameters() {
    long h = hidden;
    long total = (long) vocab * embedding;
    for (int layer = 0; layer < totalLayers(); layer++) {
      long in = layerInput(layer);
      total += directions(layer) * cell.gates() * (in * h + h * h + 2 * h);
    }
    total += attentionParameters();
    total += (tiedEmbeddings ? 0 : (long) vocab * h) + vocab;
    return total;
  }
}
