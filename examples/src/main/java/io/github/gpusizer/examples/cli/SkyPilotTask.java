package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.Option;
import io.github.gpusizer.core.Recommendation;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.examples.support.Printable;
import io.github.gpusizer.examples.support.Version;
import java.util.Locale;
import java.util.List;
import java.util.Optional;

/**
 * {@code gpusizer recommend --format skypilot}: a SkyPilot task YAML ({@code sky launch task.yaml}) for the best
 * option that runs on a cloud SkyPilot launches, with the predicted time and cost as comments — SkyPilot's own cost
 * estimate assumes a one-hour job unless told otherwise.
 *
 * <pre>{@code
 * # SkyPilot task for llama-2-7b, LoRA r=8, 50 M tokens (gpusizer 0.1.0-SNAPSHOT, recommend, objective cheapest)
 * # predicted wall time: 2.1 h (1.7–2.8 h): start-up 4m 10s + steps 1h 58m + checkpoints 20s
 * # predicted cost: 171.23 USD, billed 2h 10m per node at 8.19 USD/h (on-demand); prices as of 2026-11-30
 * resources:
 *   accelerators: "A100-80GB:8"
 *   cloud: "aws"
 *   instance_type: "p4de.24xlarge"
 *   region: "us-east-1"
 *   use_spot: false
 * num_nodes: 1
 * }</pre>
 *
 * <p>The structure is small and fixed, so it is written by hand: every string is a double-quoted YAML scalar with
 * {@code "} and {@code \} escaped and control characters as {@code \}{@code uXXXX}; comments are {@link Printable}
 * single lines. The accelerator is the GPU's first alias, which for the bundled GPUs is SkyPilot's spelling
 * ({@code H100}, {@code A100-80GB}, {@code A10G}), else its id. A GCP offering that pairs an N1 host with GPUs
 * ({@code n1-standard-8 + V100:1}) is the host's instance type with the GPUs as accelerators.
 */
final class SkyPilotTask {
  /** The clouds {@code sky launch} knows by these names (SkyPilot's {@code sky check} list); others it cannot rent. */
  static final ImmutableSet<String> CLOUDS = ImmutableSet.of("aws", "azure", "gcp", "lambda", "oci", "ibm", "scp",
      "runpod", "vast", "fluidstack", "cudo", "paperspace", "do", "nebius", "vsphere", "kubernetes");

  private SkyPilotTask() {}

  /**
   * The best-ranked option on a SkyPilot cloud, priced on demand or spot (SkyPilot rents nothing by the month).
   */
  static Optional<Option> launchable(Recommendation rec) {
    // the ranking's top first, widened until one is found: building every option of a large catalog costs seconds
    for (int n = 16; ; n *= 4) {
      List<Option> top = rec.topOptions(n);
      Optional<Option> found = top.stream().filter(SkyPilotTask::isLaunchable).findFirst();
      if (found.isPresent() || top.size() < n || n > Integer.MAX_VALUE / 4) {
        return found;
      }
    }
  }

  static boolean isLaunchable(Option o) {
    return CLOUDS.contains(o.offering().provider().toLowerCase(Locale.ROOT))
        && (o.pricing() == PricingMode.ON_DEMAND || o.pricing() == PricingMode.SPOT);
  }

  /**
   * The task YAML for {@code chosen}, an option of {@code rec}; a comment says so when a better-ranked option is
   * on a provider SkyPilot does not launch.
   */
  static String yaml(Recommendation rec, Option chosen, Task task) {
    Offering offering = chosen.offering();
    StringBuilder s = new StringBuilder();
    comment(s, String.format(Locale.ROOT, "SkyPilot task for %s, %s%s (gpusizer %s, recommend, objective %s)",
        task.model().name(), Reports.kind(task), work(task), Version.library(),
        rec.objective().name().toLowerCase(Locale.ROOT).replace('_', ' ')));
    comment(s, "option: " + chosen.rationale());
    comment(s, "predicted wall time: " + Output.durationRange(chosen.wallTimeInterval()) + ": "
        + RecommendReport.split(chosen));
    comment(s, "predicted cost: " + Output.money(chosen.cost()) + (chosen.costConverted() ? " (converted)" : "")
        + ", billed " + Output.duration(chosen.billedTime()) + " per node at "
        + Output.money(chosen.pricing() == PricingMode.SPOT
            ? offering.spotPerHour().orElse(offering.onDemandPerHour()) : offering.onDemandPerHour()) + "/h ("
        + chosen.pricing().name().toLowerCase(Locale.ROOT).replace('_', '-') + "); prices as of "
        + offering.priceDate());
    comment(s, "SkyPilot's own cost estimate assumes a one-hour job; the prediction above is for the whole job.");
    int rank = rec.rank(chosen).orElse(0);
    if (rank > 1) {
      Option best = rec.bestOrThrow();
      comment(s, String.format(Locale.ROOT, "the best option overall (%s %s) is on %s, which SkyPilot does not "
          + "launch; this is the best on a SkyPilot cloud (rank %d)", best.offering().provider(),
          best.offering().instanceType(), best.offering().provider(), rank));
    }
    if (!chosen.warnings().isEmpty()) {
      comment(s, "warnings: " + chosen.warnings().size()
          + " (gpusizer recommend without --format skypilot lists them)");
    }
    s.append("resources:\n");
    s.append("  accelerators: ").append(quoted(acceleratorName(offering) + ":" + offering.gpuCount())).append('\n');
    s.append("  cloud: ").append(quoted(offering.provider().toLowerCase(Locale.ROOT))).append('\n');
    s.append("  instance_type: ").append(quoted(instanceType(offering))).append('\n');
    if (!offering.region().isBlank()) {
      s.append("  region: ").append(quoted(offering.region())).append('\n');
    }
    s.append("  use_spot: ").append(chosen.pricing() == PricingMode.SPOT).append('\n');
    s.append("num_nodes: ").append(chosen.instances()).append('\n');
    return s.toString();
  }

  private static String work(Task task) {
    if (task.tokens().isPresent()) {
      return ", " + Output.count(task.tokens().getAsDouble()) + " tokens";
    }
    return task.samples().isPresent() ? ", " + Output.count(task.samples().getAsDouble()) + " samples" : "";
  }

  /** SkyPilot's name of the offering's GPU: its first alias (the bundled GPUs list SkyPilot's first), else its id. */
  static String acceleratorName(Offering offering) {
    return offering.gpu().aliases().isEmpty() ? offering.gpu().id() : offering.gpu().aliases().get(0);
  }

  /** The instance type SkyPilot rents: a GCP host VM and its attached GPUs ({@code n1-standard-8 + V100:1}) is the VM. */
  static String instanceType(Offering offering) {
    String type = offering.instanceType();
    int plus = type.indexOf(" + ");
    return plus < 0 ? type : type.substring(0, plus);
  }

  private static void comment(StringBuilder s, String text) {
    s.append("# ").append(Printable.line(text)).append('\n');
  }

  /**
   * A YAML double-quoted scalar: {@code "} and {@code \} escaped, control and other unsafe characters as
   * {@code \}{@code uXXXX} (YAML's double-quoted style reads the same escapes as JSON).
   */
  static String quoted(String value) {
    StringBuilder s = new StringBuilder("\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        s.append('\\').append(c);
      } else if (Printable.isUnsafe(c)) {
        s.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        s.append(c);
      }
    }
    return s.append('"').toString();
  }
}
