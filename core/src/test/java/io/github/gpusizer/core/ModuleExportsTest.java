package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The core module exports exactly its API packages; the sizing machinery is package-private in the root package. */
class ModuleExportsTest {
  private static final String ROOT = "io.github.gpusizer.core";

  @Test
  void module_exports_exactly_the_api_packages() throws IOException, URISyntaxException {
    // GIVEN the compiled module descriptor next to the main classes (target/classes)
    Path classes = Path.of(GpuSizer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ModuleDescriptor descriptor;
    try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
      descriptor = ModuleDescriptor.read(in);
    }

    // THEN it exports these packages to everyone, opens none, 
    assertThat(descriptor.name()).isEqualTo(ROOT);
    assertThat(descriptor.exports()).allSatisfy(e -> assertThat(e.isQualified()).isFalse());
    assertThat(descriptor.exports()).extracting(ModuleDescriptor.Exports::source).containsExactlyInAnyOrder(
        ROOT, ROOT + ".cost", ROOT + ".estimate", ROOT + ".model", ROOT + ".serving", ROOT + ".task");
    assertThat(descriptor.opens()).isEmpty();

    // AND every package of the module is either exported or listed here as internal
    try (Stream<Path> dirs = Files.walk(classes.resolve(ROOT.replace('.', '/')))) {
      assertThat(dirs.filter(Files::isDirectory).map(d -> classes.relativize(d).toString().replace('/', '.'))
          .collect(Collectors.toSet()))
          .containsExactlyInAnyOrder(ROOT, ROOT + ".cost", ROOT + ".estimate", ROOT + ".model", ROOT + ".serving",
              ROOT + ".task");
    }
  }

  @Test
  void the_root_package_shows_only_the_builder_and_its_results() throws IOException, URISyntaxException {
    // GIVEN the top-level classes compiled into the root package (the sizing engine lives there too)
    Path classes = Path.of(GpuSizer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Set<String> publicTypes;
    try (Stream<Path> files = Files.list(classes.resolve(ROOT.replace('.', '/')))) {
      publicTypes = files.map(f -> f.getFileName().toString())
          .filter(name -> name.endsWith(".class") && !name.contains("$") && !name.equals("package-info.class"))
          .map(name -> name.substring(0, name.length() - ".class".length()))
          .filter(name -> Modifier.isPublic(load(ROOT + "." + name).getModifiers()))
          .collect(Collectors.toSet());
    }

    // THEN the public ones are exactly the entry point, the builder and the result types; the engine is hidden
    assertThat(publicTypes).containsExactlyInAnyOrder("GpuSizer", "Sizer", "Recommendation", "Option", "Rejection",
        "Suggestion", "Objective", "NoFeasibleOptionException");
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, ModuleExportsTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new AssertionError("compiled class not loadable: " + name, e);
    }
  }
}
