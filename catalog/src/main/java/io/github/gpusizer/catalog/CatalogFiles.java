package io.github.gpusizer.catalog;

import com.google.common.base.Joiner;
import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Loads catalog files: tells their format from the header, reads them all, and checks them against each other. */
final class CatalogFiles {
  static final String BUNDLED_GPUS = "gpus.csv";
  static final String BUNDLED_OFFERINGS = "offerings.csv";

  private enum Format { GPUS, OFFERINGS, SKYPILOT }

  private record Table(Path path, CsvTable csv, Format format) {}

  private CatalogFiles() {}

  /**
   * Loads the bundled class-path resources next to {@code anchor}.
   *
   * @throws IllegalStateException if a resource is missing or its data is invalid
   */
  static Catalog bundled(Class<?> anchor, String gpusName, String offeringsName) {
    String prefix = anchor.getPackageName().replace('.', '/') + "/";
    String gpusResource = prefix + gpusName;
    String offeringsResource = prefix + offeringsName;
    String gpuText = CsvTable.readResource(anchor, gpusName, gpusResource);
    String offeringText = CsvTable.readResource(anchor, offeringsName, offeringsResource);
    try {
      CsvTable gpuTable = CsvTable.parse(gpusResource, gpuText);
      requireFormat(gpuTable, Format.GPUS);
      List<Gpu> gpus = GpuCsv.read(gpuTable).stream().map(GpuCsv.Located::gpu).toList();
      NameIndex names = index(gpus);
      CsvTable offeringTable = CsvTable.parse(offeringsResource, offeringText);
      requireFormat(offeringTable, Format.OFFERINGS);
      List<OfferingCsv.Located> offerings = OfferingCsv.read(offeringTable, names);
      return Catalog.createDistinct(gpus, unique(offerings), LoadReport.EMPTY);
    } catch (CatalogException e) {
      throw new IllegalStateException("the bundled catalog is invalid: " + e.getMessage(), e);
    }
  }

  /**
   * Loads files of any of the three formats on top of {@code base}: the result has the base's GPUs (a file GPU of
   * the same id replaces the base's) and the files' GPUs and offerings, not the base's offerings.
   */
  static Catalog load(Catalog base, List<Path> paths, SkyPilotOptions options) {
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("give at least one catalog file");
    }
    List<Table> tables = new ArrayList<>();
    for (Path path : paths) {
      CsvTable csv = CsvTable.parse(path.toString(), CsvTable.readFile(path));
      tables.add(new Table(path, csv, detect(csv)));
    }

    List<GpuCsv.Located> fileGpus = new ArrayList<>();
    Map<String, GpuCsv.Located> gpuIds = new HashMap<>();
    for (Table table : tables) {
      if (table.format() == Format.GPUS) {
        for (GpuCsv.Located located : GpuCsv.read(table.csv())) {
          GpuCsv.Located earlier = gpuIds.putIfAbsent(located.gpu().id(), located);
          if (earlier != null) {
            throw located.row().error("id", String.format("duplicate GPU id '%s'; %s line %d defines it already",
                located.gpu().id(), earlier.row().file(), earlier.row().line()));
          }
          fileGpus.add(located);
        }
      }
    }

    Map<String, Gpu> gpus = new LinkedHashMap<>();
    base.gpus().forEach(g -> gpus.put(g.id(), g));
    NameIndex.Builder names = NameIndex.builder();
    base.gpus().stream().filter(g -> !gpuIds.containsKey(g.id())).forEach(names::add);
    for (GpuCsv.Located located : fileGpus) {
      Gpu gpu = located.gpu();
      Optional<NameIndex.Clash> clash = names.add(gpu);
      if (clash.isPresent()) {
        throw located.row().error(GpuCsv.columnOf(gpu, clash.get().name()), clash.get().describe(gpu));
      }
      gpus.put(gpu.id(), gpu);
    }
    NameIndex index = names.build();

    List<OfferingCsv.Located> offerings = new ArrayList<>();
    LoadReport report = LoadReport.EMPTY;
    for (Table table : tables) {
      if (table.format() == Format.OFFERINGS) {
        offerings.addAll(OfferingCsv.read(table.csv(), index));
      } else if (table.format() == Format.SKYPILOT) {
        SkyPilotCsv.Result result = SkyPilotCsv.read(table.csv(), index, settings(table.path(), options));
        offerings.addAll(result.offerings());
        report = report.plus(result.report());
      }
    }
    return Catalog.createDistinct(ImmutableList.copyOf(gpus.values()), unique(offerings), report);
  }

  /** Loads one SkyPilot file on top of {@code base}'s GPUs. */
  static Catalog loadSkyPilot(Catalog base, Path path, SkyPilotOptions options) {
    CsvTable csv = CsvTable.parse(path.toString(), CsvTable.readFile(path));
    requireFormat(csv, Format.SKYPILOT);
    SkyPilotCsv.Result result = SkyPilotCsv.read(csv, index(base.gpus()), settings(path, options));
    return Catalog.createDistinct(base.gpus(), unique(result.offerings()), result.report());
  }

  private static NameIndex index(List<Gpu> gpus) {
    NameIndex.Builder names = NameIndex.builder();
    for (Gpu gpu : gpus) {
      names.add(gpu).ifPresent(clash -> {
        throw new IllegalArgumentException(clash.describe(gpu));
      });
    }
    return names.build();
  }

  private static SkyPilotCsv.Settings settings(Path path, SkyPilotOptions options) {
    String provider = options.provider().orElseGet(() -> {
      Path folder = path.toAbsolutePath().getParent();
      if (folder == null || folder.getFileName() == null) {
        throw CatalogException.ofFile(path.toString(),
            "cannot tell the provider from the folder; name it with SkyPilotOptions.builder().provider(...)");
      }
      return folder.getFileName().toString().toLowerCase(Locale.ROOT);
    });
    LocalDate priceDate = options.priceDate().orElseGet(() -> {
      try {
        return LocalDate.ofInstant(Files.getLastModifiedTime(path).toInstant(), ZoneOffset.UTC);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the last-modified time of " + path, e);
      }
    });
    return SkyPilotCsv.Settings.resolve(options, provider, priceDate);
  }

  private static Format detect(CsvTable csv) {
    if (GpuCsv.looksLike(csv)) {
      return Format.GPUS;
    }
    if (OfferingCsv.looksLike(csv)) {
      return Format.OFFERINGS;
    }
    if (SkyPilotCsv.looksLike(csv)) {
      return Format.SKYPILOT;
    }
    throw CatalogException.ofLine(csv.file(), csv.headerLine(), String.format(
        "cannot tell the format from the header %s; expected a %s header (%s), an %s header (%s) or a %s header (%s)",
        csv.headerText(), GpuCsv.FORMAT, Joiner.on(',').join(GpuCsv.COLUMNS),
        OfferingCsv.FORMAT, Joiner.on(',').join(OfferingCsv.COLUMNS),
        SkyPilotCsv.FORMAT, Joiner.on(',').join(SkyPilotCsv.REQUIRED)), null);
  }

  private static void requireFormat(CsvTable csv, Format expected) {
    Format actual = detect(csv);
    if (actual != expected) {
      throw CatalogException.ofLine(csv.file(), csv.headerLine(), String.format(
          "expected a %s file, but the header %s is that of a %s file", name(expected),
          csv.headerText(), name(actual)), null);
    }
  }

  private static String name(Format format) {
    return switch (format) {
      case GPUS -> GpuCsv.FORMAT;
      case OFFERINGS -> OfferingCsv.FORMAT;
      case SKYPILOT -> SkyPilotCsv.FORMAT;
    };
  }

  /** The offerings, failing at the second of two with the same key. */
  private static List<Offering> unique(List<OfferingCsv.Located> offerings) {
    Map<String, OfferingCsv.Located> byKey = new HashMap<>();
    List<Offering> result = new ArrayList<>();
    for (OfferingCsv.Located located : offerings) {
      OfferingCsv.Located earlier = byKey.putIfAbsent(located.offering().identity(), located);
      if (earlier != null) {
        throw CatalogException.ofLine(located.file(), located.line(), String.format(
            "duplicate offering %s (provider/instance_type/region, case aside); %s line %d has it already as %s",
            located.offering().key(), earlier.file(), earlier.line(), earlier.offering().key()), null);
      }
      result.add(located.offering());
    }
    return result;
  }
}
