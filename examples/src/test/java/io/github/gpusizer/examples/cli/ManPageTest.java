package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gpusizer gen-manpage}: picocli's AsciiDoc man pages, one per command, from the commands themselves. */
class ManPageTest {
  @Test
  void every_command_gets_a_man_page_that_lists_its_options(@TempDir Path dir) throws Exception {
    // WHEN the man pages are generated
    Cli.Run run = Cli.run("gen-manpage", "--outdir", dir.toString());

    // THEN each command has its page, and recommend's names its flags with their values
    assertThat(run.exit()).as(run.err()).isZero();
    for (String command : new String[] {"gpus", "offers", "estimate", "recommend", "compare", "serve", "check",
        "completion"}) {
      assertThat(dir.resolve("gpusizer-" + command + ".adoc")).isRegularFile();
    }
    String recommend = Files.readString(dir.resolve("gpusizer-recommend.adoc"));
    assertThat(recommend).contains(":doctype: manpage", "= gpusizer-recommend(1)", "*--deadline*=_DURATION_",
        "*--spot-interruptions*=_RATE_");
    assertThat(Files.readString(dir.resolve("gpusizer.adoc"))).contains("xref:gpusizer-recommend.adoc[*recommend*]");
  }
}
