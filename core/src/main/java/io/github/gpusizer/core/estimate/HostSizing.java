package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.DataSize;

/**
 * The host one node needs around its GPUs.
 *
 * <pre>{@code
 * HostSizing host = estimate.host();
 * System.out.println(host.cpuCores() + " cores, " + host.ram() + " RAM, " + host.disk() + " " + host.diskType());
 * }</pre>
 *
 * @param cpuCores logical CPU cores per node
 * @param ram host memory per node
 * @param disk local disk per node: data set, checkpoints and room to work
 * @param diskType the slowest kind of disk that keeps the GPUs fed
 * @param reason how the figures were reached, in plain words
 */
public record HostSizing(int cpuCores, DataSize ram, DataSize disk, DiskType diskType, String reason) {

  public HostSizing {
    checkArgument(cpuCores >= 1, "CPU cores must be >= 1, was %s", cpuCores);
    checkNotNull(ram, "ram");
    checkNotNull(disk, "disk");
    checkNotNull(diskType, "diskType");
    checkArgument(!checkNotNull(reason, "reason").isBlank(), "host sizing needs a reason");
  }
}
