package io.github.gpusizer.examples.rental;

import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.RentalComparison;
import io.github.gpusizer.core.cost.RentalOption;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The seeds' question: is a short rental of a high-end card cheaper than a long rental of a mid-range one?
 *
 * <p>First the worked example of seed 001 ("如何选择 GPU", section 成本与性价比): an A100 at 2 CNY/h that is twice as
 * fast as a V100 at 1 CNY/h that needs 20 h. Total cost = price per hour × reference hours ÷ speedup, so both cost
 * 20 CNY; the seed multiplies by the speedup instead and gets 40 CNY for the A100, which is wrong.
 *
 * <p>Then the same question with the task's own hours: the estimator's time for a job on the bundled AIStudio
 * A100-40GB (4.81 CNY/h) and RTX 4090 (2.09 CNY/h) instances, both from seed 000's price table.
 *
 * <pre>{@code
 * RentalComparison seed = RentVsRent.seedExample();
 * seed.verdict();   // "... cost the same (20.00 CNY); ... finishes first, in 10 h against 20 h."
 * RentalComparison mine = RentVsRent.compare(task, Catalog.bundled(), "aistudio", "NVIDIA-A100-40GB-x1",
 *     "NVIDIA-4090-24GB-x1");
 * }</pre>
 *
 * <p>Run: {@code java -cp gpusizer.jar io.github.gpusizer.examples.rental.RentVsRent}.
 */
public final class RentVsRent {
  /** Seed 001: the V100 job takes 20 hours. */
  public static final Duration SEED_V100_HOURS = Duration.ofHours(20);
  /** Seed 001: the A100 is 2× as fast as the V100 on this job. */
  public static final double SEED_A100_SPEEDUP = 2.0;

  private RentVsRent() {}

  /** Seed 001's two rentals (A100 at 2 CNY/h, V100 at 1 CNY/h, hourly billing), compared. */
  public static RentalComparison seedExample() {
    Catalog catalog = Catalog.bundled();
    Offering v100 = seedOffering("seed-v100", catalog.gpu("V100"), "1");
    Offering a100 = seedOffering("seed-a100", catalog.gpu("A100"), "2");
    return RentalComparison.of(List.of(
        RentalOption.fromReference(v100, SEED_V100_HOURS, 1.0).withLabel("V100 at 1 CNY/h"),
        RentalOption.fromReference(a100, SEED_V100_HOURS, SEED_A100_SPEEDUP).withLabel("A100 at 2 CNY/h")));
  }

  /** One single-GPU machine of the worked example; the document states no network, so it is never joined. */
  private static Offering seedOffering(String name, Gpu gpu, String cnyPerHour) {
    return new Offering("autodl-guide", name, "-", gpu, 1, 0, DataSize.ZERO, DataSize.ZERO, Money.of(cnyPerHour, "CNY"),
        Optional.empty(), BillingMode.PER_HOUR, Optional.empty(), Optional.empty(), OptionalDouble.empty(),
        Fabric.STANDALONE, LocalDate.of(2026, 11, 30),
        "AutoDL's GPU guide, section on cost and price-performance: hypothetical prices of its worked example; no "
            + "network stated");
  }

  /**
   * Compares one instance of each named offering for the task, each running for the estimator's time of the task on
   * that instance's GPUs (data-parallel over them).
   *
   * @throws IllegalArgumentException if an offering is not in the catalog, the task does not fit on one, or the task
   *     has no amount of work
   */
  public static RentalComparison compare(Task task, Catalog catalog, String provider, String... instanceTypes) {
    Estimator estimator = Estimator.defaults();
    List<RentalOption> options = new java.util.ArrayList<>();
    for (String type : instanceTypes) {
      Offering offering = catalog.offerings().stream()
          .filter(o -> o.provider().equals(provider) && o.instanceType().equals(type)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException(provider + " " + type + " is not in the catalog"));
      int gpus = offering.gpuCount();
      Estimate e = estimator.estimate(task, Hardware.of(offering.gpu(), gpus, 1), Layout.dataParallel(gpus));
      if (!e.memory().fits()) {
        throw new IllegalArgumentException(type + ": the task does not fit (needs " + e.memory().perGpu()
            + " per GPU, has " + e.memory().capacity() + ")");
      }
      Duration wall = e.performance().totalTime().orElseThrow(() -> new IllegalArgumentException(
          "the task needs an amount of work (tokens or samples) to compare rentals"));
      options.add(RentalOption.of(offering, wall).withLabel(provider + " " + type));
    }
    return RentalComparison.of(options);
  }

  public static void main(String[] args) {
    System.out.println("AutoDL's GPU guide's worked example (A100 2x as fast as a V100 that needs 20 h):");
    System.out.println(seedExample());
    System.out.println();
    Task task = Task.lora(io.github.gpusizer.core.model.Presets.get("llama-2-7b"), 8).sequenceLength(1024)
        .tokens(50e6).build();
    System.out.println("LoRA fine-tuning of Llama-2-7B on 50M tokens of 1024, AIStudio prices (Baidu AIStudio's GPU guide):");
    System.out.println(compare(task, Catalog.bundled(), "aistudio", "NVIDIA-A100-40GB-x1", "NVIDIA-4090-24GB-x1"));
  }
}
