package io.github.gpusizer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.examples.cli.GpuSizerCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every command-line example of the README and of docs/*.md runs, in-process, and does what the page shows.
 *
 * <ul>
 *   <li>In a {@code ```sh} block, every {@code gpusizer} command (also spelt {@code examples/gpusizer} or
 *       {@code java -jar examples/target/gpusizer.jar}; commands joined by {@code &&} are taken one by one) exits 0.
 *   <li>In a {@code ```console} block, a line {@code $ gpusizer ...} is a command and the lines after it, up to the
 *       next {@code $}, its output: each line shown must appear, in that order, in what it prints (stdout, then
 *       stderr); {@code ...} stands for lines left out and {@code (exit N)} for the exit code, else 0. A block whose
 *       info string says {@code figures-vary} shows an estimate: its lines are compared with every number masked and
 *       runs of blanks made one, so the figures may move with the estimators but the words and columns may not.
 * </ul>
 * File arguments are read from the project's folder, as a reader would run the command there. A {@code $} line that
 * runs anything but the tool fails: an example the test cannot run is not left unchecked.
 * Synopses with {@code [OPTIONAL]} parts belong in {@code ```text} blocks, which are not run.
 */
class DocsExamplesTest {
  private static final List<String> PREFIXES =
      List.of("gpusizer ", "examples/gpusizer ", "java -jar examples/target/gpusizer.jar ");
  private static final Pattern NUMBER = Pattern.compile("\\d+(?:[.,]\\d+)*");
  private static final Pattern EXIT = Pattern.compile("\\(exit (\\d+)\\)");

  /** One command of a page, with the output lines the page shows for it. */
  record Example(String where, List<String> args, int exit, List<String> shown, boolean figuresVary) {
    @Override
    public String toString() {
      return where + ": gpusizer " + String.join(" ", args);
    }
  }

  record Run(int exit, String out, String err) {
    List<String> lines() {
      List<String> lines = new ArrayList<>(out.lines().map(String::stripTrailing).toList());
      err.lines().map(String::stripTrailing).forEach(lines::add);
      return lines;
    }
  }

  static List<Example> examples() {
    List<Example> examples = new ArrayList<>();
    for (Docs.Block block : Docs.blocks()) {
      if (block.language().equals("sh")) {
        examples.addAll(shellExamples(block));
      } else if (block.language().equals("console")) {
        examples.addAll(consoleExamples(block));
      }
    }
    return examples;
  }

  private static List<String> joinContinuations(String text) {
    List<String> lines = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      if (line.endsWith("\\")) {
        pending.append(line, 0, line.length() - 1).append(' ');
      } else {
        lines.add(pending + line);
        pending.setLength(0);
      }
    }
    return lines;
  }

  private static List<Example> shellExamples(Docs.Block block) {
    List<Example> examples = new ArrayList<>();
    for (String line : joinContinuations(block.text())) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      for (String command : line.split("&&")) {
        command(command.trim()).ifPresent(args -> examples.add(new Example(block.toString(), args, 0, List.of(),
            false)));
      }
    }
    return examples;
  }

  private static List<Example> consoleExamples(Docs.Block block) {
    boolean figuresVary = block.info().contains("figures-vary");
    List<Example> examples = new ArrayList<>();
    List<String> args = null;
    List<String> shown = new ArrayList<>();
    int exit = 0;
    for (String line : joinContinuations(block.text())) {
      if (line.startsWith("$ ")) {
        if (args != null) {
          examples.add(new Example(block.toString(), args, exit, shown, figuresVary));
        }
        String command = line.substring(2).trim();
        args = command(command).orElseThrow(() -> new AssertionError(
            block + ": a console example that does not run gpusizer: " + command));
        shown = new ArrayList<>();
        exit = 0;
      } else {
        if (args == null) {
          throw new AssertionError(block + ": output before any $ command: " + line);
        }
        Matcher m = EXIT.matcher(line.trim());
        if (m.matches()) {
          exit = Integer.parseInt(m.group(1));
        } else if (!line.isBlank() && !line.trim().equals("...")) {
          shown.add(line.stripTrailing());
        }
      }
    }
    if (args != null) {
      examples.add(new Example(block.toString(), args, exit, shown, figuresVary));
    }
    return examples;
  }

  /** The tool's arguments when the command runs the tool; a shell feature the test cannot give fails. */
  static Optional<List<String>> command(String command) {
    for (String prefix : PREFIXES) {
      if (command.startsWith(prefix)) {
        String rest = command.substring(prefix.length());
        if (rest.matches(".*[|<>;`$].*")) {
          throw new AssertionError("an example with shell syntax the test cannot run: " + command);
        }
        return Optional.of(split(rest));
      }
    }
    return Optional.empty();
  }

  /** Splits on blanks, keeping quoted parts ('...' or "...") together without their quotes. */
  static List<String> split(String s) {
    List<String> args = new ArrayList<>();
    StringBuilder arg = new StringBuilder();
    boolean inArg = false;
    char quote = 0;
    for (char c : s.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          arg.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inArg = true;
      } else if (Character.isWhitespace(c)) {
        if (inArg) {
          args.add(arg.toString());
          arg.setLength(0);
          inArg = false;
        }
      } else {
        arg.append(c);
        inArg = true;
      }
    }
    if (inArg) {
      args.add(arg.toString());
    }
    return args;
  }

  /** A page's file arguments name files from the project's folder; the tests run in the module's. */
  static List<String> fromProjectFolder(List<String> args) {
    return args.stream().map(a -> !a.startsWith("-") && a.contains("/") && Files.exists(Docs.root().resolve(a))
        ? Docs.root().resolve(a).toString() : a).toList();
  }

  static Run run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = GpuSizerCli.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
        .execute(args.toArray(String[]::new));
    return new Run(exit, out.toString(), err.toString());
  }

  static String mask(String line) {
    return NUMBER.matcher(line).replaceAll("0").replaceAll("\\s+", " ").trim();
  }

  /** The first line shown that is not found, in order, in the output; empty when all are. */
  static Optional<String> firstMissing(List<String> shown, List<String> actual, boolean figuresVary) {
    int from = 0;
    for (String line : shown) {
      String want = figuresVary ? mask(line) : line;
      int found = -1;
      for (int i = from; i < actual.size(); i++) {
        if ((figuresVary ? mask(actual.get(i)) : actual.get(i)).equals(want)) {
          found = i;
          break;
        }
      }
      if (found < 0) {
        return Optional.of(line);
      }
      from = found + 1;
    }
    return Optional.empty();
  }

  static Stream<Arguments> cliExamples() {
    return examples().stream().map(Arguments::of);
  }

  @Test
  void the_readme_and_the_cli_reference_have_examples_and_most_show_their_output() {
    List<Example> examples = examples();
    assertThat(examples).filteredOn(e -> e.where().startsWith("README.md")).hasSizeGreaterThanOrEqualTo(5);
    assertThat(examples).filteredOn(e -> e.where().startsWith("docs/cli.md")).hasSizeGreaterThanOrEqualTo(3);
    assertThat(examples).filteredOn(e -> !e.shown().isEmpty()).hasSizeGreaterThanOrEqualTo(8);
    assertThat(examples).filteredOn(e -> !e.shown().isEmpty() && !e.figuresVary()).isNotEmpty();
  }

  @Test
  void every_block_says_what_it_holds() {
    // an untyped block could hide a command that is never run
    assertThat(Docs.blocks()).allSatisfy(b -> assertThat(b.language()).as(b.toString())
        .isIn("java", "sh", "console", "text", "xml"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cliExamples")
  void runs_as_shown(Example example) {
    Run run = run(fromProjectFolder(example.args()));

    String printed = "stdout:\n" + run.out() + "\nstderr:\n" + run.err();
    assertThat(run.exit()).as("%s: exit code%n%s", example, printed).isEqualTo(example.exit());
    assertThat(firstMissing(example.shown(), run.lines(), example.figuresVary()))
        .as("%s: a line shown that it does not print (in this order%s)%n%s", example,
            example.figuresVary() ? ", numbers masked" : "", printed)
        .isEmpty();
  }

  @Test
  void a_line_it_does_not_print_is_reported() {
    // GIVEN the real output of a catalog look-up
    List<String> actual = run(List.of("gpus", "--gpu", "h100")).lines();
    // THEN a changed figure fails an exact check but not a masked one, a changed word fails both, and so does order
    String row = actual.stream().filter(l -> l.startsWith("h100-sxm")).findFirst().orElseThrow();
    String otherFigure = row.replace("3350", "3351");
    String otherWord = row.replace("NVLink", "PCIe");
    assertThat(firstMissing(List.of(row), actual, false)).isEmpty();
    assertThat(firstMissing(List.of(otherFigure), actual, false)).contains(otherFigure);
    assertThat(firstMissing(List.of(otherFigure), actual, true)).isEmpty();
    assertThat(firstMissing(List.of(otherWord), actual, true)).contains(otherWord);
    assertThat(firstMissing(List.of(row, actual.get(0)), actual, false)).contains(actual.get(0));
  }

  @Test
  void commands_are_split_as_a_shell_would() {
    assertThat(command("java -jar examples/target/gpusizer.jar gpus --gpu 'A100 80GB'"))
        .contains(List.of("gpus", "--gpu", "A100 80GB"));
    assertThat(command("mvn -B verify")).isEmpty();
  }
}
