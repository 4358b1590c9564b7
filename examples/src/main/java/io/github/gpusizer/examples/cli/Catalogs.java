package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.LoadReport;
import io.github.gpusizer.catalog.SkyPilotOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/** The catalog a command works on: the bundled one, with the user's files laid over it. */
final class Catalogs {
  private Catalogs() {}

  /**
   * The bundled catalog merged with {@code files} (their GPUs and offerings win where both define one), or with
   * only the files' offerings when {@code withoutBundledOfferings}.
   *
   * @throws NoSuchFileException if a file does not exist (checked first, for a plain message)
   * @param strict whether a SkyPilot row of an accelerator the catalog does not model fails the load
   * @throws io.github.gpusizer.catalog.CatalogException naming file, line and column of bad content
   */
  static Catalog load(List<Path> files, boolean withoutBundledOfferings, boolean strict) throws IOException {
    if (files.isEmpty()) {
      if (withoutBundledOfferings) {
        throw new IllegalArgumentException("--no-bundled-offerings needs at least one --catalog FILE");
      }
      return Catalog.bundled();
    }
    for (Path file : files) {
      if (!Files.isRegularFile(file)) {
        throw new NoSuchFileException(file.toString());
      }
      if (!Files.isReadable(file)) {
        throw new java.nio.file.AccessDeniedException(file.toString());
      }
    }
    SkyPilotOptions skyPilot = strict ? SkyPilotOptions.builder().strict().build() : SkyPilotOptions.defaults();
    Catalog mine = Catalog.load(skyPilot, files.toArray(Path[]::new));
    return withoutBundledOfferings ? mine : Catalog.bundled().merge(mine);
  }

  /**
   * The one line that tells the user which rows of their files were left out, or empty:
   * {@code "catalog: left out 212 rows: ...; --strict fails on accelerators not modelled"}.
   */
  static String summary(LoadReport report) {
    if (report.isEmpty()) {
      return "";
    }
    String line = "catalog: " + report.summary();
    return report.count(LoadReport.Reason.UNKNOWN_ACCELERATOR) > 0
        ? line + "; --strict fails on accelerators not modelled"
        : line;
  }
}
