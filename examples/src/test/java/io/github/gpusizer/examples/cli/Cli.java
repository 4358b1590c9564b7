package io.github.gpusizer.examples.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/** Runs the tool in-process with captured output. */
final class Cli {
  static final ObjectMapper JSON = new ObjectMapper();

  record Run(int exit, String out, String err) {
    JsonNode json() {
      try {
        return JSON.readTree(out);
      } catch (IOException e) {
        throw new UncheckedIOException("stdout is not JSON: " + out, e);
      }
    }
  }

  private Cli() {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = GpuSizerCli.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
    return new Run(exit, out.toString(), err.toString());
  }
}
