package io.github.gpusizer.examples.localgpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Running nvidia-smi: fake ones that hang, flood or fail; the timeout and the output limit really apply. */
class NvidiaSmiCommandTest {
  private static final Duration HANG = Duration.ofSeconds(20);

  @TempDir
  Path dir;

  private Path script(String body) throws Exception {
    assumeThat(Files.isExecutable(Path.of("/bin/sh"))).isTrue();
    Path file = dir.resolve("nvidia-smi");
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  @Test
  void a_hung_nvidia_smi_is_stopped_at_the_timeout() throws Exception {
    // GIVEN an nvidia-smi that never answers, with a child that keeps its output open
    Path smi = script("sleep 600 & sleep 600");
    List<String> problems = new ArrayList<>();
    // WHEN run with a 1 s timeout THEN it returns within it, empty, saying why
    Optional<String> out = assertTimeoutPreemptively(HANG,
        () -> NvidiaSmi.run(List.of(smi.toString()), Duration.ofSeconds(1), 1 << 20, problems::add));
    assertThat(out).isEmpty();
    assertThat(problems).containsExactly("nvidia-smi did not finish within 1 s");
  }

  @Test
  void a_flood_of_output_is_cut_at_the_limit() throws Exception {
    Path smi = script("exec cat /dev/zero");
    List<String> problems = new ArrayList<>();
    Optional<String> out = assertTimeoutPreemptively(HANG,
        () -> NvidiaSmi.run(List.of(smi.toString()), Duration.ofSeconds(10), 1 << 20, problems::add));
    assertThat(out).isEmpty();
    assertThat(problems).containsExactly("nvidia-smi printed more than 1,048,576 bytes");
  }

  @Test
  void a_good_answer_is_returned_and_a_failure_named() throws Exception {
    Path smi = script("echo 'name, memory.total [MiB]'; echo 'NVIDIA H200, 143771 MiB'");
    Optional<String> out = NvidiaSmi.run(List.of(smi.toString()), Duration.ofSeconds(10), 1 << 20, p -> { });
    assertThat(out).hasValueSatisfying(csv -> assertThat(NvidiaSmi.parse("nvidia-smi", csv)).hasSize(1));
    Path failing = script("exit 9");
    List<String> problems = new ArrayList<>();
    assertThat(NvidiaSmi.run(List.of(failing.toString()), Duration.ofSeconds(10), 1 << 20, problems::add)).isEmpty();
    assertThat(problems).containsExactly("nvidia-smi exited with status 9");
  }

  @Test
  void a_recorded_file_must_be_regular_and_bounded() throws Exception {
    Path zero = Path.of("/dev/zero");
    assumeThat(Files.exists(zero)).isTrue();
    assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> NvidiaSmi.read(zero))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("/dev/zero is not a regular file (a FIFO, socket or device); give a file holding nvidia-smi's "
            + "output"));
    Path big = dir.resolve("smi.csv");
    Files.write(big, new byte[NvidiaSmi.MAX_OUTPUT_BYTES + 1]);
    assertThatThrownBy(() -> NvidiaSmi.read(big)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(big + " holds more than 1,048,576 bytes, more than nvidia-smi prints for any machine");
  }
}
