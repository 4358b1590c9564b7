package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Control characters a user typed or a file held are shown escaped, never sent raw to the terminal. */
class TerminalEscapesTest {
  private static final String CLEAR_SCREEN = "\u001b[2J";

  static Stream<Arguments> hostileArguments() {
    return Stream.of(
        Arguments.of((Object) new String[] {"gpus", "--gpu", "h100" + CLEAR_SCREEN}),
        Arguments.of((Object) new String[] {"recommend", "--model", "llama" + CLEAR_SCREEN, "--tokens", "1M"}),
        Arguments.of((Object) new String[] {"recommend", "--model", "llama-2-7b", "--tokens", "5\u009b31m0M"}),
        Arguments.of((Object) new String[] {"estimate", "--gpu", "A100", "--model", "gpt2", "--deadline" + CLEAR_SCREEN}),
        Arguments.of((Object) new String[] {"recommend", "--model", "llama-2-7b", "--tokens", "1M", "--objective", "fast\u202eest"}));
  }

  @ParameterizedTest
  @MethodSource("hostileArguments")
  void an_error_echoes_control_characters_as_escapes(String[] args) {
    Cli.Run run = Cli.run(args);

    assertThat(run.exit()).isEqualTo(GpuSizerCli.EXIT_BAD_INPUT);
    assertThat(run.err()).hasLineCount(1);
    assertThat(run.err().chars().filter(c -> c < 0x20 && c != '\n' || c >= 0x7f && c <= 0x9f || c == 0x202e))
        .as(run.err()).isEmpty();
    assertThat(run.err()).containsAnyOf("\\u001b[2J", "\\u009b31m", "\\u202e");
  }

  @Test
  void a_table_shows_a_catalog_cell_with_an_escape_sequence_escaped(@TempDir Path dir) throws IOException {
    // GIVEN an offerings file whose instance type carries an escape sequence
    Path file = dir.resolve("offerings.csv");
    Files.writeString(file, "provider,instance_type,region,gpu,gpu_count,vcpus,ram_gib,disk_gb,price_per_hour,"
        + "spot_per_hour,currency,billing,monthly,yearly,network_gbps,price_date,source\n"
        + "acme,box" + CLEAR_SCREEN + "1,eu,A100,1,8,64,100,1.00,,USD,PER_HOUR,,,,2026-11-01,test\n",
        StandardCharsets.UTF_8);

    // WHEN the offers table lists it
    Cli.Run run = Cli.run("offers", "--catalog", file.toString(), "--no-bundled-offerings");

    // THEN the cell shows the escape and the terminal gets no ESC
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("box\\u001b[2J1").doesNotContain("\u001b");
  }
}
