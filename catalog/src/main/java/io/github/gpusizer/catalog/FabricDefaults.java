package io.github.gpusizer.catalog;

import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.CsvTable.Row;
import io.github.gpusizer.catalog.CsvTable.Sign;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The documented network of instance families, for rows that do not state theirs: SkyPilot's {@code vms.csv} has no
 * network column, and a user's {@code offerings.csv} may leave {@code fabric} or {@code network_gbps} empty. The
 * figures live in the bundled {@code fabrics.csv} (columns {@code provider, instance_prefix, fabric, network_gbps,
 * source}), each row with the provider documentation it comes from. The longest matching prefix wins, so a family
 * default ({@code g5.}) can be refined for one size ({@code g5.48xlarge}), and the prefix {@code *} stands for every
 * instance type of its provider that no other row names. An instance type no row matches is
 * assumed to be on {@link Fabric#ETHERNET} with no stated bandwidth: a guess from bandwidth or GPU model alone would
 * be a number without a source.
 */
final class FabricDefaults {
  static final String FORMAT = "fabrics.csv";
  static final String BUNDLED = "fabrics.csv";
  static final ImmutableList<String> COLUMNS =
      ImmutableList.of("provider", "instance_prefix", "fabric", "network_gbps", "source");

  private static final Supplier<FabricDefaults> BUNDLED_TABLE = Suppliers.memoize(() -> {
    String resource = FabricDefaults.class.getPackageName().replace('.', '/') + "/" + BUNDLED;
    String text = CsvTable.readResource(FabricDefaults.class, BUNDLED, resource);
    try {
      return read(CsvTable.parse(resource, text));
    } catch (CatalogException e) {
      throw new IllegalStateException("the bundled network defaults are invalid: " + e.getMessage(), e);
    }
  });

  /** One row of the table: the network of the instance types of a provider whose name starts with a prefix. */
  record Family(String provider, String prefix, Fabric fabric, OptionalDouble networkGbps, String source, int line) {
    boolean matches(String provider, String instanceType) {
      return this.provider.equalsIgnoreCase(provider)
          && (everyType() || instanceType.regionMatches(true, 0, prefix, 0, prefix.length()));
    }

    /** Whether the row is its provider's {@link #EVERY_TYPE} default. */
    boolean everyType() {
      return prefix.equals(EVERY_TYPE);
    }

    /** How much of an instance type the row names: the wildcard least, then the longer prefix more. */
    int specificity() {
      return everyType() ? 0 : prefix.length();
    }

    /** The instance types the row is for, for notes: {@code "aws p5.*"}, {@code "every runpod instance type"}. */
    String describe() {
      return everyType() ? "every " + provider + " instance type" : provider + " " + prefix + "*";
    }
  }

  /** The prefix that stands for every instance type of its provider, below any prefix that names some. */
  static final String EVERY_TYPE = "*";

  /** The network an offering gets: as stated, completed from the table, or assumed; {@code note} says which. */
  record Network(Fabric fabric, OptionalDouble networkGbps, String note) {}

  private final String file;
  private final ImmutableList<Family> families;

  private FabricDefaults(String file, ImmutableList<Family> families) {
    this.file = file;
    this.families = families;
  }

  /**
   * The table that ships with the library, loaded on first use.
   *
   * @throws IllegalStateException if the resource is missing or invalid
   */
  static FabricDefaults bundled() {
    return BUNDLED_TABLE.get();
  }

  /**
   * Reads a table strictly: every column present and no other, every cell valid, no provider and prefix twice.
   *
   * @throws CatalogException naming the file, line and column of the first bad cell
   */
  static FabricDefaults read(CsvTable table) {
    table.requireColumns(FORMAT, COLUMNS, List.of(), true);
    ImmutableList.Builder<Family> families = ImmutableList.builder();
    Map<String, Integer> seen = new HashMap<>();
    for (Row row : table.rows()) {
      String provider = row.text("provider");
      String prefix = row.text("instance_prefix");
      String fabricCell = row.text("fabric");
      Fabric fabric = Fabric.fromCell(fabricCell).orElseThrow(() -> row.error("fabric", Fabric.unknown(fabricCell)));
      OptionalDouble gbps = row.isBlank("network_gbps")
          ? OptionalDouble.empty()
          : OptionalDouble.of(row.decimal("network_gbps", Sign.POSITIVE));
      if (fabric == Fabric.CLUSTER && gbps.isEmpty()) {
        throw row.error("network_gbps", "must state the bandwidth of a cluster fabric, in Gbit/s per instance");
      }
      String source = row.text("source");
      Integer earlier = seen.putIfAbsent(
          provider.toLowerCase(Locale.ROOT) + "/" + prefix.toLowerCase(Locale.ROOT), row.line());
      if (earlier != null) {
        throw row.error("instance_prefix", String.format(
            "%s prefix '%s' appears twice (line %d defines it already)", provider, prefix, earlier));
      }
      families.add(new Family(provider, prefix, fabric, gbps, source, row.line()));
    }
    return new FabricDefaults(table.file(), families.build());
  }

  /** Every row, in the order of the file. */
  ImmutableList<Family> families() {
    return families;
  }

  /**
   * The row with the longest prefix of {@code instanceType} for this provider (both ignoring case), else the
   * provider's {@link #EVERY_TYPE} row, if any.
   */
  Optional<Family> family(String provider, String instanceType) {
    Family best = null;
    for (Family f : families) {
      if (f.matches(provider, instanceType) && (best == null || f.specificity() > best.specificity())) {
        best = f;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The network of an offering whose row states {@code fabric} and {@code networkGbps}, either of which may be
   * absent. An absent fabric comes from the instance's family, else is {@link Fabric#ETHERNET}; an absent bandwidth
   * comes from the family where the family's fabric is the offering's. The note, empty when the row stated both,
   * is to be appended to the offering's source.
   */
  Network resolve(String provider, String instanceType, Optional<Fabric> fabric, OptionalDouble networkGbps) {
    if (fabric.isPresent() && networkGbps.isPresent()) {
      return new Network(fabric.get(), networkGbps, "");
    }
    Optional<Family> family = family(provider, instanceType);
    if (family.isEmpty()) {
      return fabric.isPresent()
          ? new Network(fabric.get(), networkGbps, "")
          : new Network(Fabric.ETHERNET, networkGbps, "; network: fabric not stated and no documented default for "
              + "this instance family, ordinary Ethernet assumed");
    }
    Family f = family.get();
    Fabric chosen = fabric.orElse(f.fabric());
    boolean takeBandwidth = networkGbps.isEmpty() && chosen == f.fabric() && f.networkGbps().isPresent();
    if (fabric.isPresent() && !takeBandwidth) {
      return new Network(chosen, networkGbps, "");
    }
    OptionalDouble gbps = takeBandwidth ? f.networkGbps() : networkGbps;
    String what = fabric.isPresent() ? "bandwidth" : takeBandwidth ? "fabric and bandwidth" : "fabric";
    return new Network(chosen, gbps, String.format("; network: %s by default for %s (%s line %d: %s)",
        what, f.describe(), file, f.line(), f.source()));
  }
}
