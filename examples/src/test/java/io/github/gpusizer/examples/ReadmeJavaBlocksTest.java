package io.github.gpusizer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code ```java} block of the README compiles as printed against the library: its {@code import} lines
 * first, the rest as the body of a method, on the test class path.
 */
class ReadmeJavaBlocksTest {
  private static final Pattern BLOCK = Pattern.compile("(?m)^```java\\n(.*?)^```", Pattern.DOTALL);

  record Block(int line, String imports, String body) {
    @Override
    public String toString() {
      return "README.md line " + line;
    }
  }

  static Path readme() {
    // surefire runs in the module's folder; the README is the project's
    Path here = Path.of("").toAbsolutePath();
    for (Path p = here; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("examples"))) {
        return p.resolve("README.md");
      }
    }
    throw new IllegalStateException("no README.md above " + here);
  }

  static List<Block> blocks() throws IOException {
    String text = Files.readString(readme(), StandardCharsets.UTF_8);
    List<Block> blocks = new ArrayList<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      int line = (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
      List<String> lines = m.group(1).lines().collect(Collectors.toList());
      String imports = lines.stream().filter(l -> l.startsWith("import ")).collect(Collectors.joining("\n"));
      String body = lines.stream().filter(l -> !l.startsWith("import ")).collect(Collectors.joining("\n"));
      blocks.add(new Block(line, imports, body));
    }
    return blocks;
  }

  static Stream<Arguments> javaBlocks() throws IOException {
    return blocks().stream().map(Arguments::of);
  }

  @Test
  void the_readme_has_java_blocks_and_each_states_its_imports() throws IOException {
    List<Block> blocks = blocks();
    assertThat(blocks).hasSizeGreaterThanOrEqualTo(6);
    assertThat(blocks).allSatisfy(b -> assertThat(b.imports()).as(b.toString()).isNotBlank());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("javaBlocks")
  void compiles_as_printed(Block block, @TempDir Path out) throws IOException {
    String source = block.imports() + "\n\nclass ReadmeBlock {\n  static void run() throws Exception {\n"
        + block.body() + "\n  }\n}\n";

    List<Diagnostic<? extends JavaFileObject>> errors = compile(source, out);

    assertThat(errors).as("%s:%n%s", block, source).isEmpty();
  }

  @Test
  void a_block_that_does_not_compile_is_reported(@TempDir Path out) {
    // the check itself can fail: a missing import is an error
    String source = "class ReadmeBlock {\n  static void run() throws Exception {\n"
        + "Catalog c = Catalog.bundled();\n  }\n}\n";

    assertThat(compile(source, out)).isNotEmpty();
  }

  private static List<Diagnostic<? extends JavaFileObject>> compile(String source, Path out) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///ReadmeBlock.java"),
        JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return source;
      }
    };
    // surefire's own class path is a manifest-only jar; it names the test class path here
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
        StandardCharsets.UTF_8)) {
      boolean ok = javac.getTask(new StringWriter(), files, diagnostics,
          List.of("-classpath", classPath, "-d", out.toString(), "-proc:none", "-Xlint:none"), null,
          List.of(file)).call();
      List<Diagnostic<? extends JavaFileObject>> errors = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          errors.add(d);
        }
      }
      assertThat(ok).isEqualTo(errors.isEmpty());
      return errors;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
