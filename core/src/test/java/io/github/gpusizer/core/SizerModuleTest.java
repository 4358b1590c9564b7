package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The sizer's API package is exported to everyone; its machinery package is not. */
class SizerModuleTest {
  @Test
  void exports_the_api_package_and_keeps_the_sizing_machinery_private() throws Exception {
    // GIVEN the compiled descriptor of the core module
    Path classes = Path.of(GpuSizer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ModuleDescriptor descriptor;
    try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
      descriptor = ModuleDescriptor.read(in);
    }
    // THEN
    Set<String> exported = descriptor.exports().stream().filter(e -> !e.isQualified())
        .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
    assertThat(exported).contains("io.github.gpusizer.core", "io.github.gpusizer.core.cost",
        "io.github.gpusizer.core.estimate", "io.github.gpusizer.core.task");
    assertThat(exported).doesNotContain("io.github.gpusizer.core.sizing");
  }
}
