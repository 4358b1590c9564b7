package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompletionCommandTest {
  @Test
  void the_bash_script_completes_every_command_and_their_options() {
    Cli.Run run = Cli.run("completion", "bash");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("complete -F _complete_gpusizer", "recommend", "compare", "completion",
        "--format", "--deadline", "--objective");
  }

  @Test
  void closed_sets_complete_to_the_words_the_parser_accepts() {
    Cli.Run run = Cli.run("completion", "bash");

    assertThat(run.out()).contains("\"cheapest\" \"fastest\" \"value\"", "\"lora\"", "\"bf16-pure\"",
        "\"adam-8bit\"", "\"skypilot\"");
  }

  @Test
  void bash_completes_a_subcommand_and_an_option_value(@TempDir Path dir) throws IOException, InterruptedException {
    Path bash = Path.of("/bin/bash");
    assumeThat(Files.isExecutable(bash)).as("bash is installed").isTrue();
    Path script = dir.resolve("gpusizer_completion");
    Files.writeString(script, Cli.run("completion", "bash").out(), StandardCharsets.UTF_8);

    assertThat(complete(bash, script, "gpusizer rec", "gpusizer", "rec")).isEqualTo("recommend");
    assertThat(complete(bash, script, "gpusizer recommend --objective ", "gpusizer", "recommend", "--objective", ""))
        .isEqualTo("cheapest fastest value");
  }

  /** COMPREPLY of the script's completion function for a command line (the last word is the one completed). */
  private static String complete(Path bash, Path script, String line, String... words)
      throws IOException, InterruptedException {
    StringBuilder array = new StringBuilder();
    for (String w : words) {
      array.append('"').append(w).append("\" ");
    }
    String program = "source \"$1\" 2>/dev/null; COMP_WORDS=(" + array + "); COMP_CWORD=" + (words.length - 1)
        + "; COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE}; _complete_gpusizer gpusizer \"${COMP_WORDS[-1]}\" "
        + "\"${COMP_WORDS[-2]}\" 2>/dev/null; echo \"${COMPREPLY[*]}\"";
    Process p = new ProcessBuilder(bash.toString(), "-c", program, "bash", script.toString()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  @Test
  void zsh_gets_the_script_that_loads_bashcompinit() {
    Cli.Run run = Cli.run("completion", "zsh");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("ZSH_VERSION", "bashcompinit", "complete -F _complete_gpusizer");
  }

  @Test
  void an_unknown_shell_is_bad_input() {
    Cli.Run run = Cli.run("completion", "fish");

    assertThat(run.exit()).isEqualTo(GpuSizerCli.EXIT_BAD_INPUT);
    assertThat(run.err()).contains("BASH, ZSH");
  }

  @Test
  void bash_loads_the_script_and_registers_the_completion(@TempDir Path dir)
      throws IOException, InterruptedException {
    Path bash = Path.of("/bin/bash");
    assumeThat(Files.isExecutable(bash)).as("bash is installed").isTrue();
    Path script = dir.resolve("gpusizer_completion");
    Files.writeString(script, Cli.run("completion", "bash").out(), StandardCharsets.UTF_8);

    Process p = new ProcessBuilder(bash.toString(), "-c", "source \"$1\" && complete -p gpusizer", "bash",
        script.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("-F _complete_gpusizer").contains("gpusizer");
  }
}
