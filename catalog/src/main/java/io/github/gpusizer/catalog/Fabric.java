package io.github.gpusizer.catalog;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * The network between the instances of an offering: whether several of them can be joined into one multi-node job,
 * and how well.
 *
 * <pre>{@code
 * Offering p5 = catalog.offerings(OfferingFilter.builder().provider("aws").build()).get(0);
 * if (p5.fabric().joinable()) {
 *   System.out.println(p5.instanceType() + " joins over " + p5.fabric().label());
 * }
 * }</pre>
 */
public enum Fabric {
  /**
   * A cluster network built for multi-node training: InfiniBand, AWS EFA, RoCE or Google's GPUDirect-TCPX, with
   * RDMA or OS-bypass between the GPUs of different instances.
   */
  CLUSTER("InfiniBand/EFA/RoCE cluster fabric", true),
  /** Ordinary VM Ethernet (TCP through the hypervisor's virtual NIC): instances can be joined, slowly. */
  ETHERNET("Ethernet", true),
  /** A stand-alone machine, e.g. a development machine: never joined with others into one job. */
  STANDALONE("stand-alone", false);

  /** How catalog files may spell each fabric, compared ignoring case; the aliases name the CLUSTER technologies. */
  private static final ImmutableMap<String, Fabric> SPELLINGS = ImmutableMap.<String, Fabric>builder()
      .put("cluster", CLUSTER)
      .put("ethernet", ETHERNET)
      .put("standalone", STANDALONE)
      .put("infiniband", CLUSTER)
      .put("efa", CLUSTER)
      .put("roce", CLUSTER)
      .build();

  private final String label;
  private final boolean joinable;

  Fabric(String label, boolean joinable) {
    this.label = label;
    this.joinable = joinable;
  }

  /** A short description for people, e.g. {@code "Ethernet"} or {@code "stand-alone"}. */
  public String label() {
    return label;
  }

  /** Whether instances on this fabric can be joined into one multi-node job; false only for {@link #STANDALONE}. */
  public boolean joinable() {
    return joinable;
  }

  /**
   * The fabric {@code text} names as a catalog cell would ({@code "ethernet"}, {@code "EFA"}, ...).
   *
   * @throws IllegalArgumentException naming the allowed spellings and the closest of them, for any other text
   */
  public static Fabric parse(String text) {
    return fromCell(text).orElseThrow(() -> new IllegalArgumentException(unknown(text)));
  }

  /** The fabric a catalog cell names, ignoring case and surrounding space; empty for any other text. */
  static Optional<Fabric> fromCell(String cell) {
    return Optional.ofNullable(SPELLINGS.get(cell.strip().toLowerCase(Locale.ROOT)));
  }

  /**
   * What is wrong with a cell that names no fabric, for a {@link CatalogException}: the allowed spellings and the
   * closest of them, e.g. {@code "must be one of cluster, ethernet, standalone (...), was 'clustr'; did you mean:
   * cluster?"}.
   */
  static String unknown(String cell) {
    ImmutableList<String> close = suggest(cell);
    return String.format("must be one of cluster, ethernet, standalone (also infiniband, efa, roce for cluster), "
        + "in any case, was '%s'%s", cell, close.isEmpty() ? "" : "; did you mean: " + String.join(", ", close) + "?");
  }

  /** The accepted spellings closest to a cell that matched none, best first; empty if none is close. */
  static ImmutableList<String> suggest(String cell) {
    String query = cell.strip().toLowerCase(Locale.ROOT);
    int limit = Math.max(2, query.length() / 3);
    return SPELLINGS.keySet().stream()
        .filter(s -> EditDistance.between(query, s) <= limit)
        .sorted(Comparator.comparingInt((String s) -> EditDistance.between(query, s)).thenComparing(s -> s))
        .collect(ImmutableList.toImmutableList());
  }
}
