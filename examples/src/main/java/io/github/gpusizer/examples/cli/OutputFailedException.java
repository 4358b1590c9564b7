package io.github.gpusizer.examples.cli;

/** The result could not be written to standard output (a full disk, a closed pipe): the run failed, exit 3. */
final class OutputFailedException extends RuntimeException {
  OutputFailedException() {
    super("cannot write the result to standard output (is the disk full or the pipe closed?)");
  }
}
