package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
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
   * @throws io.github.gpusizer.catalog.CatalogException naming file, line and column of bad content
   */
  static Catalog load(List<Path> files, boolean withoutBundledOfferings) throws IOException {
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
    Catalog mine = Catalog.load(files.toArray(Path[]::new));
    return withoutBundledOfferings ? mine : Catalog.bundled().merge(mine);
  }
}
