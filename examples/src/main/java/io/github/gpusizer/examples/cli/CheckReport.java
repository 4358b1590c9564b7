package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableList;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.examples.localgpu.CatalogMatch;
import io.github.gpusizer.examples.localgpu.LocalGpu;
import io.github.gpusizer.examples.localgpu.LocalGpuCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The table, JSON and CSV of {@code gpusizer check}: the local GPUs and, given a task, whether it fits. */
final class CheckReport {
  private CheckReport() {}

  /** The CSV header: the local GPU, then the check of the task (empty without one). */
  static final ImmutableList<String> CSV_COLUMNS = ImmutableList.of(
      "index", "name", "catalogGpu", "memoryTotalBytes", "memoryUsedBytes", "memoryFreeBytes",
      "utilizationPercent", "driverVersion", "computeCapability", "check.gpu", "check.neededPerGpuBytes",
      "check.fitsNow", "check.fitsWhenIdle");

  static String render(List<LocalGpu> local, Catalog catalog, Optional<LocalGpuCheck.Result> result,
                       Format format) {
    if (format == Format.TABLE) {
      TextTable table = new TextTable(">#", "NAME", "CATALOG GPU", ">MEMORY", ">USED", ">FREE", ">UTIL", "DRIVER",
          ">CC");
      for (LocalGpu g : local) {
        table.row(g.index(), g.name(), CatalogMatch.find(catalog, g).map(Gpu::id).orElse("(not in catalog)"),
            Output.memory(g.memoryTotal()), g.memoryUsed().map(Output::memory).orElse("-"),
            Output.memory(g.memoryFree()),
            g.utilizationPercent().isPresent() ? g.utilizationPercent().getAsInt() + "%" : "-",
            g.driverVersion().orElse("-"), g.computeCapability().map(Object::toString).orElse("-"));
      }
      StringBuilder s = new StringBuilder(table.render());
      result.ifPresent(r -> s.append('\n').append(Reports.estimateTable(r.estimate())).append('\n')
          .append(r.verdict()).append('\n'));
      return s.toString();
    }
    ObjectNode root = Json.object();
    ArrayNode gpus = root.putArray("gpus");
    for (LocalGpu g : local) {
      ObjectNode node = gpus.addObject();
      node.put("index", g.index());
      node.put("name", g.name());
      Json.put(node, "catalogGpu", CatalogMatch.find(catalog, g).map(Gpu::id));
      node.put("memoryTotalBytes", g.memoryTotal().bytes());
      Json.put(node, "memoryUsedBytes", g.memoryUsed().map(u -> u.bytes()));
      node.put("memoryFreeBytes", g.memoryFree().bytes());
      Json.put(node, "utilizationPercent", g.utilizationPercent());
      Json.put(node, "driverVersion", g.driverVersion());
      Json.put(node, "computeCapability", g.computeCapability());
    }
    if (result.isPresent()) {
      LocalGpuCheck.Result r = result.get();
      ObjectNode check = root.putObject("check");
      check.put("gpu", r.gpu().id());
      check.put("gpuCount", r.used().size());
      check.put("neededPerGpuBytes", r.needed().bytes());
      check.put("freeBytes", r.free().bytes());
      check.put("fitsNow", r.fitsNow());
      check.put("fitsWhenIdle", r.fitsWhenIdle());
      check.put("verdict", r.verdict());
      check.set("estimate", Reports.estimate(r.estimate()));
    } else {
      root.putNull("check");
    }
    if (format == Format.JSON) {
      return Json.pretty(root, catalog);
    }
    // CSV: one row per local GPU, with the check's verdict repeated where a task was given.
    List<ObjectNode> rows = new java.util.ArrayList<>();
    for (int i = 0; i < local.size(); i++) {
      ObjectNode row = ((ObjectNode) root.get("gpus").get(i)).deepCopy();
      result.ifPresent(r -> {
        row.put("check.gpu", r.gpu().id());
        row.put("check.neededPerGpuBytes", r.needed().bytes());
        row.put("check.fitsNow", r.fitsNow());
        row.put("check.fitsWhenIdle", r.fitsWhenIdle());
      });
      rows.add(row);
    }
    return Csv.write(CSV_COLUMNS, rows);
  }
}
