package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.examples.support.Printable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** Options every subcommand shares: output format, extra catalogs, debugging. */
final class CommonOptions {
  Format format = Format.TABLE;

  @Option(names = "--format", completionCandidates = Completions.Formats.class, paramLabel = "table|json|csv", defaultValue = "table",
      description = "Output format: an aligned table (default), JSON or CSV; recommend also writes a SkyPilot task "
          + "YAML (skypilot).")
  void format(Format value) {
    if (value == Format.SKYPILOT && !"recommend".equals(mixee.name())) {
      throw new ParameterException(mixee.commandLine(), "--format skypilot is a SkyPilot task for recommend's best "
          + "option; " + mixee.name() + " prints table, json or csv");
    }
    format = value;
  }

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

  @Option(names = "--price-date", paramLabel = "YYYY-MM-DD", converter = DateConverter.class,
      description = "The date the prices of the SkyPilot --catalog files were read (default: each file's "
          + "modification date); prices older than 180 days are counted in the stderr summary line.")
  LocalDate priceDate;

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
        catalog = Catalogs.load(catalogs, noBundledOfferings, strict, priceDate, warning -> {
          mixee.commandLine().getErr().println(Printable.line("warning: " + warning));
          mixee.commandLine().getErr().flush();
        });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      String summary = Catalogs.summary(catalog.loadReport(), Catalogs.staleOfferings(catalog, catalogs,
          LocalDate.now(ZoneOffset.UTC)));
      if (!summary.isEmpty() && mixee != null) {
        PrintWriter err = mixee.commandLine().getErr();
        err.println(Printable.line(summary));
        err.flush();
      }
    }
    return catalog;
  }

  /** {@code 2025-01-06}; anything else is rejected with the expected form. */
  static final class DateConverter implements ITypeConverter<LocalDate> {
    @Override
    public LocalDate convert(String value) {
      try {
        return LocalDate.parse(value.strip());
      } catch (DateTimeParseException e) {
        throw new TypeConversionException("'" + value + "' is not a date of the form YYYY-MM-DD, e.g. 2025-01-06");
      }
    }
  }
}
