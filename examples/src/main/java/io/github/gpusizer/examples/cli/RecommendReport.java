package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableList;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.Option;
import io.github.gpusizer.core.Recommendation;
import io.github.gpusizer.core.Rejection;
import io.github.gpusizer.core.Suggestion;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.estimate.Fit;
import io.github.gpusizer.core.estimate.Warning;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The JSON, CSV, table and plot of a {@link Recommendation}; the JSON field names are the CLI's stable schema. */
final class RecommendReport {

  /** The CSV header: the option columns, then those only rejections have; the same when nothing is feasible. */
  static final ImmutableList<String> CSV_COLUMNS = ImmutableList.of(
      "status", "rank", "provider", "instanceType", "region", "gpu", "gpuCount", "gpusPerNode", "nodes", "pricing",
      "pricePerHour.amount", "pricePerHour.currency", "totalCost.amount", "totalCost.currency",
      "nativeTotalCost.amount", "nativeTotalCost.currency", "costConverted", "wallSeconds", "wallSecondsLow",
      "wallSecondsHigh", "startupSeconds", "computeSeconds", "checkpointSeconds", "billedSeconds", "runs",
      "layout.dataParallel", "layout.tensorParallel", "layout.pipelineParallel", "layout.contextParallel",
      "layout.zeroStage", "layout.gpusPerNode", "layout.description", "microBatch", "checkpointing",
      "memory.perGpuBytes", "memory.perGpuBytesLow", "memory.perGpuBytesHigh", "memory.allocatedBytes",
      "memory.capacityBytes", "memory.headroomBytes", "memory.fits", "memory.fit", "memory.errorBand",
      "memory.breakdown.weights", "memory.breakdown.gradients", "memory.breakdown.optimizer",
      "memory.breakdown.activations", "memory.breakdown.kvCache", "memory.breakdown.temporary",
      "memory.breakdown.overhead",
      "throughput.samplesPerSecond", "throughput.samplesPerSecondLow", "throughput.samplesPerSecondHigh",
      "throughput.tokensPerSecond", "throughput.tokensPerSecondLow", "throughput.tokensPerSecondHigh",
      "throughput.errorBand", "stepSeconds", "bottleneck", "paretoOptimal", "warningCodes", "warnings",
      "rationale", "candidate", "rejection", "reason");
  private RecommendReport() {}

  /**
   * The recommendation in a format.
   *
   * @param top rows of options and of rejections shown (tables), listed (JSON and CSV) unless {@code all}
   * @param all whether JSON and CSV list every option and rejection
   */
  static String render(Recommendation rec, Task task, Format format, int top, boolean all, Catalog catalog) {
    int limit = all ? Integer.MAX_VALUE : top;
    switch (format) {
      case JSON:
        return Json.pretty(json(rec, task, limit), catalog);
      case CSV:
        return csv(rec, limit);
      default:
        return table(rec, task, top);
    }
  }

  // ---------------------------------------------------------------- JSON

  /** Everything: every option and rejection (the HTTP example's reply). */
  static ObjectNode json(Recommendation rec, Task task) {
    return json(rec, task, Integer.MAX_VALUE);
  }

  /**
   * The recommendation with at most {@code limit} ranked options and {@code limit} rejections (taken in turn from
   * each kind of reason); {@code optionsTotal}, {@code rejectedTotal} and {@code rejectedByKind} count them all.
   */
  static ObjectNode json(Recommendation rec, Task task, int limit) {
    ObjectNode root = Json.object();
    ObjectNode model = root.putObject("model");
    model.put("name", task.model().name());
    model.put("parameters", task.model().parameters());
    model.put("trainableParameters", task.trainableParameters());
    Reports.task(root.putObject("task"), task);
    root.put("objective", rec.objective().name());
    root.put("currency", rec.currency().getCurrencyCode());
    root.put("feasible", rec.isFeasible());
    List<Option> ranked = rec.topOptions(limit);
    List<Option> front0 = rec.paretoFront().size() > limit ? shownFront(rec, limit) : rec.paretoFront();
    List<Warning> sharedWarnings = shared(rec, ranked, front0);
    ArrayNode shared = root.putArray("warnings");
    sharedWarnings.forEach(w -> shared.add(Reports.warning(w)));
    if (rec.best().isPresent()) {
      root.set("best", option(rec.best().get(), 1, true, sharedWarnings));
    } else {
      root.putNull("best");
    }
    Set<Option> front = frontOf(rec);
    root.put("optionsTotal", rec.optionCount());
    root.put("paretoFrontTotal", rec.paretoFront().size());
    root.put("rejectedTotal", rec.rejected().size());
    ObjectNode byKind = root.putObject("rejectedByKind");
    byKind(rec.rejected()).forEach((k, list) -> byKind.put(k.name(), list.size()));
    root.put("truncated", rec.optionCount() > limit || rec.rejected().size() > limit
        || rec.paretoFront().size() > limit);
    ArrayNode options = root.putArray("options");
    for (int i = 0; i < ranked.size(); i++) {
      options.add(option(ranked.get(i), i + 1, front.contains(ranked.get(i)), sharedWarnings));
    }
    ArrayNode pareto = root.putArray("paretoFront");
    for (Option o : front0) {
      pareto.add(option(o, rec.rank(o).orElse(0), true, sharedWarnings));
    }
    // An option of the front that is not among the ranked options (the ranking keeps only the best instance
    // count and layout of each offering and pricing mode) has no rank.
    ArrayNode rejected = root.putArray("rejected");
    shown(rec.rejected(), limit).forEach(r -> rejected.add(rejection(r)));
    if (rec.suggestion().isPresent()) {
      root.set("suggestion", suggestion(rec.suggestion().get()));
    } else {
      root.putNull("suggestion");
    }
    return root;
  }

  /** The front fastest first; beyond {@code limit} members, the fastest {@code limit - 1} and the cheapest. */
  private static List<Option> shownFront(Recommendation rec, int limit) {
    List<Option> front = new ArrayList<>(rec.paretoFront());
    front.sort(java.util.Comparator.comparing(Option::wallTime));
    if (front.size() > limit) {
      List<Option> shown = new ArrayList<>(front.subList(0, Math.max(0, limit - 1)));
      shown.add(front.get(front.size() - 1));
      return shown;
    }
    return front;
  }

  private static Set<Option> frontOf(Recommendation rec) {
    return new HashSet<>(rec.paretoFront());
  }

  /**
   * The warnings every option a report shows carries (the best, the ranked options and the Pareto front members
   * listed), in the best option's order, each once: said once for the report, and left out of each option's own.
   */
  static List<Warning> shared(Recommendation rec, List<Option> ranked, List<Option> front) {
    List<Option> shown = new ArrayList<>();
    rec.best().ifPresent(shown::add);
    shown.addAll(ranked);
    shown.addAll(front);
    return Recommendation.sharedBy(shown);
  }

  /** {@code o}'s warnings less the {@code shared} ones. */
  static List<Warning> own(Option o, List<Warning> shared) {
    Set<Warning> said = new HashSet<>(shared);
    return o.warnings().stream().filter(w -> !said.contains(w)).toList();
  }

  /**
   * One option; its {@code warningCodes} list every warning it carries, its {@code warnings} only those the
   * report's top-level {@code warnings} (shared by every option it shows) do not already give.
   */
  static ObjectNode option(Option o, int rank, boolean onFront, List<Warning> shared) {
    ObjectNode node = Json.object();
    if (rank >= 1) {
      node.put("rank", rank);
    } else {
      node.putNull("rank");
    }
    node.put("provider", o.offering().provider());
    node.put("instanceType", o.offering().instanceType());
    node.put("region", o.offering().region());
    node.put("gpu", o.gpu().id());
    node.put("gpuCount", o.gpus());
    node.put("gpusPerNode", o.offering().gpuCount());
    node.put("nodes", o.instances());
    node.put("pricing", o.pricing().name());
    node.set("pricePerHour", Json.money(pricePerHour(o)));
    node.set("totalCost", Json.money(o.cost().rounded()));
    node.set("nativeTotalCost", Json.money(o.nativeCost().rounded()));
    node.put("costConverted", o.costConverted());
    Reports.seconds(node, "wallSeconds", o.wallTimeInterval());
    Json.putRounded(node, "startupSeconds", Output.seconds(o.startupTime()), 6);
    Json.putRounded(node, "computeSeconds", Output.seconds(o.computeTime()), 6);
    Json.putRounded(node, "checkpointSeconds", Output.seconds(o.checkpointTime()), 6);
    Json.putRounded(node, "billedSeconds", Output.seconds(o.billedTime()), 6);
    node.put("runs", o.runs());
    node.set("layout", Reports.layout(o.layout(), o.estimate().task().kind().isTraining()));
    node.put("microBatch", o.microBatch());
    node.put("checkpointing", o.checkpointing().name());
    node.set("memory", Reports.memory(o.memory()));
    Reports.rates(node.putObject("throughput"), o.estimate().performance(), true);
    Json.putRounded(node, "stepSeconds", Output.seconds(o.stepTime()), 6);
    node.put("bottleneck", o.bottleneck().name());
    node.set("host", Reports.host(o.host()));
    node.put("paretoOptimal", onFront);
    ArrayNode codes = node.putArray("warningCodes");
    o.warnings().forEach(w -> codes.add(w.code()));
    ArrayNode warnings = node.putArray("warnings");
    own(o, shared).forEach(w -> warnings.add(Reports.warning(w)));
    node.put("rationale", o.rationale());
    return node;
  }

  /** The whole option's price per hour in the offering's currency: all instances, at the pricing used. */
  static Money pricePerHour(Option o) {
    Offering offering = o.offering();
    Money perInstance = o.pricing() == PricingMode.SPOT
        ? offering.spotPerHour().orElse(offering.onDemandPerHour()) : offering.onDemandPerHour();
    return perInstance.times(o.instances());
  }

  static ObjectNode rejection(Rejection r) {
    ObjectNode node = Json.object();
    node.put("candidate", candidate(r));
    node.put("kind", r.kind().name());
    node.put("reason", r.reason());
    node.put("provider", r.offering().provider());
    node.put("instanceType", r.offering().instanceType());
    node.put("gpu", r.offering().gpu().id());
    Json.put(node, "gpuCount", r.gpus());
    Json.put(node, "nodes", r.instances());
    Json.put(node, "pricing", r.pricing().map(PricingMode::name));
    return node;
  }

  static String candidate(Rejection r) {
    StringBuilder s = new StringBuilder(r.offering().provider()).append(' ').append(r.offering().instanceType());
    if (r.instances().isPresent() && r.instances().getAsInt() > 1) {
      s.append(" x").append(r.instances().getAsInt());
    }
    s.append(" (");
    s.append(r.gpus().isPresent() ? r.gpus().getAsInt() : r.offering().gpuCount()).append(" x ")
        .append(r.offering().gpu().id());
    r.pricing().filter(p -> p != PricingMode.ON_DEMAND)
        .ifPresent(p -> s.append(", ").append(p.name().toLowerCase(Locale.ROOT)));
    return s.append(')').toString();
  }

  static ObjectNode suggestion(Suggestion s) {
    ObjectNode node = Json.object();
    node.put("advice", s.advice());
    if (s.deadline().isPresent()) {
      Json.putRounded(node, "deadlineSeconds", Output.seconds(s.deadline().get()), 6);
    } else {
      node.putNull("deadlineSeconds");
    }
    Json.put(node, "budget", s.budget());
    Json.put(node, "gpus", s.gpus());
    Json.put(node, "cuda", s.cuda());
    return node;
  }

  // ---------------------------------------------------------------- CSV

  /** One row per candidate: the ranked options first ({@code status} best or option), then the rejected. */
  static String csv(Recommendation rec, int limit) {
    List<ObjectNode> rows = new ArrayList<>();
    Set<Option> front = frontOf(rec);
    List<Option> ranked = rec.topOptions(limit);
    List<Warning> shared = shared(rec, ranked, List.of());
    for (int i = 0; i < ranked.size(); i++) {
      Option o = ranked.get(i);
      ObjectNode row = Json.object();
      row.put("status", i == 0 ? "best" : "option");
      ObjectNode full = option(o, i + 1, front.contains(o), shared);
      full.remove("rationale");
      full.remove("host");
      ArrayNode texts = Json.array();
      own(o, shared).forEach(w -> texts.add(Reports.text(w)));
      full.set("warnings", texts);
      row.setAll(full);
      row.put("rationale", o.rationale());
      rows.add(row);
    }
    for (Rejection r : shown(rec.rejected(), limit)) {
      ObjectNode row = Json.object();
      row.put("status", "rejected");
      row.put("candidate", candidate(r));
      row.put("provider", r.offering().provider());
      row.put("instanceType", r.offering().instanceType());
      row.put("region", r.offering().region());
      row.put("gpu", r.offering().gpu().id());
      Json.put(row, "gpuCount", r.gpus());
      Json.put(row, "nodes", r.instances());
      row.put("rejection", r.kind().name());
      row.put("reason", r.reason());
      rows.add(row);
    }
    return Csv.write(CSV_COLUMNS, rows);
  }

  // ---------------------------------------------------------------- table

  static String table(Recommendation rec, Task task, int top) {
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "%s, %s, %s parameters (%s trainable)%s; objective %s; costs in %s%n",
        task.model().name(), Reports.kind(task), Output.count(task.model().parameters()),
        Output.count(task.trainableParameters()),
        task.tokens().isPresent() ? ", " + Output.count(task.tokens().getAsDouble()) + " tokens"
            : task.samples().isPresent() ? ", " + Output.count(task.samples().getAsDouble()) + " samples" : "",
        rec.objective().name().toLowerCase(Locale.ROOT).replace('_', ' '), rec.currency().getCurrencyCode()));
    s.append(Reports.framework(task.framework(), task.frameworkAssumed())).append('\n');
    if (rec.best().isPresent()) {
      Option best = rec.best().get();
      List<Option> ranked = rec.topOptions(top);
      List<Option> front = shownFront(rec, top);
      List<Warning> shared = shared(rec, ranked, front);
      s.append("\nBEST: ").append(describe(best)).append('\n');
      s.append("  ").append(best.rationale()).append('\n');
      s.append("  time: ").append(split(best)).append('\n');
      for (Warning w : own(best, shared)) {
        s.append("  ").append(Reports.label(w)).append(": ").append(Reports.text(w)).append('\n');
      }
      if (!shared.isEmpty()) {
        s.append(String.format(Locale.ROOT, "%nWARNINGS FOR EVERY OPTION SHOWN (%d)%n", shared.size()));
        for (Warning w : shared) {
          s.append("  ").append(Reports.severityTag(w)).append(Reports.text(w)).append('\n');
        }
      }
      s.append(String.format(Locale.ROOT, "%nRANKED OPTIONS (%d feasible%s)%n", rec.optionCount(),
          rec.optionCount() > top ? ", top " + top + " shown" : ""));
      s.append(optionTable(ranked, rec, frontOf(rec)));
      s.append(String.format(Locale.ROOT, "%nPARETO FRONT, cost vs time (%d options, fastest first)%n",
          rec.paretoFront().size()));
      if (rec.paretoFront().size() > top) {
        s.append(String.format(Locale.ROOT, "(%d shown: the fastest %d and the cheapest)%n", top, top - 1));
      }
      s.append(optionTable(front, rec, frontOf(rec)));
    } else {
      s.append("\nNO OPTION MEETS THE CONSTRAINTS.\n");
      rec.suggestion().ifPresent(sg -> s.append("  ").append(sg.advice()).append('\n'));
    }
    s.append(String.format(Locale.ROOT, "%nREJECTED (%d candidates)%n", rec.rejected().size()));
    s.append(rejections(rec.rejected(), top));
    return s.toString();
  }

  /** {@code "start-up 4m 10s + steps 52m 20s + checkpoints 20s"}. */
  static String split(Option o) {
    return "start-up " + Output.duration(o.startupTime()) + " + steps " + Output.duration(o.computeTime())
        + " + checkpoints " + Output.duration(o.checkpointTime()) + " = " + Output.duration(o.wallTime());
  }

  /** The option's layout in a few words: replicas for inference ({@link Layout#describe}). */
  private static String layout(Option o) {
    return o.layout().describe(o.estimate().task().kind().isTraining());
  }

  static String describe(Option o) {
    return String.format(Locale.ROOT, "%s %s%s: %d x %s, %s, %s, %s", o.offering().provider(),
        o.offering().instanceType(), o.instances() > 1 ? " x" + o.instances() : "", o.gpus(), o.gpu().id(),
        layout(o), Output.durationRange(o.wallTimeInterval()), Output.money(o.cost()))
        + (o.memory().fit() == Fit.MAY_NOT_FIT ? ", may not fit in memory" : "");
  }

  private static String optionTable(List<Option> options, Recommendation rec, Set<Option> front) {
    // the region tells apart an instance type sold in several (one option each, otherwise alike)
    TextTable table = new TextTable(">#", "PROVIDER", "INSTANCE", "REGION", ">NODES", ">GPUS", "GPU", "LAYOUT",
        ">MEM/GPU", ">TIME", ">COST", ">PRICE/H", "BOTTLENECK", "PARETO");
    for (Option o : options) {
      int rank = rec.rank(o).orElse(0);
      table.row(rank >= 1 ? rank : "-", o.offering().provider(), o.offering().instanceType()
              + (o.pricing() == PricingMode.ON_DEMAND ? "" : " (" + o.pricing().name().toLowerCase(Locale.ROOT) + ")"),
          o.offering().region(), o.instances(), o.gpus(), o.gpu().id(), layout(o),
          Reports.size(o.memory().perGpu()) + (o.memory().fit() == Fit.MAY_NOT_FIT ? "!" : ""),
          Output.durationRange(o.wallTimeInterval()), Output.money(o.cost()) + (o.costConverted() ? "*" : ""),
          Output.money(pricePerHour(o)),
          o.bottleneck().name().toLowerCase(Locale.ROOT).replace('_', ' '), front.contains(o) ? "yes" : "");
    }
    String text = table.render();
    if (options.stream().anyMatch(Option::costConverted)) {
      text += "* converted from the offering's currency with reference exchange rates (override with --rate)\n";
    }
    if (options.stream().anyMatch(o -> o.memory().fit() == Fit.MAY_NOT_FIT)) {
      text += "! may not fit: the high end of the memory estimate is past the card (see the option's warnings)\n";
    }
    if (!options.isEmpty()) {
      text += "TIME: nominal (p10–p90 of the speed model's calibration errors for the workload class, "
          + "core/CALIBRATION.md)\n";
    }
    return text;
  }

  /** Counts per kind, then up to {@code top} examples, one per kind first. */
  private static String rejections(List<Rejection> rejected, int top) {
    if (rejected.isEmpty()) {
      return "  none\n";
    }
    StringBuilder s = new StringBuilder("  by reason: ");
    List<String> counts = new ArrayList<>();
    byKind(rejected).forEach((k, list) ->
        counts.add(k.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " " + list.size()));
    s.append(String.join(", ", counts)).append('\n');
    List<Rejection> shown = shown(rejected, top);
    TextTable table = new TextTable("CANDIDATE", "REGION", "WHY", "REASON");
    for (Rejection r : shown) {
      table.row(candidate(r), r.offering().region(), r.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '),
          r.reason());
    }
    s.append(table.render());
    if (rejected.size() > shown.size()) {
      s.append(String.format(Locale.ROOT, "  ... %d more (--all with --format json or csv lists every one)%n",
          rejected.size() - shown.size()));
    }
    return s.toString();
  }

  private static Map<Rejection.Kind, List<Rejection>> byKind(List<Rejection> rejected) {
    Map<Rejection.Kind, List<Rejection>> byKind = new EnumMap<>(Rejection.Kind.class);
    for (Rejection r : rejected) {
      byKind.computeIfAbsent(r.kind(), k -> new ArrayList<>()).add(r);
    }
    return byKind;
  }

  /** Up to {@code limit} rejections, taken in turn from each kind (each kind's in catalog order). */
  private static List<Rejection> shown(List<Rejection> rejected, int limit) {
    if (rejected.size() <= limit) {
      return rejected;
    }
    Map<Rejection.Kind, List<Rejection>> byKind = byKind(rejected);
    List<Rejection> shown = new ArrayList<>();
    for (int round = 0; shown.size() < limit; round++) {
      for (List<Rejection> list : byKind.values()) {
        if (round < list.size() && shown.size() < limit) {
          shown.add(list.get(round));
        }
      }
    }
    return shown;
  }

  // ---------------------------------------------------------------- plot

  static String plot(Recommendation rec) {
    Set<Option> front = frontOf(rec);
    List<CostTimePlot.Point> points = new ArrayList<>();
    Option best = rec.best().orElse(null);
    List<Option> all = new ArrayList<>(rec.options());
    rec.paretoFront().stream().filter(o -> !rec.options().contains(o)).forEach(all::add);
    for (Option o : all) {
      points.add(new CostTimePlot.Point(describeShort(o), Math.max(Output.seconds(o.wallTime()) / 3600, 1e-6),
          o.cost().amount().doubleValue(), front.contains(o), o.equals(best)));
    }
    return CostTimePlot.render(points, rec.currency().getCurrencyCode());
  }

  private static String describeShort(Option o) {
    return o.offering().provider() + " " + o.offering().instanceType() + (o.instances() > 1 ? " x" + o.instances() : "")
        + " (" + o.gpus() + " x " + o.gpu().id() + ")";
  }
}
