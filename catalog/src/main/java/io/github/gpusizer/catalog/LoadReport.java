package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.Iterables;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The rows a loader read and deliberately did not turn into offerings, each with its reason. Only SkyPilot
 * catalogs have such rows (CPU-only machines, rows without an on-demand price, TPUs, ...); the project's own CSV
 * formats either load completely or fail.
 *
 * <pre>{@code
 * Catalog aws = Catalog.loadSkyPilot(Path.of("catalogs/v5/aws/vms.csv"), "aws", LocalDate.of(2025, 1, 6));
 * LoadReport report = aws.loadReport();
 * int cpuOnly = report.count(LoadReport.Reason.NO_ACCELERATOR);
 * }</pre>
 *
 * @param skipped every row left out, in file order
 */
public record LoadReport(ImmutableList<Skipped> skipped) {

  /** Why a row did not become an offering. */
  public enum Reason {
    /** A machine without an accelerator (a CPU-only VM); on GCP it may still serve as the host of a GPU row. */
    NO_ACCELERATOR,
    /** The row has no on-demand price ({@code Price} blank): the machine is not sold on demand there. */
    NOT_OFFERED_ON_DEMAND,
    /** A fraction of a GPU per machine (Azure's partitioned GPUs); an offering carries whole GPUs. */
    FRACTIONAL_GPU_COUNT,
    /** A Google TPU slice; priced without its host VM and counted in slices, not modelled as an offering. */
    TPU,
    /** A GCP GPU row for which no host VM of the right family is priced in the same zone. */
    NO_HOST_VM,
    /**
     * An accelerator the catalog does not model: not a GPU (AWS Trainium and Inferentia, Intel Gaudi) or a GPU missing
     * from the catalog. Left out by default; {@link SkyPilotOptions.Builder#strict()} fails the load instead.
     */
    UNKNOWN_ACCELERATOR
  }

  /**
   * One row left out.
   *
   * @param file the file as the caller named it
   * @param line the row's 1-based line
   * @param reason why it was left out
   * @param detail what the row was, e.g. {@code "t2.micro in us-east-1"}
   * @param accelerator the row's accelerator as the file spells it ({@code "Trainium"}); empty for a row without one
   */
  public record Skipped(String file, int line, Reason reason, String detail, String accelerator) {
    public Skipped {
      checkNotNull(file, "file");
      checkArgument(line >= 1, "line must be >= 1, was %s", line);
      checkNotNull(reason, "reason");
      checkNotNull(detail, "detail");
      checkNotNull(accelerator, "accelerator");
    }

    /** A row left out that names no accelerator. */
    public Skipped(String file, int line, Reason reason, String detail) {
      this(file, line, reason, detail, "");
    }

    @Override
    public String toString() {
      return file + " line " + line + ": " + reason + " (" + detail + ")";
    }
  }

  /** The report of a catalog nothing was left out of. */
  public static final LoadReport EMPTY = new LoadReport(ImmutableList.of());

  public LoadReport {
    skipped = ImmutableList.copyOf(skipped);
  }

  public boolean isEmpty() {
    return skipped.isEmpty();
  }

  /** How many rows were left out for this reason. */
  public int count(Reason reason) {
    checkNotNull(reason, "reason");
    return (int) skipped.stream().filter(s -> s.reason() == reason).count();
  }

  /**
   * The accelerators of the rows left out for this reason, each with its number of rows, most rows first (ties in
   * the order of the name): for {@link Reason#UNKNOWN_ACCELERATOR}, which accelerators the catalog does not model.
   */
  public ImmutableMap<String, Integer> accelerators(Reason reason) {
    checkNotNull(reason, "reason");
    Map<String, Integer> counts = new HashMap<>();
    for (Skipped s : skipped) {
      if (s.reason() == reason && !s.accelerator().isEmpty()) {
        counts.merge(s.accelerator(), 1, Integer::sum);
      }
    }
    return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()))
        .collect(ImmutableMap.toImmutableMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  /**
   * One line for people: how many rows were left out and why, naming the accelerators the catalog does not model,
   * e.g. {@code "left out 212 rows: 180 without an accelerator, 20 not sold on demand, 12 of accelerators not
   * modelled (Trainium 8, Inferentia2 4)"}; empty if nothing was left out.
   */
  public String summary() {
    if (isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    for (Reason reason : Reason.values()) {
      int n = count(reason);
      if (n == 0) {
        continue;
      }
      String part = n + " " + phrase(reason);
      if (reason == Reason.UNKNOWN_ACCELERATOR) {
        part += accelerators(reason).entrySet().stream()
            .map(e -> e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", ", " (", ")"));
      }
      parts.add(part);
    }
    return "left out " + skipped.size() + (skipped.size() == 1 ? " row: " : " rows: ") + String.join(", ", parts);
  }

  private static String phrase(Reason reason) {
    return switch (reason) {
      case NO_ACCELERATOR -> "without an accelerator";
      case NOT_OFFERED_ON_DEMAND -> "not sold on demand";
      case FRACTIONAL_GPU_COUNT -> "with a fraction of a GPU";
      case TPU -> "TPU slices";
      case NO_HOST_VM -> "GPU rows without a host VM";
      case UNKNOWN_ACCELERATOR -> "of accelerators not modelled";
    };
  }

  /** Both reports' rows, this one's first. */
  public LoadReport plus(LoadReport other) {
    checkNotNull(other, "other");
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    return new LoadReport(ImmutableList.copyOf(Iterables.concat(skipped, other.skipped)));
  }

  /** Counts per reason: {@code "LoadReport{NO_ACCELERATOR=412, TPU=3}"}. */
  @Override
  public String toString() {
    Map<Reason, Integer> counts = new EnumMap<>(Reason.class);
    for (Skipped s : skipped) {
      counts.merge(s.reason(), 1, Integer::sum);
    }
    return "LoadReport" + counts;
  }
}
