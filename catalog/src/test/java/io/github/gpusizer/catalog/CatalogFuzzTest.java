package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.function.Function;

/**
 * Fuzz targets for the three catalog formats, through the public loaders. The contract: any bytes either load into
 * a consistent catalog or fail with a {@link CatalogException} that names the file and states a problem; nothing
 * else escapes (no {@code NumberFormatException}, {@code ArithmeticException}, index or null-pointer errors).
 *
 * <p>Without {@code JAZZER_FUZZ} each target runs its seed corpus ({@code CatalogFuzzTestInputs/<method>/}) as a
 * regression test. With {@code JAZZER_FUZZ=1} one target fuzzes for its {@code maxDuration}, e.g. {@code
 * JAZZER_FUZZ=1 mvn -pl catalog test -Dtest=CatalogFuzzTest#gpusCsv}; crashing inputs land in that folder.
 */
class CatalogFuzzTest {
  /** One folder per JVM for the file each input is written to: the loaders read files. */
  private static final Path DIR = tempDir();

  private static Path tempDir() {
    try {
      Path dir = Files.createTempDirectory("gpusizer-fuzz");
      dir.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path write(String name, byte[] data) {
    Path file = DIR.resolve(name);
    try {
      Files.write(file, data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    file.toFile().deleteOnExit();
    return file;
  }

  @FuzzTest(maxDuration = "2m")
  void gpusCsv(byte[] data) {
    Path file = write("gpus.csv", data);
    loadsOrFailsCleanly(file, Catalog::load);
  }

  @FuzzTest(maxDuration = "2m")
  void offeringsCsv(byte[] data) {
    Path file = write("offerings.csv", data);
    loadsOrFailsCleanly(file, Catalog::load);
  }

  @FuzzTest(maxDuration = "2m")
  void skyPilotCsv(byte[] data) {
    Path file = write("vms.csv", data);
    loadsOrFailsCleanly(file, f -> Catalog.loadSkyPilot(f, "aws", LocalDate.of(2025, 1, 6)));
  }

  private static void loadsOrFailsCleanly(Path file, Function<Path, Catalog> load) {
    Catalog catalog;
    try {
      catalog = load.apply(file);
    } catch (CatalogException e) {
      assertThat(e.getMessage()).startsWith(file.toString());
      assertThat(e.problem()).isNotBlank();
      return;
    }
    // A catalog that loads is consistent: every GPU is found by its own id and name, every offering's GPU is one
    // of the catalog's, and the loaded numbers are within their documented ranges.
    for (Gpu gpu : catalog.gpus()) {
      assertThat(catalog.gpu(gpu.id())).isSameAs(gpu);
      assertThat(catalog.gpu(gpu.name())).isSameAs(gpu);
      assertThat(gpu.memory().bytes()).isPositive();
    }
    for (Offering offering : catalog.offerings()) {
      assertThat(catalog.gpu(offering.gpu().id())).isEqualTo(offering.gpu());
      assertThat(offering.gpuCount()).isPositive();
      assertThat(offering.onDemandPerHour().isNegative()).isFalse();
      assertThat(offering.toString()).isNotEmpty();
    }
  }
}
