package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Options every subcommand shares: output format, extra catalogs, debugging. */
final class CommonOptions {
  @Option(names = "--format", paramLabel = "table|json|csv", defaultValue = "table",
      description = "Output format: an aligned table (default), JSON or CSV.")
  Format format = Format.TABLE;

  @Option(names = "--catalog", paramLabel = "FILE",
      description = "A catalog file of your own (GpuSizer CSV of offerings or GPUs, or a SkyPilot catalog CSV), "
          + "added to the bundled one; repeatable.")
  List<Path> catalogs = new ArrayList<>();

  @Option(names = "--no-bundled-offerings",
      description = "Use only the offerings of the --catalog files (the bundled GPUs stay known).")
  boolean noBundledOfferings;

  @Option(names = "--strict",
      description = "Fail on a SkyPilot row whose accelerator the catalog does not model (Trainium, Inferentia, "
          + "Gaudi, a GPU it lacks) instead of leaving the row out and naming it in one line on stderr.")
  boolean strict;

  @Option(names = "--debug", description = "Print the stack trace of an error.")
  boolean debug;

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  private Catalog catalog;

  /**
   * The bundled catalog plus the user's files, loaded once. Rows of the files that were left out are summed up in
   * one line on stderr, so that stdout stays a clean table, JSON or CSV document.
   */
  Catalog catalog() {
    if (catalog == null) {
      try {
        catalog = Catalogs.load(catalogs, noBundledOfferings, strict);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      String summary = Catalogs.summary(catalog.loadReport());
      if (!summary.isEmpty() && mixee != null) {
        PrintWriter err = mixee.commandLine().getErr();
        err.println(summary);
        err.flush();
      }
    }
    return catalog;
  }
}
