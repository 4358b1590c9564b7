package io.github.gpusizer.core.estimate;

/**
 * How a training job reads its data set, which decides what disk keeps the GPUs fed.
 *
 * <pre>{@code
 * if (estimate.host().access() == DataAccess.RANDOM_FILES) {
 *   System.out.println("packing the files into shards would let a cheaper disk do");
 * }
 * }</pre>
 */
public enum DataAccess {
  /**
   * One small file per sample in shuffled order, as an image folder is read (ImageNet: 1.28 M JPEGs of ~110 kB):
   * every sample pays a random access.
   */
  RANDOM_FILES("small files read at random"),
  /**
   * Large files read front to back: packed formats (WebDataset tar shards, TFRecord, a pre-tokenised {@code .bin}
   * corpus), shuffled in memory within a buffer.
   */
  SEQUENTIAL_SHARDS("sequential shards"),
  /** Nothing read during training beyond loading: inference, or a data set small enough to stay in RAM. */
  LOADING_ONLY("weights and inputs loaded once");

  private final String label;

  DataAccess(String label) {
    this.label = label;
  }

  /** A plain description. */
  public String label() {
    return label;
  }
}
