package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.DataSize;

/**
 * The host one node needs around its GPUs, with the rule behind each figure.
 *
 * <pre>{@code
 * HostSizing host = estimate.host();
 * System.out.println(host.cpuCores() + " cores, " + host.ram() + " RAM, " + host.disk() + " " + host.diskType());
 * System.out.println(host.ramRule() + ": " + host.ramReason());
 * }</pre>
 *
 * @param cpuCores logical CPU cores per node
 * @param ram host memory per node
 * @param disk local disk per node: data set, checkpoints and room to work
 * @param diskType the slowest kind of disk that keeps the GPUs fed, for the data access given
 * @param access how the job reads its data
 * @param ramRule which rule sized the RAM
 * @param coresReason how the cores were reached, in plain words
 * @param ramReason how the RAM was reached and why that rule applies
 * @param diskReason how the disk was reached: size, access pattern, rates, and the format that would make a cheaper
 *     disk enough
 */
public record HostSizing(int cpuCores, DataSize ram, DataSize disk, DiskType diskType, DataAccess access,
                         RamRule ramRule, String coresReason, String ramReason, String diskReason) {

  /** Which rule sized the RAM. */
  public enum RamRule {
    /**
     * Training with heavy preprocessing (image decoding and augmentation): at least the node's GPU memory, seed
     * 002's "如果资金充足而且需要做很多预处理工作，应该选择至少和 GPU 内存大小相同的内存".
     */
    AT_LEAST_GPU_MEMORY,
    /**
     * Everything else (inference, serving, training on pre-tokenised data): what loading the weights, staging a
     * checkpoint, the data pipeline and the OS take.
     */
    WEIGHTS_PIPELINE_AND_OS
  }

  public HostSizing {
    checkArgument(cpuCores >= 1, "CPU cores must be >= 1, was %s", cpuCores);
    checkNotNull(ram, "ram");
    checkNotNull(disk, "disk");
    checkNotNull(diskType, "diskType");
    checkNotNull(access, "access");
    checkNotNull(ramRule, "ramRule");
    checkArgument(!checkNotNull(coresReason, "coresReason").isBlank(), "host sizing needs a reason for the cores");
    checkArgument(!checkNotNull(ramReason, "ramReason").isBlank(), "host sizing needs a reason for the RAM");
    checkArgument(!checkNotNull(diskReason, "diskReason").isBlank(), "host sizing needs a reason for the disk");
  }

  /** The three reasons in one line: cores, RAM, disk. */
  public String reason() {
    return coresReason + "; " + ramReason + "; " + diskReason;
  }

  /**
   * The host for {@code runs} runs sharing one instance and one copy of the data set: cores and RAM times the runs.
   *
   * @throws IllegalArgumentException if {@code runs < 1}
   */
  public HostSizing forRuns(int runs) {
    checkArgument(runs >= 1, "runs must be >= 1, was %s", runs);
    if (runs == 1) {
      return this;
    }
    String shared = " × " + runs + " runs sharing the instance";
    return new HostSizing(cpuCores * runs, ram.times(runs), disk, diskType, access, ramRule, coresReason + shared,
        ramReason + shared, diskReason + " (one data set for the " + runs + " runs)");
  }
}
