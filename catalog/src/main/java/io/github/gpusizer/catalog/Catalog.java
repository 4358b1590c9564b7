package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import com.google.common.collect.ImmutableList;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An immutable set of GPUs and the offerings that rent them, with look-ups by name. Safe to share between threads.
 *
 * <pre>{@code
 * Catalog catalog = Catalog.bundled();
 * Gpu a100 = catalog.gpu("A100 80GB");                 // ids, names and aliases, forgiving spelling
 * List<Offering> aws = catalog.offerings(OfferingFilter.builder()
 *     .gpu("a100-80gb").provider("aws").maxPricePerHour(Money.of("40", "USD")).build());
 *
 * // Your own prices: files in the gpus.csv, offerings.csv or SkyPilot vms.csv format.
 * Catalog mine = Catalog.load(Path.of("my-offerings.csv"));
 * Catalog both = catalog.merge(mine);                   // mine wins where both define something
 * }</pre>
 *
 * <p>Every id, name and alias names exactly one GPU, compared ignoring case, spaces, dashes, underscores and the
 * brand words nvidia, tesla, geforce, amd, instinct and google. A family name such as {@code A100} therefore
 * resolves only where the data declares it as an alias of one variant (the bundled data follows SkyPilot: {@code
 * A100} is the A100 SXM4 40 GB); otherwise the look-up fails and lists the variants.
 */
public final class Catalog {
  private static final Supplier<Catalog> BUNDLED = Suppliers.memoize(
      () -> CatalogFiles.bundled(Catalog.class, CatalogFiles.BUNDLED_GPUS, CatalogFiles.BUNDLED_OFFERINGS));

  private final ImmutableList<Gpu> gpus;
  private final ImmutableList<Offering> offerings;
  private final NameIndex names;
  private final LoadReport loadReport;

  private Catalog(ImmutableList<Gpu> gpus, ImmutableList<Offering> offerings, NameIndex names, LoadReport report) {
    this.gpus = gpus;
    this.offerings = offerings;
    this.names = names;
    this.loadReport = report;
  }

  /** Validates and builds: {@link #createDistinct} of offerings checked to have distinct keys (case aside). */
  static Catalog create(Collection<Gpu> gpus, Collection<Offering> offerings, LoadReport report) {
    Set<String> keys = new HashSet<>();
    for (Offering o : offerings) {
      if (!keys.add(o.identity())) {
        throw new IllegalArgumentException(
            "duplicate offering " + o.key() + " (provider/instanceType/region, case aside)");
      }
    }
    return createDistinct(gpus, offerings, report);
  }

  /**
   * Validates and builds from offerings whose keys are known to be distinct, case aside: the loaders and {@link
   * #merge} have keyed them already, and a key is a string built and lower-cased per offering (a SkyPilot file's
   * 40,000 offerings pass here twice on the way into the command-line tool).
   */
  static Catalog createDistinct(Collection<Gpu> gpus, Collection<Offering> offerings, LoadReport report) {
    ImmutableList<Gpu> gpuList = ImmutableList.copyOf(gpus);
    Map<String, Gpu> byId = new HashMap<>();
    NameIndex.Builder names = NameIndex.builder();
    for (Gpu gpu : gpuList) {
      checkArgument(byId.putIfAbsent(gpu.id(), gpu) == null, "duplicate GPU id '%s'", gpu.id());
      names.add(gpu).ifPresent(clash -> {
        throw new IllegalArgumentException(clash.describe(gpu));
      });
    }
    NameIndex index = names.build();
    ImmutableList<Offering> offeringList = ImmutableList.copyOf(offerings);
    for (Offering o : offeringList) {
      Gpu known = byId.get(o.gpu().id());
      if (known == null) {
        throw new IllegalArgumentException(String.format("offering %s carries GPU '%s', which the catalog lacks%s",
            o.key(), o.gpu().id(), didYouMean(index.suggest(o.gpu().id()))));
      }
      if (known != o.gpu() && !known.equals(o.gpu())) {
        throw new IllegalArgumentException(String.format(
            "offering %s carries a definition of GPU '%s' that differs from the catalog's; take the GPU from the "
                + "catalog with gpu(\"%s\")", o.key(), o.gpu().id(), o.gpu().id()));
      }
    }
    return new Catalog(gpuList, offeringList, index, checkNotNull(report, "report"));
  }

  private static String didYouMean(List<String> suggestions) {
    return suggestions.isEmpty() ? "" : "; did you mean: " + String.join(", ", suggestions) + "?";
  }

  /**
   * The catalog that ships with the library (GPU datasheet figures and dated cloud prices), loaded on first use.
   *
   * @throws IllegalStateException if its resources are missing from the class path or invalid
   */
  public static Catalog bundled() {
    return BUNDLED.get();
  }

  /**
   * Loads catalog files, telling each one's format from its header: {@code gpus.csv}, {@code offerings.csv} or a
   * SkyPilot {@code vms.csv} (read with {@link SkyPilotOptions#defaults()}). Offerings name their GPU by any id or
   * alias of the files' GPUs or the bundled GPUs.
   *
   * @return the bundled GPUs (a file GPU with the same id replaces the bundled one) plus the files' GPUs, and the
   *     files' offerings only
   * @throws CatalogException on the first bad file, line or cell; nothing is returned half-loaded
   * @throws IllegalArgumentException if no file is given
   * @throws IllegalStateException if the bundled catalog is missing
   */
  public static Catalog load(Path... files) {
    checkNotNull(files, "files");
    List<Path> paths = Arrays.asList(files.clone());
    paths.forEach(p -> checkNotNull(p, "files must not contain null"));
    return CatalogFiles.load(bundled(), paths, SkyPilotOptions.defaults());
  }

  /**
   * Loads catalog files as {@link #load(Path...)} does, reading SkyPilot files with these options: {@code
   * Catalog.load(SkyPilotOptions.builder().strict().build(), files)} fails on a row whose accelerator the catalog
   * does not model instead of leaving it out. A provider or price date set in the options applies to every SkyPilot
   * file.
   *
   * @throws CatalogException on the first bad file, line or cell; nothing is returned half-loaded
   * @throws IllegalArgumentException if no file is given
   * @throws IllegalStateException if the bundled catalog is missing
   */
  public static Catalog load(SkyPilotOptions skyPilot, Path... files) {
    checkNotNull(skyPilot, "skyPilot");
    checkNotNull(files, "files");
    List<Path> paths = Arrays.asList(files.clone());
    paths.forEach(p -> checkNotNull(p, "files must not contain null"));
    return CatalogFiles.load(bundled(), paths, skyPilot);
  }

  /**
   * Loads a SkyPilot catalog file ({@code vms.csv}) with the bundled GPUs.
   *
   * @param provider the provider to record, e.g. {@code aws}
   * @param priceDate the date its prices were read
   * @throws CatalogException on a bad row or a missing file; rows of accelerators the catalog does not model are
   *     left out and listed in {@link #loadReport()}
   */
  public static Catalog loadSkyPilot(Path file, String provider, LocalDate priceDate) {
    checkNotNull(file, "file");
    checkNotNull(provider, "provider");
    checkNotNull(priceDate, "priceDate");
    return loadSkyPilot(file, SkyPilotOptions.builder().provider(provider).priceDate(priceDate).build());
  }

  /**
   * Loads a SkyPilot catalog file ({@code vms.csv}) with the bundled GPUs. The rows it deliberately leaves out
   * (CPU-only machines, rows without an on-demand price, accelerators the catalog does not model, ...) are listed in
   * {@link #loadReport()}.
   *
   * @throws CatalogException on a bad row, an unknown accelerator (only if the options are strict) or a missing file
   */
  public static Catalog loadSkyPilot(Path file, SkyPilotOptions options) {
    checkNotNull(file, "file");
    checkNotNull(options, "options");
    return CatalogFiles.loadSkyPilot(bundled(), file, options);
  }

  /**
   * A catalog of these GPUs and offerings.
   *
   * @throws IllegalArgumentException if two GPUs share an id, or a name or alias (see the class comment), two
   *     offerings share a {@link Offering#key() key}, or an offering carries a GPU that is not in {@code gpus}
   */
  public static Catalog of(Collection<Gpu> gpus, Collection<Offering> offerings) {
    checkNotNull(gpus, "gpus");
    checkNotNull(offerings, "offerings");
    return create(gpus, offerings, LoadReport.EMPTY);
  }

  /**
   * This catalog with another laid over it. GPUs are matched by id and offerings by {@link Offering#key() key};
   * where both define one, {@code other}'s definition wins and keeps this catalog's position in the lists. This
   * catalog's offerings of a GPU that {@code other} redefines then carry {@code other}'s definition. Load reports
   * are joined.
   *
   * @throws IllegalArgumentException if a name or alias of one GPU would name another GPU of different id
   */
  public Catalog merge(Catalog other) {
    checkNotNull(other, "other");
    Map<String, Gpu> gpuById = new LinkedHashMap<>();
    gpus.forEach(g -> gpuById.put(g.id(), g));
    other.gpus.forEach(g -> gpuById.put(g.id(), g));
    Map<String, Offering> offeringByKey = new LinkedHashMap<>();
    offerings.forEach(o -> offeringByKey.put(o.identity(), withGpu(o, gpuById.get(o.gpu().id()))));
    other.offerings.forEach(o -> offeringByKey.put(o.identity(), o));
    try {
      return createDistinct(gpuById.values(), offeringByKey.values(), loadReport.plus(other.loadReport));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot merge the catalogs: " + e.getMessage(), e);
    }
  }

  /**
   * The same GPUs with these offerings instead of this catalog's, e.g. to replace stale prices in one call. The
   * load report is dropped with the old offerings.
   *
   * @throws IllegalArgumentException as {@link #of} does
   */
  public Catalog withOfferings(Collection<Offering> offerings) {
    checkNotNull(offerings, "offerings");
    return create(gpus, offerings, LoadReport.EMPTY);
  }

  /** The same GPUs without any offering. */
  public Catalog withoutOfferings() {
    return new Catalog(gpus, ImmutableList.of(), names, LoadReport.EMPTY);
  }

  /**
   * The GPU with this id, name or alias, ignoring case, spaces, dashes, underscores and brand words:
   * {@code "a100 80gb"}, {@code "A100-SXM4-80GB"} and {@code "NVIDIA H100 SXM"} all resolve.
   *
   * @throws UnknownGpuException with the closest names if the catalog has no such GPU
   */
  public Gpu gpu(String nameOrAlias) {
    checkNotNull(nameOrAlias, "nameOrAlias");
    return names.get(nameOrAlias);
  }

  /** The GPU with this id, name or alias, as {@link #gpu} finds it; empty if the catalog has none. */
  public Optional<Gpu> findGpu(String nameOrAlias) {
    checkNotNull(nameOrAlias, "nameOrAlias");
    return names.find(nameOrAlias);
  }

  /** Every GPU, in the order of the data. */
  public ImmutableList<Gpu> gpus() {
    return gpus;
  }

  /** Every offering, in the order of the data. */
  public ImmutableList<Offering> offerings() {
    return offerings;
  }

  /**
   * The offerings that match a filter, in the order of the data.
   *
   * @throws UnknownGpuException if the filter names a GPU this catalog does not know
   */
  public ImmutableList<Offering> offerings(OfferingFilter filter) {
    checkNotNull(filter, "filter");
    Optional<String> gpuId = filter.gpu().map(name -> gpu(name).id());
    return offerings.stream().filter(o -> filter.matches(o, gpuId)).collect(ImmutableList.toImmutableList());
  }

  /** The rows the loaders read and deliberately left out, with the reason; empty for catalogs built by {@link #of}. */
  public LoadReport loadReport() {
    return loadReport;
  }

  @Override
  public String toString() {
    return "Catalog{" + gpus.size() + " GPUs, " + offerings.size() + " offerings}";
  }

  private static Offering withGpu(Offering o, Gpu gpu) {
    if (o.gpu() == gpu) {
      return o;
    }
    return new Offering(o.provider(), o.instanceType(), o.region(), gpu, o.gpuCount(), o.vcpus(), o.ram(),
        o.localDisk(), o.onDemandPerHour(), o.spotPerHour(), o.billing(), o.monthly(), o.yearly(), o.networkGbps(),
        o.fabric(), o.priceDate(), o.source());
  }
}
