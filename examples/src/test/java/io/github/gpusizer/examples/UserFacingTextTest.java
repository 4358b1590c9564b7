package io.github.gpusizer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The string literals of the library and the tool (what a user can read) cite the source guides by their public names
 * and in the output's language: never the project's internal "seed 000", never an untranslated Chinese quote.
 */
class UserFacingTextTest {
  private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
  private static final Pattern SEED = Pattern.compile("(?i)\\bseeds?[ -]?(?:document )?0\\d\\d");
  private static final Pattern CJK = Pattern.compile("[\\x{3000}-\\x{303f}\\x{4e00}-\\x{9fff}\\x{ff00}-\\x{ffef}]");

  private static List<String> offending(Path root) {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
          String line = lines.get(i).strip();
          if (line.startsWith("//") || line.startsWith("*") || line.startsWith("/*")) {
            continue; // comments cite the sources as they are
          }
          Matcher m = LITERAL.matcher(line);
          while (m.find()) {
            if (SEED.matcher(m.group(1)).find() || CJK.matcher(m.group(1)).find()) {
              found.add(root.relativize(file) + ":" + (i + 1) + ": " + m.group());
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return found;
  }

  @Test
  void no_string_of_the_library_or_the_tool_says_seed_or_quotes_chinese() {
    for (Path root : List.of(Path.of("..", "catalog", "src", "main", "java"), Path.of("..", "core", "src", "main", "java"),
        Path.of("src", "main", "java"))) {
      assertThat(root).isDirectory();
      assertThat(offending(root)).as("user-facing strings under %s", root).isEmpty();
    }
  }

  @Test
  void the_check_finds_what_it_looks_for() {
    assertThat(SEED.matcher("as seed 000 suggests").find()).isTrue();
    assertThat(SEED.matcher("Seed 001's worked example").find()).isTrue();
    assertThat(SEED.matcher("a random seed 42").find()).isFalse();
    assertThat(CJK.matcher("全款/3年").find()).isTrue();
    assertThat(CJK.matcher("Baidu AIStudio's GPU guide").find()).isFalse();
  }
}
