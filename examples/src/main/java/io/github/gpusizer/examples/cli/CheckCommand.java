package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableList;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.examples.localgpu.CatalogMatch;
import io.github.gpusizer.examples.localgpu.LocalGpu;
import io.github.gpusizer.examples.localgpu.LocalGpuCheck;
import io.github.gpusizer.examples.localgpu.NvidiaSmi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gpusizer check}: the local GPUs and whether a task fits them. */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Show the local GPUs (from nvidia-smi if it is on PATH, or from its recorded output) and, "
        + "with a task, whether it fits in their memory now and when they are idle.",
        "Exits with 1 when no GPU is found or the task does not fit."})
final class CheckCommand implements Callable<Integer> {

  /** The CSV header: the local GPU, then the check of the task (empty without one). */
  static final ImmutableList<String> CSV_COLUMNS = ImmutableList.of(
      "index", "name", "catalogGpu", "memoryTotalBytes", "memoryUsedBytes", "memoryFreeBytes",
      "utilizationPercent", "driverVersion", "computeCapability", "check.gpu", "check.neededPerGpuBytes",
      "check.fitsNow", "check.fitsWhenIdle");
  @Spec
  CommandSpec spec;

  @Mixin
  CommonOptions common;

  @Mixin
  TaskOptions taskOptions;

  @Option(names = "--nvidia-smi-csv", paramLabel = "FILE",
      description = "Recorded output of: nvidia-smi --query-gpu=name,memory.total,memory.used,utilization.gpu,"
          + "driver_version,compute_cap --format=csv")
  Path nvidiaSmiCsv;

  @Option(names = "--gpu", paramLabel = "NAME",
      description = "The catalog GPU the local one is, where its nvidia-smi name is not in the catalog.")
  String gpu;

  @Option(names = "--gpus", paramLabel = "N", converter = Converters.PositiveInt.class, defaultValue = "1",
      description = "Local GPUs the task would use (default ${DEFAULT-VALUE}).")
  int gpus = 1;

  @Override
  public Integer call() throws IOException {
    List<LocalGpu> local = localGpus();
    Catalog catalog = common.catalog();
    if (!taskOptions.hasModel()) {
      Output.print(spec, render(local, catalog, Optional.empty(), common.format), common.format);
      return 0;
    }
    Task task = taskOptions.task();
    Layout layout = EstimateCommand.layout(taskOptions, gpus, 1);
    LocalGpuCheck.Result result =
        LocalGpuCheck.check(catalog, local, Optional.ofNullable(gpu), task, layout, Estimator.defaults());
    Output.print(spec, render(local, catalog, Optional.of(result), common.format), common.format);
    if (!result.fitsNow()) {
      throw new InfeasibleException(result.fitsWhenIdle()
          ? result.verdict() + "; stop the other processes on the GPU (nvidia-smi lists them)"
          : Advice.doesNotFit(Estimator.defaults(), result.estimate()));
    }
    return 0;
  }

  private List<LocalGpu> localGpus() throws IOException {
    if (nvidiaSmiCsv != null) {
      return NvidiaSmi.read(nvidiaSmiCsv);
    }
    List<String> problems = new ArrayList<>();
    Optional<String> csv = NvidiaSmi.queryIfPresent(problems::add);
    if (csv.isEmpty()) {
      throw new InfeasibleException("no NVIDIA GPU found: " + (problems.isEmpty() ? "nvidia-smi failed"
          : String.join("; ", problems)) + "; give --nvidia-smi-csv FILE with the output of "
          + String.join(" ", NvidiaSmi.COMMAND));
    }
    return NvidiaSmi.parse("nvidia-smi", csv.get());
  }

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
