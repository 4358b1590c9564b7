package io.github.gpusizer.examples.cli;

/**
 * A valid request that cannot be met (nothing fits the deadline, the budget or the GPU); the message says what would
 * make it feasible. The CLI exits with {@link GpuSizerCli#EXIT_INFEASIBLE}.
 */
public class InfeasibleException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InfeasibleException(String message) {
    super(message);
  }
}
