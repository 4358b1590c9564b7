package io.github.gpusizer.catalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Test data: the small catalogs under {@code src/test/resources/.../testdata} and files written on the fly. */
final class Fixtures {
  private Fixtures() {}

  /** A test resource under {@code testdata/} as a file. */
  static Path resource(String name) {
    URL url = Fixtures.class.getResource("testdata/" + name);
    if (url == null) {
      throw new IllegalStateException("missing test resource testdata/" + name);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The test GPUs (testdata/gpus.csv), no offerings. */
  static Catalog gpus() {
    return CatalogFiles.load(Catalog.of(List.of(), List.of()), List.of(resource("gpus.csv")),
        SkyPilotOptions.defaults());
  }

  /** Files loaded on top of the test GPUs, as {@link Catalog#load} does on top of the bundled ones. */
  static Catalog load(Path... files) {
    return CatalogFiles.load(gpus(), List.of(files), SkyPilotOptions.defaults());
  }

  /** The test GPUs and test offerings (testdata/offerings.csv). */
  static Catalog gpusAndOfferings() {
    return CatalogFiles.load(Catalog.of(List.of(), List.of()),
        List.of(resource("gpus.csv"), resource("offerings.csv")), SkyPilotOptions.defaults());
  }

  /** Writes lines (joined with '\n', one at the end) to a file under {@code dir}, creating folders. */
  static Path write(Path dir, String name, String... lines) {
    Path file = dir.resolve(name);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, String.join("\n", lines) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** The header line of testdata/gpus.csv. */
  static String gpuHeader() {
    return String.join(",", GpuCsv.COLUMNS);
  }

  /** The header line of the offerings.csv format. */
  static String offeringHeader() {
    return String.join(",", OfferingCsv.COLUMNS);
  }

  /** A valid gpus.csv row with this id and these aliases (an A10-like card). */
  static String gpuRow(String id, String name, String aliases) {
    return id + "," + name + "," + aliases + ",NVIDIA,Ampere,8.6,2021,24,GDDR6,600,,31.2,62.5,125,125,,250,,true,"
        + "PCIE,0,4,150,72,11.1,,,,,,test datasheet,";
  }

  /** A valid offerings.csv row. */
  static String offeringRow(String provider, String instance, String region, String gpu, String price) {
    return provider + "," + instance + "," + region + "," + gpu + ",1,8,32,100," + price
        + ",,USD,PER_SECOND,,,,2025-01-06,test";
  }
}
