package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.ExchangeRates;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
   * @throws io.github.gpusizer.catalog.CatalogException naming file, line and column of bad content
   */
  static Catalog load(List<Path> files, boolean withoutBundledOfferings) throws IOException {
    return load(files, withoutBundledOfferings, w -> { });
  }

  /** As {@link #load(List, boolean)}, telling {@code warnings} of suspect offerings in the files. */
  static Catalog load(List<Path> files, boolean withoutBundledOfferings, Consumer<String> warnings)
      throws IOException {
    if (files.isEmpty()) {
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
    Catalog mine = Catalog.load(files.toArray(Path[]::new));
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
    for (Offering o : offerings) {
      String id = o.provider() + "/" + o.instanceType() + "/" + o.region();
      List<Money> prices = new ArrayList<>();
      prices.add(o.onDemandPerHour());
      o.spotPerHour().ifPresent(prices::add);
      for (Money price : prices) {
        String kind = price == o.onDemandPerHour() ? "on-demand" : "spot";
        checkPrice(id, kind, price, o.gpuCount(), rates);
        if (price.amount().signum() == 0) {
          warnings.accept(String.format(Locale.ROOT, "--catalog offering %s: %s price is 0 %s per hour, so its "
              + "cost is 0 and it ranks first on cost; give its real price", id, kind,
              price.currency().getCurrencyCode()));
        }
      }
      List<String> unknown = new ArrayList<>();
      if (o.vcpus() == 0) {
        unknown.add("0 vCPUs");
      }
      if (o.ram().bytes() == 0) {
        unknown.add("0 RAM");
      }
      if (!unknown.isEmpty()) {
        warnings.accept("--catalog offering " + id + " lists " + String.join(" and ", unknown)
            + ": read as unknown, so the recommended host is not checked against "
            + (unknown.size() == 1 ? "it" : "them"));
      }
    }
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
}
