package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import org.junit.jupiter.api.Test;

class OutputFailureTest {
  /** Standard output on a full disk: every write fails, as a PrintWriter over /dev/full sees it. */
  private static final class FullDisk extends Writer {
    @Override
    public void write(char[] buffer, int offset, int length) throws IOException {
      throw new IOException("No space left on device");
    }

    @Override
    public void flush() throws IOException {
      throw new IOException("No space left on device");
    }

    @Override
    public void close() {}
  }

  @Test
  void a_result_that_cannot_be_written_is_exit_3_with_one_line() {
    // GIVEN standard output on a full disk
    StringWriter err = new StringWriter();
    // WHEN a command prints its result
    int exit = GpuSizerCli.commandLine().setOut(new PrintWriter(new FullDisk())).setErr(new PrintWriter(err))
        .execute("gpus", "--gpu", "t4");
    // THEN it fails with the internal-error code and says why on one line
    assertThat(exit).isEqualTo(3);
    assertThat(err.toString().strip()).startsWith("gpusizer gpus: cannot write the result to standard output")
        .doesNotContain("\n");
  }
}
