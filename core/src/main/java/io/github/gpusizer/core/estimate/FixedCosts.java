package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableMap;
import io.github.gpusizer.catalog.DataSize;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * What every run pays besides its training or inference steps, in wall time and so in billed time: starting the
 * instances, the container and the framework, reading the weights and staging the data set, and writing
 * checkpoints. A one-minute job on 50 instances pays each of these 50 times over; this is what makes a planner
 * rent fewer, larger machines for short jobs.
 *
 * <pre>{@code
 * FixedCosts costs = FixedCosts.defaults()
 *     .withProvisioning("aistudio", Duration.ofSeconds(20))   // development machines already running an image
 *     .withStorageMBps(1000)                                  // a gp3 volume provisioned at 1000 MiB/s
 *     .withCheckpointInterval(Duration.ofMinutes(30));
 * }</pre>
 *
 * <p>Defaults, each from a public measurement or document:
 * <ul>
 *   <li>{@link #DEFAULT_PROVISIONING} 45 s: the cloud provider's stage of a GPU cold start, "around 45 secs"
 *       (tensorfuse/tensorfuse-examples issue #1, 2024); a stock EC2 launch takes about 40 s from RunInstances to a
 *       booted machine (depot.dev, "Making EC2 boot time 8x faster", 2024).</li>
 *   <li>{@link #DEFAULT_CONTAINER_IMAGE} 15 GB: the GPU image size in the same tensorfuse measurement; CUDA
 *       PyTorch images are of that order (NVIDIA NGC PyTorch containers are over 10 GB unpacked).</li>
 *   <li>{@link #DEFAULT_FRAMEWORK_START} 11 s: {@code import torch} in a cloud container, measured at 10.9 and
 *       11.1 s (openvinotoolkit/stable-diffusion-webui issue #88, 2023).</li>
 *   <li>{@link #DEFAULT_STORAGE_MBPS} 131 MB/s: the baseline throughput of an AWS EBS gp3 volume, 125 MiB/s
 *       (AWS EC2 API reference, gp3 throughput: valid range 125–1000 MiB/s, default 125), the rate at which the
 *       image, the weights and a data set that does not fit in RAM are read, and checkpoints written, per node.</li>
 *   <li>{@link #DEFAULT_FAILURES_PER_GPU_HOUR}: 419 unexpected interruptions in 54 days on 16,384 H100 GPUs
 *       (Llama Team, "The Llama 3 Herd of Models", 2024, §3.3.4), 1.97 × 10^-5 per GPU-hour; the checkpoint
 *       interval, unless given, is Young's optimum {@code sqrt(2 × write time × MTBF)} for the job's GPUs (J. W. Young,
 *       Communications of the ACM 17(9), 1974). Training always saves once at the end.</li>
 * </ul>
 *
 * @param provisioning requesting and booting the instances (they start in parallel), unless the provider has its own
 * @param provisioningByProvider provisioning per provider, keys in lower case
 * @param containerImage the image pulled onto each instance at the storage rate
 * @param frameworkStart starting the framework once the image is there (Python imports, CUDA and NCCL set-up)
 * @param storageMBps rate of reading and writing the image, weights, data and checkpoints per node, in MB/s
 *     (10^6 bytes); {@code +Infinity} for none
 * @param checkpointInterval time between periodic checkpoints; empty: Young's optimum for the job
 * @param failuresPerGpuHour interruptions per GPU-hour, for Young's interval
 * @param resuming whether a training run resumes from a checkpoint, reading its optimizer state at start too
 */
public record FixedCosts(
    Duration provisioning,
    ImmutableMap<String, Duration> provisioningByProvider,
    DataSize containerImage,
    Duration frameworkStart,
    double storageMBps,
    Optional<Duration> checkpointInterval,
    double failuresPerGpuHour,
    boolean resuming) {

  /** See the class documentation. */
  public static final Duration DEFAULT_PROVISIONING = Duration.ofSeconds(45);
  /** See the class documentation. */
  public static final DataSize DEFAULT_CONTAINER_IMAGE = DataSize.ofGB(15);
  /** See the class documentation. */
  public static final Duration DEFAULT_FRAMEWORK_START = Duration.ofSeconds(11);
  /** 125 MiB/s in MB/s; see the class documentation. */
  public static final double DEFAULT_STORAGE_MBPS = 125 * 1.048576;
  /** 419 ÷ (54 days × 24 h × 16,384 GPUs); see the class documentation. */
  public static final double DEFAULT_FAILURES_PER_GPU_HOUR = 419.0 / (54 * 24 * 16_384);

  private static final FixedCosts DEFAULTS = new FixedCosts(DEFAULT_PROVISIONING, ImmutableMap.of(),
      DEFAULT_CONTAINER_IMAGE, DEFAULT_FRAMEWORK_START, DEFAULT_STORAGE_MBPS, Optional.empty(),
      DEFAULT_FAILURES_PER_GPU_HOUR, false);
  private static final FixedCosts NONE = new FixedCosts(Duration.ZERO, ImmutableMap.of(), DataSize.ZERO,
      Duration.ZERO, Double.POSITIVE_INFINITY, Optional.empty(), 0, false);

  public FixedCosts {
    checkArgument(!checkNotNull(provisioning, "provisioning").isNegative(), "provisioning must be >= 0, was %s",
        provisioning);
    provisioningByProvider = ImmutableMap.copyOf(provisioningByProvider);
    provisioningByProvider.forEach((provider, d) -> checkArgument(!d.isNegative(),
        "provisioning of %s must be >= 0, was %s", provider, d));
    checkNotNull(containerImage, "containerImage");
    checkArgument(!checkNotNull(frameworkStart, "frameworkStart").isNegative(),
        "framework start must be >= 0, was %s", frameworkStart);
    checkArgument(storageMBps > 0 && !Double.isNaN(storageMBps),
        "storage rate must be > 0 MB/s (or infinite), was %s", storageMBps);
    checkNotNull(checkpointInterval, "checkpointInterval");
    checkpointInterval.ifPresent(i -> checkArgument(i.compareTo(Duration.ZERO) > 0,
        "checkpoint interval must be > 0, was %s", i));
    checkArgument(failuresPerGpuHour >= 0 && Double.isFinite(failuresPerGpuHour),
        "failures per GPU-hour must be a finite number >= 0, was %s", failuresPerGpuHour);
  }

  /** The sourced defaults of the class documentation. */
  public static FixedCosts defaults() {
    return DEFAULTS;
  }

  /** No fixed costs at all: a run is its steps (for comparisons with step-time benchmarks). */
  public static FixedCosts none() {
    return NONE;
  }

  /** The same costs with another provisioning time for every provider without its own. */
  public FixedCosts withProvisioning(Duration d) {
    return new FixedCosts(d, provisioningByProvider, containerImage, frameworkStart, storageMBps,
        checkpointInterval, failuresPerGpuHour, resuming);
  }

  /** The same costs with the provisioning time of one provider's instances (case-insensitive name). */
  public FixedCosts withProvisioning(String provider, Duration d) {
    checkArgument(!checkNotNull(provider, "provider").isBlank(), "provider must not be blank");
    checkNotNull(d, "provisioning");
    ImmutableMap.Builder<String, Duration> map = ImmutableMap.builder();
    String key = provider.toLowerCase(Locale.ROOT);
    provisioningByProvider.forEach((p, v) -> {
      if (!p.equals(key)) {
        map.put(p, v);
      }
    });
    map.put(key, d);
    return new FixedCosts(provisioning, map.build(), containerImage, frameworkStart, storageMBps,
        checkpointInterval, failuresPerGpuHour, resuming);
  }

  /** The same costs with another container image size. */
  public FixedCosts withContainerImage(DataSize size) {
    return new FixedCosts(provisioning, provisioningByProvider, size, frameworkStart, storageMBps,
        checkpointInterval, failuresPerGpuHour, resuming);
  }

  /** The same costs with another framework start time. */
  public FixedCosts withFrameworkStart(Duration d) {
    return new FixedCosts(provisioning, provisioningByProvider, containerImage, d, storageMBps,
        checkpointInterval, failuresPerGpuHour, resuming);
  }

  /** The same costs with another storage rate in MB/s per node. */
  public FixedCosts withStorageMBps(double mbps) {
    return new FixedCosts(provisioning, provisioningByProvider, containerImage, frameworkStart, mbps,
        checkpointInterval, failuresPerGpuHour, resuming);
  }

  /** The same costs with a fixed checkpoint interval instead of Young's optimum. */
  public FixedCosts withCheckpointInterval(Duration interval) {
    return new FixedCosts(provisioning, provisioningByProvider, containerImage, frameworkStart, storageMBps,
        Optional.of(checkNotNull(interval, "interval")), failuresPerGpuHour, resuming);
  }

  /** The same costs with another failure rate per GPU-hour for Young's interval. */
  public FixedCosts withFailuresPerGpuHour(double rate) {
    return new FixedCosts(provisioning, provisioningByProvider, containerImage, frameworkStart, storageMBps,
        checkpointInterval, rate, resuming);
  }

  /** The same costs for a run that resumes from a checkpoint: it reads the training state at start as well. */
  public FixedCosts resumingFromCheckpoint() {
    return new FixedCosts(provisioning, provisioningByProvider, containerImage, frameworkStart, storageMBps,
        checkpointInterval, failuresPerGpuHour, true);
  }

  /** The provisioning time of one provider's instances. */
  public Duration provisioning(String provider) {
    return provisioningByProvider.getOrDefault(provider.toLowerCase(Locale.ROOT), provisioning);
  }

  /**
   * The start-up of one run: provisioning, pulling the image, starting the framework, reading the weights and,
   * where given, staging the data set to local disk. Nodes start in parallel, so it does not grow with them.
   *
   * @param weights what the run reads before its first step
   * @param state the training state of one checkpoint, read as well when {@link #resuming}
   * @param staged the data set copied to local disk first (because it does not fit in the host's RAM), if any
   */
  public Startup startup(String provider, DataSize weights, DataSize state, Optional<DataSize> staged) {
    DataSize read = resuming ? weights.plus(state) : weights;
    return new Startup(provisioning(provider), transfer(containerImage).plus(frameworkStart), transfer(read),
        staged.map(this::transfer).orElse(Duration.ZERO));
  }

  /**
   * The time a training run spends writing checkpoints: one at the end and one every interval of compute. Each of
   * {@code writers} nodes writes its share of the state at the storage rate.
   *
   * @param compute the run's step time in all
   * @param state what one checkpoint holds (zero: nothing is written)
   * @param gpus GPUs of the run (Young's interval shortens as failures become likelier)
   */
  public Duration checkpoints(Duration compute, DataSize state, int gpus, int writers) {
    checkArgument(gpus >= 1 && writers >= 1, "gpus and writers must be >= 1, were %s and %s", gpus, writers);
    if (state.bytes() == 0 || Double.isInfinite(storageMBps)) {
      return Duration.ZERO;
    }
    double write = writeSeconds(state, writers);
    double interval = checkpointInterval.map(i -> i.toNanos() / 1e9).orElseGet(() -> youngInterval(write, gpus));
    double periodic = Math.floor(compute.toNanos() / 1e9 / interval);
    return seconds(write * (periodic + 1));
  }

  /**
   * The time {@code writers} nodes take to write one checkpoint of {@code state} between them, at the storage rate
   * (zero if there is nothing to write or the rate is unlimited).
   */
  public Duration checkpointWrite(DataSize state, int writers) {
    checkArgument(writers >= 1, "writers must be >= 1, was %s", writers);
    return state.bytes() == 0 || Double.isInfinite(storageMBps) ? Duration.ZERO
        : seconds(writeSeconds(state, writers));
  }

  private double writeSeconds(DataSize state, int writers) {
    return state.bytes() / (storageMBps * 1e6 * writers);
  }

  /** Young's optimum checkpoint interval in seconds: {@code sqrt(2 × write × MTBF)}; infinite without failures. */
  double youngInterval(double writeSeconds, int gpus) {
    if (failuresPerGpuHour == 0) {
      return Double.POSITIVE_INFINITY;
    }
    double mtbfSeconds = 3600 / (failuresPerGpuHour * gpus);
    return Math.max(writeSeconds, Math.sqrt(2 * writeSeconds * mtbfSeconds));
  }

  private Duration transfer(DataSize size) {
    return Double.isInfinite(storageMBps) ? Duration.ZERO : seconds(size.bytes() / (storageMBps * 1e6));
  }

  /** Seconds as a duration, to the nanosecond; fails rather than clamps beyond what a duration holds. */
  private static Duration seconds(double s) {
    checkArgument(s < 9.2e18, "a fixed cost of %s s is beyond what a duration holds", s);
    long whole = (long) s;
    return Duration.ofSeconds(whole, Math.round((s - whole) * 1e9));
  }

  /**
   * The parts of one run's start-up.
   *
   * @param provisioning requesting and booting the instances
   * @param framework pulling the container image and starting the framework
   * @param weights reading the weights (and state, when resuming)
   * @param data staging the data set to local disk
   */
  public record Startup(Duration provisioning, Duration framework, Duration weights, Duration data) {
    public Startup {
      checkNotNull(provisioning, "provisioning");
      checkNotNull(framework, "framework");
      checkNotNull(weights, "weights");
      checkNotNull(data, "data");
    }

    public Duration total() {
      return provisioning.plus(framework).plus(weights).plus(data);
    }
  }
}
