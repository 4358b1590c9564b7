package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.examples.localgpu.LocalGpu;
import io.github.gpusizer.examples.localgpu.LocalGpuCheck;
import io.github.gpusizer.examples.localgpu.NvidiaSmi;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
      Output.print(spec, CheckReport.render(local, catalog, Optional.empty(), common.format), common.format);
      return 0;
    }
    Task task = taskOptions.task();
    Layout layout = EstimateCommand.layout(taskOptions, gpus, 1);
    LocalGpuCheck.Result result =
        LocalGpuCheck.check(catalog, local, Optional.ofNullable(gpu), task, layout, Estimator.defaults());
    Output.print(spec, CheckReport.render(local, catalog, Optional.of(result), common.format), common.format);
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

}
