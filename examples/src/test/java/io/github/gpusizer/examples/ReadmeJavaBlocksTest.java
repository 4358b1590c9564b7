package io.github.gpusizer.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * Every {@code ```java} block of the README and of the pages in docs/ compiles as printed against the library: its
 * {@code import} lines first, the rest as the body of a method, on the test class path; and each block that reads no
 * file of the reader's ({@code Path.of}) also runs.
 */
class ReadmeJavaBlocksTest {
  record Block(String where, String imports, String body) {
    @Override
    public String toString() {
      return where;
    }

    /** A block that names a file of the reader's own ("config.json", "my-offerings.csv") is compiled, not run. */
    boolean readsFiles() {
      return body.contains("Path.of(");
    }
  }

  static List<Block> blocks() {
    List<Block> blocks = new ArrayList<>();
    for (Docs.Block b : Docs.blocks()) {
      if (b.language().equals("java")) {
        List<String> lines = b.text().lines().collect(Collectors.toList());
        String imports = lines.stream().filter(l -> l.startsWith("import ")).collect(Collectors.joining("\n"));
        String body = lines.stream().filter(l -> !l.startsWith("import ")).collect(Collectors.joining("\n"));
        blocks.add(new Block(b.toString(), imports, body));
      }
    }
    return blocks;
  }

  static Stream<Arguments> javaBlocks() {
    return blocks().stream().map(Arguments::of);
  }

  @Test
  void the_docs_have_java_blocks_and_each_states_its_imports() {
    List<Block> blocks = blocks();
    assertThat(blocks).hasSizeGreaterThanOrEqualTo(7);
    assertThat(blocks).filteredOn(b -> b.where().startsWith("README.md")).isNotEmpty();
    assertThat(blocks).filteredOn(b -> !b.readsFiles()).hasSizeGreaterThanOrEqualTo(4);
    assertThat(blocks).allSatisfy(b -> assertThat(b.imports()).as(b.toString()).isNotBlank());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("javaBlocks")
  void compiles_as_printed_and_runs(Block block, @TempDir Path out) throws Exception {
    String source = block.imports() + "\n\nclass ReadmeBlock {\n  static void run() throws Exception {\n"
        + block.body() + "\n  }\n}\n";

    List<Diagnostic<? extends JavaFileObject>> errors = compile(source, out);

    assertThat(errors).as("%s:%n%s", block, source).isEmpty();
    if (!block.readsFiles()) {
      run(out);
    }
  }

  @Test
  void a_block_that_throws_is_reported(@TempDir Path out) {
    // the run itself can fail: an unknown preset throws
    String source = "import io.github.gpusizer.core.model.Presets;\n\nclass ReadmeBlock {\n"
        + "  static void run() throws Exception {\nPresets.get(\"no-such-model\");\n  }\n}\n";
    assertThat(compile(source, out)).isEmpty();

    assertThatThrownBy(() -> run(out)).isInstanceOf(IllegalArgumentException.class);
  }

  /** Runs the compiled block's method; an exception it throws is thrown here. */
  private static void run(Path out) throws Exception {
    try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()},
        ReadmeJavaBlocksTest.class.getClassLoader())) {
      Method run = loader.loadClass("ReadmeBlock").getDeclaredMethod("run");
      run.setAccessible(true);
      try {
        run.invoke(null);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof Exception cause) {
          throw cause;
        }
        throw e;
      }
    }
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
