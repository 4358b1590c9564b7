package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.cost.Ownership;
import io.github.gpusizer.core.cost.RentalComparison;
import io.github.gpusizer.core.cost.RentalOption;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.examples.support.Quantities;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code gpusizer compare}: seed 001's question (a short rental of a high-end card or a long one of a mid-range
 * card?) for the task's own hours, and with {@code --electricity}, buying each offering's cards against renting them.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Compare renting named offerings for a task (one instance each, data-parallel over its GPUs): "
        + "time, billed time, cost and the cheapest; with --electricity, buying the cards against renting them.",
        "AutoDL's GPU guide: \"short rental of a high-end card or long rental of a mid-range one?\"; the deep-learning server guide: a year's rent "
            + "is about the price / 3 plus a little."})
final class CompareCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  CommonOptions common;

  @Mixin
  TaskOptions taskOptions;

  @Option(names = "--offering", paramLabel = "PROVIDER/INSTANCE", required = true, split = ",",
      description = "An offering to compare, e.g. aistudio/NVIDIA-A100-40GB-x1 (repeatable, at least one).")
  List<String> offerings = new ArrayList<>();

  @Option(names = "--electricity", paramLabel = "MONEY",
      description = "Price of a kWh, e.g. 0.15USD or 1.2CNY: also compare buying each offering's cards (at their "
          + "catalog price, drawing their TDP, PUE 1.58) with renting them.")
  String electricity;

  @Option(names = "--years", paramLabel = "N", converter = Converters.PositiveInt.class, defaultValue = "3",
      description = "Years to write a purchase off over (default ${DEFAULT-VALUE}: the deep-learning server guide's rule that a year's rent is about a third of the price).")
  int years = 3;

  /** One compared offering: its estimate on one instance and its rental. */
  private record Compared(Offering offering, Duration wall, RentalOption rental) {}

  @Override
  public Integer call() {
    taskOptions.refuseLayout("compare runs each offering's instance data-parallel over its GPUs; time a layout of "
        + "your own with estimate");
    Task task = taskOptions.task();
    Catalog catalog = common.catalog();
    Estimator estimator = Estimator.defaults();
    List<Compared> compared = new ArrayList<>();
    List<String> chosen = new ArrayList<>();
    for (String name : offerings) {
      Offering o = find(catalog, name);
      int gpus = o.gpuCount();
      Hardware hardware = Hardware.of(o.gpu(), gpus, 1);
      Task run = taskOptions.withOpenMicroBatch(task, hardware, Layout.dataParallel(gpus), estimator);
      taskOptions.microBatchNote(run).ifPresent(n -> chosen.add(o.provider() + "/" + o.instanceType() + ": " + n));
      Estimate e = estimator.estimateAsRun(run, hardware, Layout.dataParallel(gpus));
      if (!e.memory().fits()) {
        throw new IllegalArgumentException("--offering " + name + ": the task does not fit (needs "
            + e.memory().perGpu() + " per GPU, the " + o.gpu().name() + " has " + e.memory().capacity() + ")");
      }
      Duration wall = e.performance().totalTime().orElseThrow(() -> new IllegalArgumentException(
          "compare needs an amount of work: give --tokens or --samples (or --dataset with --epochs)"));
      compared.add(new Compared(o, wall, RentalOption.of(o, wall).withLabel(o.provider() + "/" + o.instanceType())));
    }
    RentalComparison rent = RentalComparison.of(compared.stream().map(Compared::rental).toList());
    List<CompareReport.Purchase> purchases = new ArrayList<>();
    List<String> noPrice = new ArrayList<>();
    if (electricity != null) {
      for (Compared c : compared) {
        Offering o = c.offering();
        Money kwh = Quantities.money("--electricity", electricity, o.onDemandPerHour().currency());
        if (o.gpu().purchasePrice().isEmpty()) {
          noPrice.add(o.provider() + "/" + o.instanceType() + ": the catalog has no purchase price for the "
              + o.gpu().name());
          continue;
        }
        if (!kwh.currency().equals(o.onDemandPerHour().currency())) {
          throw new IllegalArgumentException("--electricity must be in the currency of " + o.provider() + "/"
              + o.instanceType() + "'s price, " + o.onDemandPerHour().currency() + ", was '" + electricity + "'");
        }
        Ownership own = CostModel.defaults().ownership(o.gpu(), o.gpuCount(), years, kwh);
        purchases.add(new CompareReport.Purchase(o, own.purchasePrice().amount(), own.versus(o.onDemandPerHour())));
      }
    }
    String report = CompareReport.render(task, rent, purchases, noPrice, years, common.format, catalog);
    if (common.format == Format.TABLE && !chosen.isEmpty()) {
      report = report + String.join("\n", chosen) + "\n";
    }
    Output.print(spec, report, common.format);
    return 0;
  }

  private Offering find(Catalog catalog, String name) {
    int slash = name.indexOf('/');
    if (slash <= 0 || slash == name.length() - 1) {
      throw new ParameterException(spec.commandLine(),
          "--offering takes PROVIDER/INSTANCE, e.g. aistudio/NVIDIA-4090-24GB-x1, was '" + name + "'");
    }
    String provider = name.substring(0, slash).strip();
    String type = name.substring(slash + 1).strip();
    return catalog.offerings().stream()
        .filter(o -> o.provider().equalsIgnoreCase(provider) && o.instanceType().equalsIgnoreCase(type))
        .findFirst().orElseThrow(() -> new IllegalArgumentException("--offering " + name + " is not in the catalog;"
            + " 'gpusizer offers --provider " + provider + "' lists that provider's instances"));
  }
}
