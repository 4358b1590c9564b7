package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The core module exports exactly its API packages; the sizing machinery stays inside. */
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

    // THEN it exports these packages to everyone, opens none, and keeps the sizing package private
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
              ROOT + ".task",
              ROOT + ".sizing");
    }
  }
}
