package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.core.GpuSizer;
import io.github.gpusizer.core.Sizer;
import io.github.gpusizer.core.Recommendation;
import io.github.gpusizer.core.Suggestion;
import io.github.gpusizer.core.cost.ExchangeRates;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.estimate.FixedCosts;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.examples.support.Printable;
import io.github.gpusizer.examples.support.Quantities;
import io.github.gpusizer.examples.support.Words;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Period;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gpusizer recommend}: the ranked options, the Pareto front and the rejected candidates with reasons. */
@Command(name = "recommend", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Recommend hardware for a task: every offering x instance count x parallel layout that fits, "
        + "ranked by the objective, with the cost/time Pareto front and every rejected candidate with its reason.",
        "Exits with 1 when nothing meets the constraints (the message says what would)."})
final class RecommendCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  CommonOptions common;

  @Mixin
  TaskOptions taskOptions;

  @Option(names = "--deadline", paramLabel = "DURATION", converter = Converters.Time.class,
      description = "Longest acceptable wall time, e.g. 24h (default), 3d, 1d12h.")
  Duration deadline;

  @Option(names = "--budget", paramLabel = "MONEY",
      description = "Most the job may cost, e.g. 2000CNY or 300USD (a bare number is in --currency).")
  String budget;

  @Option(names = "--objective", completionCandidates = Completions.Objectives.class, paramLabel = "cheapest|fastest|value", defaultValue = "cheapest",
      description = "What to optimise; value = the cheapest among options at most 1.5x as slow as the fastest "
          + "(default: ${DEFAULT-VALUE}).")
  String objective = "cheapest";

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  GpuCount gpuCount;

  /** How many GPUs in all: exactly {@code --gpus}, or between {@code --min-gpus} and {@code --max-gpus}. */
  static final class GpuCount {
    @Option(names = "--gpus", paramLabel = "N", converter = Converters.PositiveInt.class,
        description = "Exactly N GPUs in all, 1.." + GpuSizer.MAX_CLUSTER_GPUS + "; offerings whose instances cannot "
            + "make N (GPUs per instance that do not divide it, too many nodes, stand-alone machines) are rejected "
            + "with the reason. Not with --min-gpus or --max-gpus.")
    Integer exactly;

    @ArgGroup(exclusive = false)
    GpuRange range;
  }

  /** The range of {@link GpuCount}. */
  static final class GpuRange {
    @Option(names = "--min-gpus", paramLabel = "N", converter = Converters.PositiveInt.class,
        description = "Fewest GPUs in all, 1.." + GpuSizer.MAX_CLUSTER_GPUS + " (default 1), at most --max-gpus.")
    Integer minGpus;

    @Option(names = "--max-gpus", paramLabel = "N", converter = Converters.PositiveInt.class,
        description = "Most GPUs in all, 1.." + GpuSizer.MAX_CLUSTER_GPUS + " (default " + GpuSizer.DEFAULT_MAX_GPUS
            + ").")
    Integer maxGpus;
  }

  @Option(names = "--max-nodes", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Most instances (nodes) in all, 1.." + GpuSizer.MAX_CLUSTER_GPUS
          + " (default: as many as --max-gpus allows).")
  Integer maxNodes;

  @Mixin
  OfferingOptions only;

  @Option(names = "--spot", description = "Also consider spot (pre-emptible) prices.")
  boolean spot;

  @Option(names = "--spot-interruptions", paramLabel = "RATE", converter = Converters.Number.class,
      description = "Expected spot interruptions per instance-hour, e.g. 0.01 (needs --spot and, unless 0, "
          + "--checkpoint-every): spot options carry the re-done work since the last checkpoint and a restart per "
          + "interruption. Without it each provider's sourced default applies (AWS, Azure, GCP; see README), with "
          + "--checkpoint-every or Young's optimum interval for the rate; 0 prices spot as never interrupted.")
  Double spotInterruptions;

  @Option(names = "--runs", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Independent runs of the task, e.g. 2 parameter experiments (Baidu AIStudio's GPU guide: 2 GPUs run two at once); "
          + "they share the instances and the cost covers them all (default 1).")
  Integer runs;

  @Option(names = "--currency", paramLabel = "CODE",
      description = "Currency costs are ranked and shown in (default: the budget's, else USD).")
  String currency;

  @Option(names = "--rate", paramLabel = "FROM:TO=RATE", converter = Converters.Rate.class,
      description = "An exchange rate overriding the bundled reference rates, e.g. CNY:USD=0.14 (repeatable).")
  List<Quantities.Rate> rates = new ArrayList<>();

  @Option(names = "--stale-after", paramLabel = "DAYS", converter = Converters.PositiveInt.class,
      description = "Days after which a price counts as stale and its options carry a price-stale warning "
          + "(default 180).")
  Integer staleAfterDays;

  @Option(names = "--cuda", paramLabel = "VERSION",
      description = "Your CUDA version, e.g. 11.8: GPUs that need a newer one are rejected.")
  String cuda;

  @Option(names = "--plot", paramLabel = "FILE.svg",
      description = "Also draw total cost against wall time of every feasible option as SVG.")
  Path plot;

  @Option(names = "--provisioning", paramLabel = "[PROVIDER=]DURATION",
      description = "Time to provision and boot the instances (default 45s, sourced in FixedCosts), for every "
          + "provider or, as PROVIDER=DURATION, for one (repeatable), e.g. --provisioning aistudio=20s.")
  List<String> provisioning = new ArrayList<>();

  @Option(names = "--storage-mbps", paramLabel = "MB/S", converter = Converters.Number.class,
      description = "Rate at which the image, weights, data and checkpoints are read and written per node "
          + "(default 131, an AWS gp3 volume's baseline 125 MiB/s).")
  Double storageMBps;

  @Option(names = "--checkpoint-every", paramLabel = "DURATION", converter = Converters.Time.class,
      description = "Time between checkpoints (default: Young's optimum for the job's GPUs and failure rate).")
  Duration checkpointEvery;

  @Option(names = "--resume",
      description = "The run resumes from a checkpoint: it reads the optimizer state at start as well as the weights.")
  boolean resume;

  @Option(names = "--no-fixed-costs",
      description = "Time and price only the steps: no start-up or checkpoint writes (for comparing with "
          + "step-time benchmarks).")
  boolean noFixedCosts;

  @Option(names = "--exhaustive",
      description = "Try every number of instances, not only the planner's ladder (every count up to 8 GPUs, then "
          + "steps of at most 25%%, plus the smallest count that meets the deadline). Slower.")
  boolean exhaustive;

  @Option(names = "--allow-tight-memory",
      description = "Where no recipe surely fits, also run one whose nominal peak fits but whose memory interval "
          + "reaches past the card (\"may not fit\"); by default such hardware is rejected with both figures.")
  boolean allowTightMemory;

  @Option(names = "--top", paramLabel = "N", converter = Converters.PositiveInt.class, defaultValue = "10",
      description = "Rows of options and rejections shown or listed (default ${DEFAULT-VALUE}; --all lists every one "
          + "in JSON and CSV).")
  int top = 10;

  @Option(names = "--all",
      description = "List every option and rejection in JSON and CSV (default: as many as --top, with totals).")
  boolean all;

  /**
   * The spot interruptions from {@code --spot-interruptions}: each loses half of {@code --checkpoint-every} of work
   * on average and a restart that takes the provisioning time ({@code --provisioning}, default 45 s); 0: never.
   */
  private Interruptions interruptions() {
    if (!spot) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "--spot-interruptions prices spot capacity: give --spot as well");
    }
    if (!Double.isFinite(spotInterruptions) || spotInterruptions < 0) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "--spot-interruptions must be a finite rate >= 0 per instance-hour, was " + spotInterruptions);
    }
    if (spotInterruptions == 0) {
      return Interruptions.never();
    }
    if (checkpointEvery == null) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "--spot-interruptions needs --checkpoint-every: an interruption loses the work since the last checkpoint");
    }
    return Interruptions.of(spotInterruptions, checkpointEvery, FixedCosts.DEFAULT_PROVISIONING);
  }

  /** The fixed costs of a run from the flags, checked before anything is sized. */
  private FixedCosts fixedCosts() {
    if (noFixedCosts) {
      if (!provisioning.isEmpty() || storageMBps != null || checkpointEvery != null || resume) {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(),
            "--no-fixed-costs contradicts --provisioning, --storage-mbps, --checkpoint-every and --resume: give one or "
                + "the other");
      }
      return FixedCosts.none();
    }
    FixedCosts costs = FixedCosts.defaults();
    for (String p : provisioning) {
      int eq = p.indexOf('=');
      try {
        costs = eq < 0 ? costs.withProvisioning(Quantities.duration("--provisioning", p))
            : costs.withProvisioning(p.substring(0, eq).strip(),
                Quantities.duration("--provisioning " + p.substring(0, eq).strip(), p.substring(eq + 1)));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage()
            + " (--provisioning takes DURATION or PROVIDER=DURATION, e.g. 45s or aistudio=20s)");
      }
    }
    if (storageMBps != null) {
      if (!(storageMBps > 0) || storageMBps.isInfinite()) {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(),
            "--storage-mbps must be a finite rate > 0 MB/s, was " + storageMBps);
      }
      costs = costs.withStorageMBps(storageMBps);
    }
    if (checkpointEvery != null) {
      costs = costs.withCheckpointInterval(checkpointEvery);
    }
    return resume ? costs.resumingFromCheckpoint() : costs;
  }

  @Override
  public Integer call() {
    if (plot != null) {
      checkPlotTarget(plot);
    }
    taskOptions.refuseLayout("recommend searches ZeRO stages, tensor- and pipeline-parallel degrees itself (and no "
        + "context parallelism); time a layout of your own with estimate");
    Task task = taskOptions.task();
    Catalog catalog = common.catalog();
    Sizer sizer = GpuSizer.forTask(task).catalog(catalog).objective(Words.OBJECTIVES.get(objective));
    Currency ranking = currency == null ? null : Quantities.currency("--currency", currency);
    if (ranking != null) {
      sizer.currency(ranking.getCurrencyCode());
    }
    if (deadline != null) {
      sizer.deadline(deadline);
    }
    if (budget != null) {
      Money money = Quantities.money("--budget", budget, ranking != null ? ranking : GpuSizer.DEFAULT_CURRENCY);
      if (money.amount().signum() <= 0) {
        throw new IllegalArgumentException("--budget must be > 0, was '" + budget + "'");
      }
      sizer.budget(money);
    }
    Integer exactly = gpuCount == null ? null : gpuCount.exactly;
    GpuRange range = gpuCount == null ? null : gpuCount.range;
    if (exactly != null) {
      sizer.gpus(exactly);
    }
    if (range != null && range.minGpus != null) {
      int most = range.maxGpus != null ? range.maxGpus : GpuSizer.DEFAULT_MAX_GPUS;
      if (range.minGpus > most) {
        throw new IllegalArgumentException("--min-gpus (" + range.minGpus + ") must be <= --max-gpus (" + most + ")"
            + (range.maxGpus == null ? ", whose default is " + GpuSizer.DEFAULT_MAX_GPUS : ""));
      }
      sizer.minGpus(range.minGpus);
    }
    if (range != null && range.maxGpus != null) {
      sizer.maxGpus(range.maxGpus);
    }
    if (staleAfterDays != null) {
      sizer.staleAfter(Period.ofDays(staleAfterDays));
    }
    if (maxNodes != null) {
      sizer.maxNodes(maxNodes);
    }
    List<String> providers = only.providers(catalog);
    if (!providers.isEmpty()) {
      sizer.providers(providers.toArray(String[]::new));
    }
    List<String> gpuIds = only.gpuIds(catalog);
    if (!gpuIds.isEmpty()) {
      sizer.gpuModels(gpuIds.toArray(String[]::new));
    }
    if (spot) {
      sizer.allowSpot();
    }
    if (!rates.isEmpty()) {
      Quantities.checkRates("--rate", rates);
      ExchangeRates exchange = ExchangeRates.bundled();
      for (Quantities.Rate r : rates) {
        exchange = exchange.with(r.from(), r.to(), r.rate());
      }
      sizer.exchangeRates(exchange);
    }
    if (cuda != null) {
      sizer.cudaVersion(cuda);
    }
    if (runs != null) {
      sizer.runs(runs);
    }
    if (spotInterruptions != null) {
      sizer.spotInterruptions(interruptions());
    }
    sizer.fixedCosts(fixedCosts());
    if (exhaustive) {
      sizer.exhaustive();
    }
    if (allowTightMemory) {
      sizer.allowTightMemory();
    }
    Recommendation rec = sizer.recommend();
    if (common.format == Format.SKYPILOT && rec.isFeasible()) {
      io.github.gpusizer.core.Option chosen = SkyPilotTask.launchable(rec).orElseThrow(() -> new InfeasibleException(
          "no feasible option is on a cloud SkyPilot launches (" + String.join(", ", SkyPilotTask.CLOUDS)
              + ", on demand or spot); the best is on " + rec.bestOrThrow().offering().provider()
              + ": give --provider with SkyPilot clouds, or another --format"));
      Output.print(spec, SkyPilotTask.yaml(rec, chosen, task), common.format);
    } else if (common.format != Format.SKYPILOT) {
      Output.print(spec, RecommendReport.render(rec, task, common.format, top, all, catalog), common.format);
    }
    if (!rec.isFeasible()) {
      throw new InfeasibleException("no option meets the constraints: "
          + rec.suggestion().map(s -> advice(s, exactly != null)).orElse(rec.rejected().size()
              + " candidates rejected; see the rejections above"));
    }
    if (plot != null) {
      writePlot(rec);
    }
    return 0;
  }

  /**
   * The library's advice, then the options that would act on it; more GPUs as {@code --gpus} where the user fixed
   * the count ({@code exactGpus}).
   */
  static String advice(Suggestion s, boolean exactGpus) {
    List<String> flags = new ArrayList<>();
    s.deadline().ifPresent(d -> flags.add("--deadline " + Quantities.format(d)));
    s.budget().ifPresent(b -> flags.add("--budget " + b.rounded().amount().toPlainString()
        + b.currency().getCurrencyCode()));
    s.gpus().ifPresent(n -> flags.add((exactGpus ? "--gpus " : "--max-gpus ") + n + " --max-nodes " + n));
    s.cuda().ifPresent(v -> flags.add("--cuda " + v));
    return s.advice() + (flags.isEmpty() ? "" : " (options: " + String.join(" or ", flags) + ")");
  }

  /**
   * Fails before any work when {@code --plot} cannot be written: its folder is missing or not writable, or it
   * names a directory or something that is not a regular file (writing to a FIFO would block).
   */
  static void checkPlotTarget(Path file) {
    Path absolute = file.toAbsolutePath();
    Path folder = absolute.getParent();
    if (Files.isDirectory(absolute)) {
      throw new IllegalArgumentException("--plot " + file + " is a directory; give a file name such as "
          + file.resolve("plot.svg"));
    }
    if (Files.exists(absolute) && !Files.isRegularFile(absolute)) {
      throw new IllegalArgumentException("--plot " + file + " is not a regular file (a FIFO, socket or device); "
          + "give a file to write the SVG to");
    }
    if (folder == null || !Files.isDirectory(folder)) {
      throw new IllegalArgumentException("--plot " + file + ": the folder " + folder + " does not exist");
    }
    if (!Files.isWritable(folder)) {
      throw new IllegalArgumentException("--plot " + file + ": the folder " + folder + " is not writable");
    }
  }

  private void writePlot(Recommendation rec) {
    try {
      Files.writeString(plot, RecommendReport.plot(rec), StandardCharsets.UTF_8);
    } catch (IOException e) {
      String reason = e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null ? fs.getReason()
          : e.getMessage();
      throw new UncheckedIOException(new IOException("cannot write --plot " + plot + ": " + reason, e));
    }
    spec.commandLine().getErr().println(Printable.line("plot written to " + plot));
    spec.commandLine().getErr().flush();
  }
}
