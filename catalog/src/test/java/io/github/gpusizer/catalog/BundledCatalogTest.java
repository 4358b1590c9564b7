package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

class BundledCatalogTest {
  private static boolean bundledDataPresent() {
    return Catalog.class.getResource(CatalogFiles.BUNDLED_GPUS) != null
        && Catalog.class.getResource(CatalogFiles.BUNDLED_OFFERINGS) != null;
  }

  @Test
  void bundled_catalog_loads_once_and_resolves_its_offerings() {
    assumeTrue(bundledDataPresent(), "bundled gpus.csv/offerings.csv not on the class path yet");

    // WHEN loaded twice  THEN it is one shared instance with GPUs, and every offering carries one of them
    Catalog catalog = Catalog.bundled();
    assertThat(Catalog.bundled()).isSameAs(catalog);
    assertThat(catalog.gpus()).isNotEmpty();
    assertThat(catalog.offerings()).allSatisfy(o -> assertThat(catalog.gpu(o.gpu().id())).isSameAs(o.gpu()));
    assertThat(catalog.loadReport().isEmpty()).isTrue();
  }

  @Test
  void missing_bundled_resource_is_an_illegal_state_naming_it() {
    assertThatThrownBy(() -> CatalogFiles.bundled(Catalog.class, "no-such-gpus.csv", "no-such-offerings.csv"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("bundled catalog resource io/github/gpusizer/catalog/no-such-gpus.csv is missing from the "
            + "class path; the gpusizer-catalog jar is incomplete");
  }

  @Test
  void invalid_bundled_data_is_an_illegal_state_naming_the_line() {
    // The test resources play the bundled files; offerings.csv in place of gpus.csv has the wrong header.
    assertThatThrownBy(() -> CatalogFiles.bundled(Catalog.class, "testdata/offerings.csv", "testdata/offerings.csv"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("the bundled catalog is invalid: io/github/gpusizer/catalog/testdata/offerings.csv "
            + "line 1: expected a gpus.csv file")
        .hasCauseInstanceOf(CatalogException.class);
  }

  @Test
  void bundled_loader_reads_valid_resources() {
    Catalog catalog = CatalogFiles.bundled(Catalog.class, "testdata/gpus.csv", "testdata/offerings.csv");
    assertThat(catalog.gpus()).hasSize(9);
    assertThat(catalog.offerings()).hasSize(6);
  }
}
