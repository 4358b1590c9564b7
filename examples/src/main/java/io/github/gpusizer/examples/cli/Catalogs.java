package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.LoadReport;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.catalog.SkyPilotOptions;
import io.github.gpusizer.core.cost.ExchangeRates;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

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
    return load(files, withoutBundledOfferings, strict, priceDate, w -> { });
  }

  /** As {@link #load(List, boolean, boolean, LocalDate)}, telling {@code warnings} of suspect offerings in the files. */
  static Catalog load(List<Path> files, boolean withoutBundledOfferings, boolean strict, LocalDate priceDate,
      Consumer<String> warnings)
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
      if (Files.isDirectory(file)) {
        throw new IllegalArgumentException("--catalog " + file + " is a directory; give a catalog CSV file");
      }
      if (Files.exists(file) && !Files.isRegularFile(file)) {
        throw new IllegalArgumentException("--catalog " + file
            + " is not a regular file (a FIFO, socket or device); give a catalog CSV file");
      }
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
    lint(mine.offerings(), warnings);
    return withoutBundledOfferings ? mine : Catalog.bundled().merge(mine);
  }

  /**
   * The most an offering may cost per GPU-hour, in US dollars: a hundred times the dearest on-demand GPU-hour
   * sold (about 10 USD for an H100 or H200); a price above it is a typo or a unit mix-up, not a price.
   */
  static final BigDecimal MAX_USD_PER_GPU_HOUR = new BigDecimal(1000);

  /**
   * The rules of the user's offerings that the catalog format leaves open: a price above
   * {@link #MAX_USD_PER_GPU_HOUR} (converted at the bundled rates) is refused; a price of 0, and 0 vCPUs or 0 RAM
   * (read as "unknown", so the host is not checked against them) are warned about.
   *
   * @throws IllegalArgumentException naming the offering and the price
   */
  static void lint(List<Offering> offerings, Consumer<String> warnings) {
    ExchangeRates rates = ExchangeRates.bundled();
    List<String> free = new ArrayList<>();
    List<String> unknownHost = new ArrayList<>();
    for (Offering o : offerings) {
      String id = o.provider() + "/" + o.instanceType() + "/" + o.region();
      List<Money> prices = new ArrayList<>();
      prices.add(o.onDemandPerHour());
      o.spotPerHour().ifPresent(prices::add);
      for (Money price : prices) {
        String kind = price == o.onDemandPerHour() ? "on-demand" : "spot";
        checkPrice(id, kind, price, o.gpuCount(), rates);
        if (price.amount().signum() == 0) {
          free.add(id + " (" + kind + ")");
        }
      }
      if (o.vcpus() == 0 || o.ram().bytes() == 0) {
        unknownHost.add(id + " (" + (o.vcpus() == 0 && o.ram().bytes() == 0 ? "0 vCPUs and 0 RAM"
            : o.vcpus() == 0 ? "0 vCPUs" : "0 RAM") + ")");
      }
    }
    // one line per kind, however many offerings: a real catalog file can hold thousands
    if (!free.isEmpty()) {
      warnings.accept("--catalog: " + count(free) + " priced at 0 per hour, so they cost 0 and rank first on cost; "
          + "give the real prices: " + examples(free));
    }
    if (!unknownHost.isEmpty()) {
      warnings.accept("--catalog: " + count(unknownHost) + " with 0 vCPUs or 0 RAM, read as unknown, so the "
          + "recommended host is not checked against them: " + examples(unknownHost));
    }
  }

  private static String count(List<String> ids) {
    return ids.size() == 1 ? "1 offering" : ids.size() + " offerings";
  }

  /** The first few ids, then how many more. */
  private static String examples(List<String> ids) {
    int shown = Math.min(3, ids.size());
    return String.join(", ", ids.subList(0, shown)) + (ids.size() > shown ? " and " + (ids.size() - shown) + " more"
        : "");
  }

  private static void checkPrice(String id, String kind, Money price, int gpus, ExchangeRates rates) {
    BigDecimal perGpu = price.amount().divide(BigDecimal.valueOf(gpus), MathContext.DECIMAL64);
    BigDecimal usd;
    try {
      usd = rates.convert(Money.of(perGpu, price.currency()), USD).amount().amount();
    } catch (IllegalArgumentException noRate) {
      usd = perGpu; // no rate to USD: the amount as it is
    }
    if (usd.compareTo(MAX_USD_PER_GPU_HOUR) > 0) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "--catalog offering %s: %s price %s %s per "
          + "hour is %s USD per GPU-hour, more than the %s USD any GPU-hour costs; check the price column "
          + "(whole instance, per hour)", id, kind, price.amount().round(MathContext.DECIMAL32).toString(),
          price.currency().getCurrencyCode(), usd.round(new MathContext(3)).toString(), MAX_USD_PER_GPU_HOUR));
    }
  }

  private static final Currency USD = Currency.getInstance("USD");

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
        .filter(o -> o.stalenessWarning(today, Offering.STALE_AFTER).isPresent()) // first: no record hash of most
        .filter(o -> !bundled.contains(o))
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
