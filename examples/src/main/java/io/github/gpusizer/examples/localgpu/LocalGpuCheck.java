package io.github.gpusizer.examples.localgpu;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Example: will my job fit on the GPU I have? Reads the local GPUs from nvidia-smi (or from its recorded output),
 * finds them in the catalog, and estimates the job's memory per GPU against what is free now and what the card
 * holds when idle.
 *
 * <pre>{@code
 * List<LocalGpu> mine = NvidiaSmi.read(Path.of("smi.csv"));
 * Task task = Task.lora(Presets.get("llama-2-7b"), 8).tokens(50e6).sequenceLength(1024).build();
 * LocalGpuCheck.Result r = LocalGpuCheck.check(Catalog.bundled(), mine, task, Layout.single(), Estimator.defaults());
 * System.out.println(r.verdict());
 * }</pre>
 *
 * <p>Run: {@code java -cp gpusizer.jar io.github.gpusizer.examples.localgpu.LocalGpuCheck [smi.csv]}. nvidia-smi is
 * never required: without it and without a file the program says so.
 */
public final class LocalGpuCheck {
  private LocalGpuCheck() {}

  /**
   * The answer for one job on the first {@code layout.gpus()} local GPUs.
   *
   * @param used the local GPUs the job would run on
   * @param gpu the catalog GPU they are
   * @param estimate the estimate on that many of them, in one node
   * @param free the least memory free now on any of them
   * @param fitsWhenIdle whether the job fits when nothing else runs on the GPUs (the catalog's memory)
   * @param fitsNow whether it fits in the memory free now (memory.total − memory.used)
   */
  public record Result(List<LocalGpu> used, Gpu gpu, Estimate estimate, DataSize free,
                       boolean fitsWhenIdle, boolean fitsNow) {
    public Result {
      used = ImmutableList.copyOf(used);
      checkNotNull(gpu, "gpu");
      checkNotNull(estimate, "estimate");
      checkNotNull(free, "free");
    }

    /** Memory per GPU the job needs, as nvidia-smi would show it. */
    public DataSize needed() {
      return estimate.memory().perGpu();
    }

    /** One sentence for people. */
    public String verdict() {
      String where = used.size() + " x " + used.get(0).name() + " (" + gpu.id() + ")";
      if (fitsNow) {
        return String.format(Locale.ROOT, "fits on %s: needs %s per GPU, %s free now", where, needed(), free);
      }
      if (fitsWhenIdle) {
        return String.format(Locale.ROOT,
            "fits on %s only when it is idle: needs %s per GPU, %s free now (other processes hold %s)", where,
            needed(), free, used.get(0).memoryTotal().minus(free));
      }
      return String.format(Locale.ROOT, "does not fit on %s: needs %s per GPU, the GPU has %s", where, needed(),
          estimate.memory().capacity());
    }
  }

  /**
   * Checks a task on the first {@code layout.gpus()} local GPUs.
   *
   * @throws IllegalArgumentException if there are fewer local GPUs than the layout needs, they are of different
   *     models, or one is not in the catalog (give its catalog name with {@code gpuName})
   */
  public static Result check(Catalog catalog, List<LocalGpu> local, Task task, Layout layout, Estimator estimator) {
    return check(catalog, local, Optional.empty(), task, layout, estimator);
  }

  /** As {@link #check(Catalog, List, Task, Layout, Estimator)}, naming the catalog GPU where matching fails. */
  public static Result check(Catalog catalog, List<LocalGpu> local, Optional<String> gpuName, Task task,
                             Layout layout, Estimator estimator) {
    checkArgument(!local.isEmpty(), "no local GPU to check");
    int n = layout.gpus();
    checkArgument(n <= local.size(), "the layout needs %s GPUs, this machine has %s", n, local.size());
    checkArgument(layout.nodes() == 1, "a local check runs on one machine; the layout spans %s nodes", layout.nodes());
    List<LocalGpu> used = local.subList(0, n);
    for (LocalGpu g : used) {
      checkArgument(g.name().equals(used.get(0).name()),
          "GPUs %s and %s are different models (%s, %s); a job runs on one model", used.get(0).index(), g.index(),
          used.get(0).name(), g.name());
    }
    Gpu gpu = gpuName.isPresent() ? catalog.gpu(gpuName.get()) : CatalogMatch.find(catalog, used.get(0))
        .orElseThrow(() -> new IllegalArgumentException(String.format(Locale.ROOT,
            "'%s' is not in the catalog; name the catalog GPU it is with --gpu (see 'gpusizer gpus')",
            used.get(0).name())));
    Estimate estimate = estimator.estimateAsRun(task, Hardware.of(gpu, n, 1), layout);
    DataSize free = used.stream().map(LocalGpu::memoryFree).min(DataSize::compareTo).orElseThrow();
    DataSize needed = estimate.memory().perGpu();
    boolean fitsWhenIdle = estimate.memory().fits();
    boolean fitsNow = fitsWhenIdle && !needed.isLargerThan(free);
    return new Result(used, gpu, estimate, free, fitsWhenIdle, fitsNow);
  }

  public static void main(String[] args) throws IOException {
    List<LocalGpu> local;
    if (args.length > 0) {
      local = NvidiaSmi.read(Path.of(args[0]));
    } else {
      Optional<String> csv = NvidiaSmi.queryIfPresent();
      if (csv.isEmpty()) {
        System.out.println("nvidia-smi is not on PATH (or failed); pass a file with the output of "
            + String.join(" ", NvidiaSmi.COMMAND));
        return;
      }
      local = NvidiaSmi.parse("nvidia-smi", csv.get());
    }
    Task task = Task.lora(Presets.get("llama-2-7b"), 8).sequenceLength(1024).tokens(50e6).build();
    Result result = check(Catalog.bundled(), local, task, Layout.single(), Estimator.defaults());
    System.out.println("LoRA (r=8) fine-tuning of Llama-2-7B, sequence 1024, micro-batch 1: " + result.verdict());
  }
}
