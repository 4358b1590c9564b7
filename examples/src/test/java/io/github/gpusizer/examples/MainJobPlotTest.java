package io.github.gpusizer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's picture, docs/images/main-job.svg, is what the CLI's {@code --plot} draws for the main job today: a
 * picture is never drawn by hand, and one left behind by a change of the estimators fails here.
 */
class MainJobPlotTest {
  static final List<String> MAIN_JOB = List.of("recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens",
      "50M");

  @Test
  void the_committed_main_job_plot_is_the_one_the_cli_draws() throws IOException {
    // GIVEN the main job drawn by the CLI into target/
    Path fresh = Path.of("target", "main-job.svg").toAbsolutePath();
    Files.createDirectories(fresh.getParent());
    Files.deleteIfExists(fresh);
    List<String> args = new java.util.ArrayList<>(MAIN_JOB);
    args.addAll(List.of("--plot", fresh.toString()));
    DocsExamplesTest.Run run = DocsExamplesTest.run(args);
    assertThat(run.exit()).as(run.err()).isZero();
    // WHEN compared with the committed picture
    String drawn = Files.readString(fresh, StandardCharsets.UTF_8);
    String committed = Files.readString(Docs.root().resolve("docs/images/main-job.svg"), StandardCharsets.UTF_8);
    // THEN they are the same text
    assertThat(committed)
        .as("docs/images/main-job.svg is stale; the fresh plot is %s: copy it there (cp examples/target/main-job.svg"
            + " docs/images/), or after `mvn -B -q package -DskipTests` run: java -jar examples/target/gpusizer.jar"
            + " %s --plot docs/images/main-job.svg", fresh, String.join(" ", MAIN_JOB))
        .isEqualTo(drawn);
    assertThat(drawn).startsWith("<svg").contains("Total cost against wall-clock time");
  }
}
