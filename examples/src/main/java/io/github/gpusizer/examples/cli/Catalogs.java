package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.LoadReport;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.catalog.SkyPilotOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
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
   * @param priceDate the date the SkyPilot files' prices were read, or null for each file's modification date
   * @throws io.github.gpusizer.catalog.CatalogException naming file, line and column of bad content
   */
  static Catalog load(List<Path> files, boolean withoutBundledOfferings, boolean strict, LocalDate priceDate)
      throws IOException {
    if (files.isEmpty()) {
      if (priceDate != null) {
        throw new IllegalArgumentException("--price-date sets the price date of SkyPilot --catalog files; give at "
            + "least one --catalog FILE");
      }
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
    SkyPilotOptions.Builder options = SkyPilotOptions.builder();
    if (strict) {
      options.strict();
    }
    if (priceDate != null) {
      options.priceDate(priceDate);
    }
    SkyPilotOptions skyPilot = options.build();
    Catalog mine = Catalog.load(skyPilot, files.toArray(Path[]::new));
    return withoutBundledOfferings ? mine : Catalog.bundled().merge(mine);
  }

  /**
   * The offerings of the user's files (not the bundled ones) whose price is older than {@link Offering#STALE_AFTER}
   * on {@code today}; none when no file was given.
   */
  static List<Offering> staleOfferings(Catalog catalog, List<Path> files, LocalDate today) {
    if (files.isEmpty()) {
      return List.of();
    }
    java.util.Set<Offering> bundled = java.util.Set.copyOf(Catalog.bundled().offerings());
    return catalog.offerings().stream()
        .filter(o -> !bundled.contains(o))
        .filter(o -> o.stalenessWarning(today, Offering.STALE_AFTER).isPresent())
        .toList();
  }

  /**
   * The one line that tells the user which rows of their files were left out and how many of their prices are
   * stale, or empty: {@code "catalog: left out 212 rows: ...; --strict fails on accelerators not modelled; 40
   * offerings priced more than 180 days ago (oldest read 2025-01-06)"}.
   */
  static String summary(LoadReport report, List<Offering> stale) {
    List<String> parts = new java.util.ArrayList<>();
    if (!report.isEmpty()) {
      parts.add(report.summary());
      if (report.count(LoadReport.Reason.UNKNOWN_ACCELERATOR) > 0) {
        parts.add("--strict fails on accelerators not modelled");
      }
    }
    if (!stale.isEmpty()) {
      LocalDate oldest = stale.stream().map(Offering::priceDate).min(LocalDate::compareTo).orElseThrow();
      parts.add(stale.size() + (stale.size() == 1 ? " offering" : " offerings") + " priced more than "
          + Offering.STALE_AFTER.getDays() + " days ago (oldest read " + oldest + "): check the providers' "
          + "current prices");
    }
    return parts.isEmpty() ? "" : "catalog: " + String.join("; ", parts);
  }
}
