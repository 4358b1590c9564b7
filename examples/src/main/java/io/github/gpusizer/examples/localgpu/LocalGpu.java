package io.github.gpusizer.examples.localgpu;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.DataSize;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One GPU as {@code nvidia-smi} reports it.
 *
 * <pre>{@code
 * List<LocalGpu> gpus = NvidiaSmi.parse(Files.readString(Path.of("smi.csv")));
 * DataSize free = gpus.get(0).memoryFree();
 * }</pre>
 *
 * @param index the row's position in nvidia-smi's output, from 0 (nvidia-smi's GPU index)
 * @param name the device name, e.g. {@code NVIDIA H200}
 * @param memoryTotal device memory as the driver reports it ({@code memory.total}, in MiB)
 * @param memoryUsed memory in use by all processes and the driver ({@code memory.used}); empty if not reported
 * @param utilizationPercent GPU utilisation over the last sample period; empty if not reported
 * @param driverVersion the driver version, e.g. {@code 580.159.04}; empty if not reported
 * @param computeCapability the compute capability ({@code compute_cap}, nvidia-smi 510 and later); empty if not
 *     reported
 */
public record LocalGpu(int index, String name, DataSize memoryTotal, Optional<DataSize> memoryUsed,
                       OptionalInt utilizationPercent, Optional<String> driverVersion,
                       Optional<ComputeCapability> computeCapability) {

  public LocalGpu {
    checkArgument(index >= 0, "GPU index must be >= 0, was %s", index);
    checkArgument(!checkNotNull(name, "name").isBlank(), "GPU %s needs a name", index);
    checkArgument(checkNotNull(memoryTotal, "memoryTotal").bytes() > 0, "GPU %s memory.total must be > 0, was %s",
        index, memoryTotal);
    checkNotNull(memoryUsed, "memoryUsed");
    memoryUsed.ifPresent(used -> checkArgument(!used.isLargerThan(memoryTotal),
        "GPU %s memory.used (%s) must not exceed memory.total (%s)", index, used, memoryTotal));
    checkNotNull(utilizationPercent, "utilizationPercent");
    utilizationPercent.ifPresent(u -> checkArgument(u >= 0 && u <= 100,
        "GPU %s utilization.gpu must be in 0..100 %%, was %s", index, u));
    checkNotNull(driverVersion, "driverVersion");
    checkNotNull(computeCapability, "computeCapability");
  }

  /** Memory no process holds now: {@code memory.total − memory.used} (all of it if used is not reported). */
  public DataSize memoryFree() {
    return memoryUsed.map(memoryTotal::minus).orElse(memoryTotal);
  }
}
