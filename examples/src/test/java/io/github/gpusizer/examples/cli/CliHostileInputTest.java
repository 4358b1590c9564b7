package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A battery of out-of-range, malformed and hostile arguments: each exits 2 (bad input) with one line on stderr that
 * names the option and the rule, never 3 (internal error), never a stack trace, and in bounded time.
 */
class CliHostileInputTest {
  private static final String[] LORA = {"recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M"};

  private static String[] lora(String... more) {
    List<String> args = new ArrayList<>(List.of(LORA));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  static Stream<Arguments> badArguments() {
    return Stream.of(
        Arguments.of("batch 0", lora("--micro-batch", "0"), "micro-batch"),
        Arguments.of("negative batch", lora("--micro-batch", "-1"), "micro-batch"),
        Arguments.of("batch beyond an int", lora("--micro-batch", "99999999999"), "--micro-batch"),
        Arguments.of("NaN tokens", new String[] {"recommend", "--model", "gpt2", "--tokens", "NaN"}, "--tokens"),
        Arguments.of("infinite tokens", new String[] {"recommend", "--model", "gpt2", "--tokens", "1e999"},
            "--tokens"),
        Arguments.of("negative tokens", new String[] {"recommend", "--model", "gpt2", "--tokens", "-5"}, "tokens"),
        Arguments.of("zero deadline", lora("--deadline", "0s"), "deadline"),
        Arguments.of("negative deadline", lora("--deadline", "-1h"), "deadline"),
        Arguments.of("unknown currency", lora("--budget", "2000XYZ"), "--budget"),
        Arguments.of("hostile budget exponent", lora("--budget", "1e999999999USD"), "--budget"),
        Arguments.of("10^12 GPUs", lora("--max-gpus", "1000000000000"), "--max-gpus"),
        Arguments.of("2^31 - 1 GPUs", lora("--max-gpus", "2147483647"), "maxGpus"),
        Arguments.of("zero GPUs", lora("--max-gpus", "0"), "--max-gpus"),
        Arguments.of("Cyrillic GPU", lora("--gpu", "\u0410100"), "U+0410 CYRILLIC CAPITAL LETTER A"),
        Arguments.of("NaN rate", lora("--rate", "CNY:USD=NaN"), "--rate"),
        Arguments.of("negative rate", lora("--rate", "CNY:USD=-1"), "--rate"),
        Arguments.of("two-letter currency", lora("--currency", "US"), "currency"),
        Arguments.of("zero layers", new String[] {"recommend", "--transformer", "layers=0,hidden=64,heads=1",
            "--tokens", "1M"}, "layers"),
        Arguments.of("overflowing transformer", new String[] {"recommend", "--transformer",
            "layers=2147483647,hidden=2147483647,heads=1", "--tokens", "1M"}, "overflow"),
        Arguments.of("zero GPUs to estimate", new String[] {"estimate", "--gpu", "A100", "--gpus", "0", "--model",
            "gpt2"}, "--gpus"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badArguments")
  void bad_arguments_exit_2_with_one_line_naming_the_problem(String what, String[] args, String fragment) {
    Cli.Run run = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Cli.run(args));
    assertBadInput(run, fragment);
  }

  @Test
  void hostile_model_and_catalog_files_exit_2(@TempDir Path dir) throws IOException {
    Path safetensors = dir.resolve("hostile.safetensors");
    Files.write(safetensors, ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN).putLong(1L << 31)
        .put((byte) '{').put((byte) '}').array());
    assertBadInput(Cli.run("recommend", "--safetensors", safetensors.toString(), "--tokens", "1M"),
        "100,000,000 bytes");

    Path binary = dir.resolve("config.json");
    Files.write(binary, new byte[] {0, 0, 0, 0x1e, 'x', 0x10, '}'});
    assertBadInput(Cli.run("recommend", "--hf-config", binary.toString(), "--tokens", "1M"), "config.json");

    Path catalog = dir.resolve("offerings.csv");
    Files.write(catalog, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
    assertBadInput(Cli.run("gpus", "--catalog", catalog.toString()), "not valid UTF-8 text");
  }

  @Test
  void full_width_gpu_name_is_the_same_gpu() {
    Cli.Run fullWidth = Cli.run("gpus", "--gpu", "\uFF21\uFF11\uFF10\uFF10", "--format", "json");
    Cli.Run ascii = Cli.run("gpus", "--gpu", "A100", "--format", "json");
    assertThat(fullWidth.exit()).as(fullWidth.err()).isZero();
    assertThat(fullWidth.out()).isEqualTo(ascii.out());
  }

  private static void assertBadInput(Cli.Run run, String fragment) {
    assertThat(run.exit()).as("exit code; stderr: %s", run.err()).isEqualTo(2);
    assertThat(run.err().lines().count()).as(run.err()).isEqualTo(1);
    assertThat(run.err()).doesNotContain("\tat ").doesNotContain("internal error").contains(fragment);
  }
}
