package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gpusizer gpus}: the catalog's GPUs with their specs, like {@code sky show-gpus}. */
@Command(name = "gpus", mixinStandardHelpOptions = true, sortOptions = false,
    description = "List the catalog's GPUs with memory, bandwidth and dense peak TFLOPS per precision.")
final class GpusCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  CommonOptions common;

  @Option(names = "--gpu", paramLabel = "NAME", description = "Show only this GPU (id, name or alias).")
  String gpu;

  @Override
  public Integer call() {
    Catalog catalog = common.catalog();
    List<Gpu> gpus = gpu == null ? catalog.gpus() : List.of(catalog.gpu(gpu));
    Output.print(spec, GpusReport.render(gpus, catalog, common.format), common.format);
    return 0;
  }

}
