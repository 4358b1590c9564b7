package io.github.gpusizer.examples;

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

/** The project's documentation as the tests read it: README.md and the pages of docs/, with their fenced blocks. */
final class Docs {
  /** A fenced block: its info string ("java", "console figures-vary"), its text and the line its fence is on. */
  record Block(Page page, int line, String info, String text) {
    String language() {
      return info.isBlank() ? "" : info.trim().split("\\s+")[0];
    }

    @Override
    public String toString() {
      return page.name() + " line " + line;
    }
  }

  /** A page, named by its path from the project's root ("README.md", "docs/cli.md"). */
  record Page(String name, Path path, String text) {
    List<Block> blocks() {
      List<Block> blocks = new ArrayList<>();
      Matcher m = FENCE.matcher(text);
      while (m.find()) {
        blocks.add(new Block(this, lineOf(m.start()), m.group(1), m.group(2)));
      }
      return blocks;
    }

    /** The text outside fenced blocks, line by line (fenced lines are blank, so line numbers hold). */
    List<String> proseLines() {
      List<String> lines = new ArrayList<>();
      boolean fenced = false;
      for (String line : text.split("\n", -1)) {
        if (line.startsWith("```")) {
          fenced = !fenced;
          lines.add("");
        } else {
          lines.add(fenced ? "" : line);
        }
      }
      return lines;
    }

    /** Every heading outside fenced blocks, without its {@code #}s. */
    List<String> headings() {
      return proseLines().stream().map(HEADING::matcher).filter(Matcher::matches).map(h -> h.group(2)).toList();
    }

    int lineOf(int offset) {
      return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }
  }

  private static final Pattern FENCE = Pattern.compile("(?m)^```([^\\n`]*)\\n(.*?)^```", Pattern.DOTALL);
  static final Pattern HEADING = Pattern.compile("^(#{1,6}) (.+)$");

  private Docs() {}

  /** The project's root: surefire runs in the module's folder, the README is the project's. */
  static Path root() {
    Path here = Path.of("").toAbsolutePath();
    for (Path p = here; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("examples"))) {
        return p;
      }
    }
    throw new IllegalStateException("no README.md above " + here);
  }

  static Page page(String name) {
    Path path = root().resolve(name);
    try {
      return new Page(name, path, Files.readString(path, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** README.md, then docs/*.md in name order. */
  static List<Page> pages() {
    List<Page> pages = new ArrayList<>();
    pages.add(page("README.md"));
    try (Stream<Path> files = Files.list(root().resolve("docs"))) {
      files.filter(f -> f.getFileName().toString().endsWith(".md")).sorted()
          .forEach(f -> pages.add(page("docs/" + f.getFileName())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages;
  }

  static List<Block> blocks() {
    return pages().stream().flatMap(p -> p.blocks().stream()).toList();
  }
}
