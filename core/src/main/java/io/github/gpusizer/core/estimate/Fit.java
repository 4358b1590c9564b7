package io.github.gpusizer.core.estimate;

/**
 * Whether a job fits in GPU memory, allowing for the memory model's calibration error (see
 * {@link MemoryEstimate#fit()}).
 *
 * <pre>{@code
 * Fit fit = estimator.memory(task, hw, layout).fit();
 * if (fit == Fit.MAY_NOT_FIT) System.out.println("tight: " + fit.label());
 * }</pre>
 */
public enum Fit {
  /** The whole memory interval, its high end included, is within the GPU's memory. */
  FITS("fits"),
  /** The nominal peak fits, but the interval's high end exceeds the GPU's memory: a risk, not a certainty. */
  MAY_NOT_FIT("may not fit"),
  /** The nominal peak exceeds the GPU's memory. */
  DOES_NOT_FIT("does not fit");

  private final String label;

  Fit(String label) {
    this.label = label;
  }

  /** The verdict in plain words, as the CLI prints: {@code "fits"}, {@code "may not fit"}, {@code "does not fit"}. */
  public String label() {
    return label;
  }
}
