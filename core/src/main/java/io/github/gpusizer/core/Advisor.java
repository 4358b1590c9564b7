package io.github.gpusizer.core;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.catalog.Vendor;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.cost.SpotEstimate;
import io.github.gpusizer.core.estimate.Bottleneck;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.HostSizing;
import io.github.gpusizer.core.estimate.MemoryEstimate;
import io.github.gpusizer.core.estimate.Warning;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Dataset;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.time.Duration;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Turns a candidate into an {@link Option}: host sizing per instance, warnings and the one-line rationale. */
final class Advisor {
  private final Settings s;
  private final Map<Outcome.Fit, List<Warning>> fitWarnings = new IdentityHashMap<>();

  Advisor(Settings s) {
    this.s = s;
  }

  Option option(Candidate c) {
    Estimate e = c.fit().estimate();
    HostSizing host = hostPerInstance(c);
    return new Option(c.offering(), c.mode(), c.instances(), s.runs(), c.concurrent(), e, c.wall(), c.startup(),
        c.checkpoints(), c.priced().billed(), c.cost(), c.priced().cost(), c.quote().rate(), host, warnings(c, host), rationale(c));
  }

  /** The host one instance needs: the estimator's per-node sizing, times the runs sharing the instance. */
  private HostSizing hostPerInstance(Candidate c) {
    HostSizing perRun = c.fit().estimate().host();
    int runsPerInstance = c.runGpus() < c.offering().gpuCount()
        ? Math.min(c.offering().gpuCount() / c.runGpus(), (c.concurrent() + c.instances() - 1) / c.instances()) : 1;
    return perRun.forRuns(runsPerInstance);
  }

  private ImmutableList<Warning> warnings(Candidate c, HostSizing host) {
    Set<Warning> out = new LinkedHashSet<>(fitWarnings.computeIfAbsent(c.fit(), this::fitWarnings));
    Estimate e = c.fit().estimate();
    Offering o = c.offering();
    int busy = c.concurrent() * c.runGpus();
    if (busy < c.gpus()) {
      out.add(Warning.of("idle-gpus", Warning.Severity.INFO, (s.runs() == 1 ? "the run uses " : "the runs use ")
          + busy + " of the " + c.gpus() + " GPUs rented: spreading " + (s.runs() == 1 ? "it" : "them")
          + " over more GPUs would be slower; the idle GPUs could run further experiments (Baidu AIStudio's GPU guide: 2 GPUs run two "
          + "parameter experiments at once)", "size them with --runs N", "size them with runs(n) on the sizer"));
    }
    if (e.hardware().nodes() > 1 && o.networkGbps().isEmpty()) {
      out.add(Warning.of("network-unstated", Warning.Severity.INFO, "the catalog states no network bandwidth "
          + "between " + o.instanceType() + " instances; the time across nodes rests on the estimator's assumed "
          + "link"));
    }
    if (o.vcpus() > 0 && o.vcpus() < host.cpuCores()) {
      out.add(Warning.of("host-cpu-short", Warning.Severity.WARNING, "the instance has " + o.vcpus() + " vCPUs; "
          + host.cpuCores() + " are recommended (" + host.coresReason() + ")"));
    }
    if (o.ram().bytes() > 0 && o.ram().compareTo(host.ram()) < 0) {
      out.add(Warning.of("host-ram-short", Warning.Severity.WARNING, "the instance has " + Texts.size(o.ram())
          + " of RAM; " + Texts.size(host.ram()) + " are recommended (" + host.ramReason() + ")"));
    }
    if (o.localDisk().compareTo(host.disk()) < 0) {
      out.add(Warning.of("host-disk-short", Warning.Severity.WARNING, (o.localDisk().bytes() == 0
          ? "the instance has no local disk" : "the instance has " + Texts.size(o.localDisk()) + " of local disk")
          + "; attach " + host.diskType().label() + " storage of at least " + Texts.size(host.disk())
          + " (" + host.diskReason() + ")"));
    }
    if (c.mode().price(o).filter(p -> p.amount().signum() == 0).isPresent()) {
      out.add(Warning.of("price-zero", Warning.Severity.CRITICAL, "the catalog prices " + o.key() + " at 0 per hour "
          + c.mode().label() + ", so this option costs nothing and ranks first on cost", "give its real price in "
          + "the --catalog file", "give its real price in the catalog"));
    }
    if (o.vcpus() == 0 || o.ram().bytes() == 0) {
      out.add(Warning.of("host-unknown", Warning.Severity.INFO, "the catalog lists "
          + (o.vcpus() == 0 && o.ram().bytes() == 0 ? "0 vCPUs and 0 RAM" : o.vcpus() == 0 ? "0 vCPUs" : "0 RAM")
          + " for " + o.instanceType() + ": read as unknown, so the recommended host (" + host.cpuCores()
          + " cores, " + Texts.size(host.ram()) + " of RAM per instance) is not checked against it"));
    }
    c.priced().spot().ifPresent(t -> out.add(spotWarning(c, t)));
    s.costs().staleness(o).ifPresent(text -> out.add(Warning.of("price-stale", Warning.Severity.WARNING, text,
        "give current prices in a --catalog file (a SkyPilot vms.csv with --price-date, or an offerings CSV)",
        "give current prices with catalog(...) on the sizer, or a threshold with staleAfter(...)")));
    c.quote().rate().ifPresent(r -> out.add(Warning.of("cost-converted", Warning.Severity.INFO, "cost converted "
        + "from " + Texts.money(c.priced().cost()) + " at "
        + r.rate().round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString() + " " + r.to() + " per "
        + r.from() + r.date().map(d -> " (rate of " + d + ")").orElse("") + "; exchange rates move",
        "give your own rate with --rate FROM:TO=RATE", "give your own rates with exchangeRates(...) on the sizer")));
    return ImmutableList.copyOf(out);
  }

  /**
   * Why the search ran {@code chosen} samples per GPU (sequences per replica) where the task gave none: the most it
   * tries without one ({@link LayoutSearch#openBatch}), or the most memory allows (and the global batch divides).
   */
  private static String chosenBatch(Task asked, int chosen) {
    boolean training = asked.kind().isTraining();
    String head = training ? "micro-batch " + chosen + " per GPU: none was chosen, so the "
        : chosen + " concurrent sequences per replica: none was chosen, so the ";
    if (asked.globalBatch() == 0 && chosen == LayoutSearch.openBatch(asked)) {
      String why = training ? "Goyal et al. 2017's per-GPU ImageNet batch, BERT's largest fine-tuning batch"
          : asked.executionMode() == ExecutionMode.SERVING_ENGINE ? "vLLM's max_num_seqs default"
          : "a script's batch of prompts";
      return head + "most tried without one (" + why + "); it fits even at the high end of the memory estimate";
    }
    return head + (training ? "largest" : "most") + " that fits even at the high end of the memory estimate"
        + (asked.globalBatch() > 0 ? " and divides the global batch" : "");
  }

  /** The warnings that depend only on the run's estimate, shared by every offering of the same hardware. */
  private List<Warning> fitWarnings(Outcome.Fit fit) {
    Set<Warning> out = new LinkedHashSet<>();
    Estimate e = fit.estimate();
    Task asRun = e.task();
    Task asked = s.task();
    Gpu gpu = e.hardware().gpu();
    if (asRun.microBatch() > asked.microBatch()) {
      out.add(Warning.of("micro-batch-chosen", Warning.Severity.INFO, chosenBatch(asked, asRun.microBatch()),
          "fix it with --micro-batch N", "fix it with Task.Builder.microBatch(n)"));
    } else if (asRun.microBatch() != asked.microBatch()) {
      out.add(Warning.of("micro-batch-lowered", Warning.Severity.INFO, asked.kind().isTraining()
          ? "micro-batch lowered from " + asked.microBatch() + " to " + asRun.microBatch()
              + " to fit in memory; gradient accumulation keeps the global batch"
          : "concurrent sequences lowered from " + asked.microBatch() + " to " + asRun.microBatch()
              + " per replica to fit the weights and KV cache in memory"));
    }
    if (asRun.precision() != asked.precision()) {
      out.add(Warning.precisionFallback(gpu, asked.precision(), asRun.precision()));
    }
    if (asRun.checkpointing() != asked.checkpointing()) {
      out.add(Warning.of("checkpointing-added", Warning.Severity.INFO,
          asRun.checkpointing().name().toLowerCase(Locale.ROOT)
          + " activation checkpointing to fit in memory: it recomputes activations in the backward pass"));
    }
    out.addAll(e.warnings());
    cudaWarning(gpu).ifPresent(out::add);
    precisionWarnings(asRun, gpu, out);
    overProvisioned(e.memory(), gpu).ifPresent(out::add);
    sparsityWarning(asRun, gpu).ifPresent(out::add);
    return List.copyOf(out);
  }

  private Optional<Warning> cudaWarning(Gpu gpu) {
    if (s.cuda().isPresent()) {
      if (gpu.vendor() == Vendor.NVIDIA) {
        return Optional.empty();
      }
      String runtime = gpu.vendor() == Vendor.AMD ? "ROCm" : gpu.vendor() == Vendor.GOOGLE ? "XLA" : "its own stack";
      return Optional.of(Warning.of("cuda-mismatch", Warning.Severity.CRITICAL, "your stack is CUDA "
          + s.cuda().get() + "; the " + gpu.name() + " needs " + runtime));
    }
    return gpu.minCuda().map(v -> Warning.of("cuda-version", Warning.Severity.WARNING, "the " + gpu.name()
        + " needs CUDA " + v + " or newer and a driver that supports it",
        "give --cuda VERSION to rule out GPUs your stack cannot run",
        "give cudaVersion(\"12.1\") on the sizer to rule out GPUs your stack cannot run"));
  }

  private static void precisionWarnings(Task task, Gpu gpu, Set<Warning> out) {
    PrecisionMode p = task.precision();
    // The FP32-on-Ampere case (TF32 off by default) is the estimator's warning; this one is for the TF32 recipe.
    if (p == PrecisionMode.TF32) {
      out.add(Warning.of("tf32-off-by-default", Warning.Severity.WARNING, "PyTorch leaves TF32 off for matrix "
          + "multiplications by default (PyTorch docs, \"TensorFloat-32 (TF32) on Ampere (and later) devices\"): "
          + "set torch.backends.cuda.matmul.allow_tf32 = True, or the job runs at the FP32 rate"));
    }
    Precision compute = p.compute();
    if (compute == Precision.FP16 || compute == Precision.BF16) {
      gpu.fp16AccumulateTflops().ifPresent(fast -> out.add(Warning.of("fp32-accumulate-rate", Warning.Severity.INFO,
          String.format(Locale.ROOT, "the %s runs 16-bit tensor math with FP32 accumulation (as mixed-precision "
              + "training does) at %.1f TFLOPS, not the %.1f TFLOPS quoted with FP16 accumulation", gpu.name(),
              gpu.denseTflops(compute), fast))));
    }
  }

  /** "a 24 GB card would do": the smallest GPU in the catalog that holds the job with the required headroom. */
  private Optional<Warning> overProvisioned(MemoryEstimate m, Gpu gpu) {
    DataSize needed = m.perGpu().plus(s.requiredHeadroom(m.capacity()));
    // Only worth saying when a card of at most half the memory would do: smaller steps are within the estimate's
    // error and GPUs come in roughly doubling memory sizes (16, 24, 40/48, 80 GB).
    Optional<Gpu> smaller = s.catalog().gpus().stream()
        .filter(g -> g.memory().compareTo(needed) >= 0 && g.memory().bytes() * 2 <= gpu.memory().bytes())
        .min(Comparator.comparing(Gpu::memory).thenComparing(Gpu::id));
    return smaller.map(g -> Warning.of("over-provisioned", Warning.Severity.INFO, "uses " + Texts.size(m.perGpu())
        + " of " + Texts.size(m.capacity()) + " per GPU: a card with " + Texts.size(g.memory()) + " (such as the "
        + g.name() + ") would do"));
  }

  private static Optional<Warning> sparsityWarning(Task task, Gpu gpu) {
    Precision compute = task.precision().compute();
    boolean tensorFormat = compute == Precision.FP16 || compute == Precision.BF16 || compute == Precision.TF32
        || compute == Precision.FP8 || compute == Precision.INT8;
    // 2:4 fine-grained structured sparsity doubles tensor throughput from Ampere (compute capability 8.0) on (NVIDIA
    // A100 Tensor Core GPU Architecture whitepaper, 2020); datasheets often quote that doubled figure.
    boolean sparseQuoted = gpu.vendor() == Vendor.NVIDIA && gpu.tensorCores() && gpu.computeCapability()
        .map(cc -> cc.isAtLeast(new ComputeCapability(8, 0))).orElse(false);
    if (!tensorFormat || !sparseQuoted || !gpu.supports(compute)) {
      return Optional.empty();
    }
    double dense = gpu.denseTflops(compute);
    return Optional.of(Warning.of("dense-peak", Warning.Severity.INFO, String.format(Locale.ROOT, "times use the "
        + "%s's dense %s peak of %.1f TFLOPS; datasheets quote %.1f with 2:4 structured sparsity, which training does "
        + "not use", gpu.name(), compute, dense, 2 * dense)));
  }

  /** How the spot price was reached: never interrupted (no rate known), or the interruptions priced in. */
  private static Warning spotWarning(Candidate c, CostStep.SpotTerms t) {
    if (t.estimate().isEmpty()) {
      return Warning.of("spot-uninterrupted", Warning.Severity.WARNING, "spot capacity can be reclaimed at any "
          + "time, and " + c.offering().provider() + " has no default interruption rate: priced as if never "
          + "interrupted", "give --spot-interruptions RATE (per instance-hour) for the expected cost of re-done "
          + "work", "give spotInterruptions(Interruptions.of(...)) on the sizer for the expected cost of re-done "
          + "work");
    }
    SpotEstimate e = t.estimate().get();
    Interruptions i = e.assumptions();
    if (i.perHour() == 0) {
      return Warning.of("spot-interruptions", Warning.Severity.INFO, "spot: priced as never interrupted, as asked");
    }
    String message = String.format(Locale.ROOT, "spot: %s interruptions expected over the run (%s), each losing "
            + "the work since the last checkpoint (every %s%s) and a %s restart; the time (+%s) and cost include them",
        count(e.expectedInterruptions()), t.defaultRate().map(r -> c.offering().provider() + "'s default rate of "
            + String.format(Locale.ROOT, "%.2g", r.perHour()) + " per instance-hour: " + r.basis())
            .orElse(String.format(Locale.ROOT, "%.2g per instance-hour, as given", i.perHour())),
        Texts.hoursMinutes(i.checkpointInterval()), t.intervalYoung() ? ", Young's optimum for that rate" : "",
        brief(i.restart()), brief(e.expectedWall().minus(e.work())));
    return t.defaultRate().isEmpty() ? Warning.of("spot-interruptions", Warning.Severity.INFO, message)
        : Warning.of("spot-interruptions", Warning.Severity.INFO, message, "give the instance's own rate with "
            + "--spot-interruptions RATE and your checkpoint interval with --checkpoint-every", "give the instance's "
            + "own rate with spotInterruptions(Interruptions.of(...)) on the sizer");
  }

  /** An expected count: two decimals, or two significant digits below 0.01 ({@code "0.00077"}). */
  private static String count(double n) {
    return String.format(Locale.ROOT, n >= 0.01 ? "%.2f" : "%.2g", n);
  }

  /** A short time in seconds ({@code "45 s"}), a longer one as {@link Texts#duration}. */
  private static String brief(Duration d) {
    return d.compareTo(Duration.ofMinutes(1)) < 0
        ? String.format(Locale.ROOT, "%.0f s", d.toNanos() / 1e9) : Texts.duration(d);
  }

  private String rationale(Candidate c) {
    Estimate e = c.fit().estimate();
    Offering o = c.offering();
    MemoryEstimate m = e.memory();
    StringBuilder r = new StringBuilder();
    r.append(c.gpus()).append("× ").append(o.gpu().name()).append(" on ").append(o.provider()).append(' ')
        .append(o.instanceType()).append(" (").append(o.region()).append(", ")
        .append(Texts.plural(c.instances(), "instance", "instances")).append(", ").append(c.mode().label())
        .append("): fits with ").append(Texts.layout(e.layout(), e.task().kind().isTraining()));
    if (e.task().checkpointing() != Checkpointing.NONE) {
      r.append(", ").append(e.task().checkpointing().name().toLowerCase(Locale.ROOT)).append(" checkpointing");
    }
    r.append(" (").append(String.format(Locale.ROOT, "%.1f of %.1f GiB", m.perGpu().toGiB(), m.capacity().toGiB()))
        .append(')');
    if (e.hardware().nodes() > 1) {
      // the network the time across nodes rests on: the offering's, or the one assumed where it states none
      r.append(String.format(Locale.ROOT, ", nodes joined by %s at %,.0f Gb/s each%s", o.fabric().label(),
          e.hardware().effectiveInterNodeGbps(), o.networkGbps().isPresent() ? "" : " (assumed)"));
    }
    r.append(", ").append(Texts.duration(c.wall())).append(", ").append(Texts.money(c.cost()));
    if (!c.cost().currency().equals(c.priced().cost().currency())) {
      r.append(" (converted from ").append(Texts.money(c.priced().cost())).append(')');
    }
    c.priced().spot().flatMap(CostStep.SpotTerms::estimate).filter(spot -> spot.expectedInterruptions() > 0)
        .ifPresent(spot -> r.append(String.format(Locale.ROOT,
        " with %s spot interruptions expected (%s of re-done work and restarts)",
        count(spot.expectedInterruptions()), brief(spot.expectedWall().minus(spot.work())))));
    if (s.runs() > 1) {
      r.append("; ").append(s.runs()).append(" runs, ").append(c.concurrent()).append(" at a time on ")
          .append(Texts.plural(c.runGpus(), "GPU", "GPUs")).append(" each");
    }
    r.append("; ").append(bottleneck(e.performance().bottleneck())).append(" at ")
        .append(percent(e.performance().mfu())).append(" MFU");
    r.append("; ").append(e.task().framework().sentence(e.task().frameworkAssumed()));
    ruleOfThumb(c).ifPresent(t -> r.append("; ").append(t));
    return r.toString();
  }

  /**
   * Baidu AIStudio's GPU selection guide's GPU counts for its example data sets ("1 块 GPU：适合较小的数据集训练任务，如 Pascal VOC 等", "4 块 GPU：适合中等
   * 数据集的训练任务，如 MS COCO 等", "8 块 GPU：经典配置", finish within 24 h), when an option departs from them: why.
   */
  private Optional<String> ruleOfThumb(Candidate c) {
    Task task = s.task();
    if (!task.kind().isTraining() || task.datasetSize().isEmpty() || s.runs() > 1) {
      return Optional.empty();
    }
    DataSize size = task.datasetSize().get();
    int rule;
    String name;
    if (size.equals(Dataset.PASCAL_VOC_2012.sizeOnDisk())) {
      rule = 1;
      name = "a small data set such as PASCAL VOC";
    } else if (size.equals(Dataset.COCO_2017.sizeOnDisk())) {
      rule = 4;
      name = "a mid-sized data set such as MS COCO";
    } else if (size.equals(Dataset.IMAGENET_1K.sizeOnDisk())) {
      rule = 8;
      name = "ImageNet (8 GPUs, the classic configuration)";
    } else {
      return Optional.empty();
    }
    int used = c.fit().estimate().layout().gpus();
    if (used == rule) {
      return Optional.empty();
    }
    String head = "Baidu AIStudio's GPU guide suggests " + Texts.plural(rule, "GPU", "GPUs") + " for " + name
        + "; this uses " + used + " because ";
    Layout layout = c.fit().estimate().layout();
    // the same work on the rule's GPUs, at no worse than this option's scaling efficiency (more GPUs communicate more)
    double hours = c.wall().minus(c.startup()).minus(c.checkpoints()).toSeconds() / 3600.0 * used / rule
        * c.fit().estimate().performance().scalingEfficiency();
    // Sharded state (weights, gradients and optimizer state under ZeRO-3, tensor or pipeline parallelism) grows about
    // as 1 / GPUs on fewer GPUs; activations and buffers do not: on fewer it would not fit only if the state's growth
    // fills the card.
    MemoryEstimate m = c.fit().estimate().memory();
    boolean sharded = layout.zero() == ZeroStage.STAGE_3 || layout.tensorParallel() > 1
        || layout.pipelineParallel() > 1;
    double state = m.breakdown().weights().bytes() + m.breakdown().gradients().bytes()
        + m.breakdown().optimizer().bytes();
    if (used > rule && sharded && m.perGpu().bytes() + state * ((double) used / rule - 1) > m.capacity().bytes()) {
      return Optional.of(head + "the training state needs sharding over more GPUs to fit in memory");
    }
    if (used > rule && hours > s.deadline().toSeconds() / 3600.0) {
      return Optional.of(head + String.format(Locale.ROOT, "%d would need about %.1f h of steps against the %s "
          + "deadline", rule, hours, Texts.duration(s.deadline())));
    }
    return Optional.of(head + (used > rule ? "it came out best under the "
        + s.objective().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " objective (price and time)"
        : "fewer GPUs meet the " + Texts.duration(s.deadline()) + " deadline for less"));
  }

  private static String bottleneck(Bottleneck b) {
    switch (b) {
      case COMPUTE:
        return "compute-bound";
      case MEMORY_BANDWIDTH:
        return "memory-bandwidth-bound";
      case COMMUNICATION:
        return "communication-bound";
      case CPU_INPUT:
        return "input-bound (CPU)";
      case DISK_INPUT:
        return "input-bound (disk)";
      default:
        throw new AssertionError(b);
    }
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
  }
}
