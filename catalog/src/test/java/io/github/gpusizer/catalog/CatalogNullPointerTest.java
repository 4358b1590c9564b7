package io.github.gpusizer.catalog;

import com.google.common.testing.NullPointerTester;
import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** Every public entry point rejects null arguments at once with a NullPointerException. */
class CatalogNullPointerTest {
  private final NullPointerTester tester = new NullPointerTester()
      .setDefault(Path.class, Path.of("no-such-file.csv"))
      .setDefault(LocalDate.class, LocalDate.of(2025, 1, 6))
      .setDefault(SkyPilotOptions.class, SkyPilotOptions.defaults())
      .setDefault(OfferingFilter.class, OfferingFilter.any())
      .setDefault(Catalog.class, Catalog.of(java.util.List.of(), java.util.List.of()));

  @Test
  void catalog_static_methods() {
    tester.testAllPublicStaticMethods(Catalog.class);
  }

  @Test
  void catalog_instance_methods() {
    tester.testAllPublicInstanceMethods(Fixtures.gpusAndOfferings());
  }

  @Test
  void builders_and_options() {
    tester.testAllPublicInstanceMethods(OfferingFilter.builder());
    tester.testAllPublicInstanceMethods(SkyPilotOptions.builder());
    tester.testAllPublicStaticMethods(Money.class);
    tester.testAllPublicInstanceMethods(LoadReport.EMPTY);
  }
}
