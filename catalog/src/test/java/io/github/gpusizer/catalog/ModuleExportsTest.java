package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The module exports exactly the API package; the loaders stay package-private machinery. */
class ModuleExportsTest {
  @Test
  void module_exports_exactly_the_catalog_package() throws IOException, URISyntaxException {
    // GIVEN the compiled module descriptor next to the main classes (target/classes)
    Path classes = Path.of(Catalog.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ModuleDescriptor descriptor;
    try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
      descriptor = ModuleDescriptor.read(in);
    }

    // THEN it is the catalog module, exporting one package to everyone
    assertThat(descriptor.name()).isEqualTo("io.github.gpusizer.catalog");
    assertThat(descriptor.exports()).singleElement().satisfies(e -> {
      assertThat(e.source()).isEqualTo("io.github.gpusizer.catalog");
      assertThat(e.isQualified()).isFalse();
    });
    assertThat(descriptor.opens()).isEmpty();
  }
}
