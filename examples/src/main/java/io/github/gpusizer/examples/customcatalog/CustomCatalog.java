package io.github.gpusizer.examples.customcatalog;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.GpuSizer;
import io.github.gpusizer.core.Recommendation;
import io.github.gpusizer.examples.quickstart.QuickStart;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;

/**
 * A catalog of your own: your prices in the library's offerings CSV, and a SkyPilot catalog file, each used alone or
 * laid over the bundled catalog.
 *
 * <pre>{@code
 * Catalog mine = Catalog.load(Path.of("my-offerings.csv"));          // bundled GPUs, only my offerings
 * Catalog both = Catalog.bundled().merge(mine);                       // bundled offerings plus mine
 * Catalog lambda = Catalog.loadSkyPilot(Path.of("lambda/vms.csv"), "lambda", LocalDate.of(2026, 11, 30));
 * Recommendation rec = GpuSizer.forTask(task).catalog(mine).recommend();
 * }</pre>
 *
 * <p>Run: {@code java -cp gpusizer.jar io.github.gpusizer.examples.customcatalog.CustomCatalog [offerings.csv]
 * [skypilot-vms.csv]}; without arguments it uses the example files shipped in the jar. The same files work on the
 * command line: {@code gpusizer recommend ... --catalog my-offerings.csv [--no-bundled-offerings]}.
 */
public final class CustomCatalog {
  /** The date the SkyPilot example file's prices were read (that of the bundled Lambda rows). */
  static final LocalDate SKYPILOT_PRICE_DATE = LocalDate.of(2026, 11, 30);

  private CustomCatalog() {}

  /** Only your offerings (the bundled GPUs stay known, so the file may name them by any alias). */
  public static Catalog ownPrices(Path offeringsCsv) {
    return Catalog.load(offeringsCsv);
  }

  /** The bundled catalog with your offerings added (yours win where both define the same instance). */
  public static Catalog bundledPlus(Path offeringsCsv) {
    return Catalog.bundled().merge(Catalog.load(offeringsCsv));
  }

  /** A SkyPilot {@code vms.csv} of one provider. */
  public static Catalog skyPilot(Path vmsCsv, String provider) {
    return Catalog.loadSkyPilot(vmsCsv, provider, SKYPILOT_PRICE_DATE);
  }

  /** The quick start's task sized over a catalog. */
  public static Recommendation recommend(Catalog catalog) {
    return GpuSizer.forTask(QuickStart.task()).catalog(catalog).recommend();
  }

  /** Copies an example file shipped in the jar to a temporary directory, keeping its folder name (the provider). */
  static Path example(String resource) {
    try (InputStream in = CustomCatalog.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("example file " + resource + " is missing from the class path");
      }
      Path dir = Files.createTempDirectory("gpusizer-example");
      Path parent = Path.of(resource).getParent();
      Path target = dir.resolve(parent.getFileName().toString()).resolve(Path.of(resource).getFileName().toString());
      Files.createDirectories(target.getParent());
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static void main(String[] args) {
    Path own = args.length > 0 ? Path.of(args[0]) : example("/io/github/gpusizer/examples/customcatalog/my-offerings.csv");
    Path sky = args.length > 1 ? Path.of(args[1])
        : example("/io/github/gpusizer/examples/customcatalog/skypilot/lambda/vms.csv");
    Recommendation mine = recommend(ownPrices(own));
    System.out.println("On my own machines: " + mine.best().map(Object::toString).orElse("nothing fits"));
    Recommendation lambda = recommend(skyPilot(sky, "lambda"));
    System.out.println("On Lambda (SkyPilot catalog): " + lambda.best().map(Object::toString).orElse("nothing fits"));
    Recommendation both = recommend(bundledPlus(own));
    System.out.println("Over everything: " + both.best().map(Object::toString).orElse("nothing fits"));
  }
}
