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
 */
public record Recurrent(
    String name, Cell cell, int layers, int hidden, int embedding, int vocab, boolean tiedEmbeddings)
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
  }

  /**
   * Embedding + per layer {@code gates × (in·h + h·h + 2h)} (PyTorch keeps two bias vectors) + output projection
   * {@code h·V + V}.
   */
  @Override
  public long parameters() {
    long h = hidden;
    long total = (long) vocab * embedding;
    for (int layer = 0; layer < layers; layer++) {
      long in = layer == 0 ? embedding : hidden;
      total += cell.gates() * (in * h + h * h + 2 * h);
    }
    total += (tiedEmbeddings ? 0 : (long) vocab * h) + vocab;
    return total;
  }
}
