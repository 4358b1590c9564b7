package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * One accelerator model with its datasheet figures. Throughput is always the <em>dense</em> peak: NVIDIA often
 * quotes sparse figures, twice as high, which no ordinary training job reaches.
 *
 * <pre>{@code
 * Gpu h100 = Catalog.bundled().gpu("H100 SXM");
 * double bf16 = h100.denseTflops(Precision.BF16);   // 989.4, not the sparse 1979
 * DataSize memory = h100.memory();                   // 80 GB
 * }</pre>
 *
 * @param id stable lower-case identifier, e.g. {@code a100-sxm4-80gb}
 * @param name display name, e.g. {@code NVIDIA A100-SXM4-80GB}
 * @param aliases other names users and clouds use for it (SkyPilot's {@code A100-80GB}, {@code a100 80gb})
 * @param vendor its maker
 * @param architecture the micro-architecture, e.g. {@code Ampere}
 * @param computeCapability NVIDIA compute capability; empty for other vendors
 * @param releaseYear the year it shipped
 * @param memory device memory as the datasheet states it
 * @param memoryType the kind of device memory
 * @param memoryBandwidthGBps device memory bandwidth in decimal GB/s
 * @param denseTflops dense peak in TFLOP/s (TOPS for INT8) per precision it supports; for the 16- and 8-bit tensor
 *     formats the rate with FP32 accumulation (the rate mixed-precision training gets; on GeForce cards half the
 *     FP16-accumulate rate)
 * @param fp16AccumulateTflops the dense FP16 tensor rate with FP16 accumulation where it differs from the FP32
 *     accumulate rate (GeForce cards); empty otherwise
 * @param tensorCores whether it has matrix units for 16-bit math (tensor cores, AMD matrix cores, TPU MXUs)
 * @param formFactor how it is built into a server
 * @param nvlinkGBps total NVLink (or Infinity Fabric, ICI) bandwidth per GPU in GB/s, both directions; 0 if it has
 *     no such link
 * @param pcieGeneration PCIe generation of its host link; empty for TPUs
 * @param tdpWatts board power
 * @param smCount streaming multiprocessors (NVIDIA) or compute units (AMD); empty where not applicable
 * @param minCuda the first CUDA version that supports it; empty for other vendors
 * @param purchasePrice the price of one card, where known
 * @param source the datasheets or whitepapers the figures come from
 * @param unconfirmed names of the fields whose values could not be confirmed from a primary source
 */
public record Gpu(
    String id,
    String name,
    ImmutableList<String> aliases,
    Vendor vendor,
    String architecture,
    Optional<ComputeCapability> computeCapability,
    int releaseYear,
    DataSize memory,
    MemoryType memoryType,
    double memoryBandwidthGBps,
    ImmutableMap<Precision, Double> denseTflops,
    OptionalDouble fp16AccumulateTflops,
    boolean tensorCores,
    FormFactor formFactor,
    double nvlinkGBps,
    OptionalInt pcieGeneration,
    int tdpWatts,
    OptionalInt smCount,
    Optional<CudaVersion> minCuda,
    Optional<PurchasePrice> purchasePrice,
    String source,
    ImmutableSet<String> unconfirmed) {

  public Gpu {
    checkNotNull(id, "id");
    checkArgument(id.matches("[a-z0-9][a-z0-9.-]*"), "GPU id must be lower-case letters, digits, '.' and '-', was '%s'", id);
    checkArgument(!checkNotNull(name, "name").isBlank(), "GPU %s needs a name", id);
    aliases = ImmutableList.copyOf(aliases);
    checkNotNull(vendor, "vendor");
    checkNotNull(architecture, "architecture");
    checkNotNull(computeCapability, "computeCapability");
    checkArgument(releaseYear >= 2000 && releaseYear <= 2100, "GPU %s release year must be in 2000..2100, was %s", id, releaseYear);
    checkArgument(checkNotNull(memory, "memory").bytes() > 0, "GPU %s memory must be > 0 bytes, was %s", id, memory);
    checkNotNull(memoryType, "memoryType");
    checkArgument(memoryBandwidthGBps > 0 && Double.isFinite(memoryBandwidthGBps),
        "GPU %s memory bandwidth must be > 0 GB/s, was %s", id, memoryBandwidthGBps);
    denseTflops = ImmutableMap.copyOf(denseTflops);
    for (Map.Entry<Precision, Double> e : denseTflops.entrySet()) {
      checkArgument(e.getValue() > 0 && Double.isFinite(e.getValue()),
          "GPU %s dense %s TFLOPS must be > 0, was %s", id, e.getKey(), e.getValue());
    }
    checkArgument(denseTflops.containsKey(Precision.FP32) || formFactor == FormFactor.TPU,
        "GPU %s needs a dense FP32 figure", id);
    checkNotNull(fp16AccumulateTflops, "fp16AccumulateTflops");
    checkNotNull(formFactor, "formFactor");
    checkArgument(nvlinkGBps >= 0 && Double.isFinite(nvlinkGBps), "GPU %s NVLink bandwidth must be >= 0 GB/s, was %s", id, nvlinkGBps);
    checkNotNull(pcieGeneration, "pcieGeneration");
    checkArgument(tdpWatts > 0, "GPU %s TDP must be > 0 W, was %s", id, tdpWatts);
    checkNotNull(smCount, "smCount");
    checkNotNull(minCuda, "minCuda");
    checkNotNull(purchasePrice, "purchasePrice");
    checkArgument(!checkNotNull(source, "source").isBlank(), "GPU %s needs a source for its figures", id);
    unconfirmed = ImmutableSet.copyOf(unconfirmed);
  }

  /** Whether it has a dense figure for this precision, i.e. can run it at all at a useful rate. */
  public boolean supports(Precision precision) {
    return denseTflops.containsKey(checkNotNull(precision, "precision"));
  }

  /**
   * The dense peak for a precision, in TFLOP/s.
   *
   * @throws IllegalArgumentException if the GPU lacks that precision (BF16 on a V100, FP8 on an A100)
   */
  public double denseTflops(Precision precision) {
    Double value = denseTflops.get(checkNotNull(precision, "precision"));
    checkArgument(value != null, "%s has no %s support; it supports %s", name, precision, denseTflops.keySet());
    return value;
  }

  /** Whether the GPUs of one server talk over NVLink (or an equivalent link) rather than PCIe. */
  public boolean hasNvlink() {
    return nvlinkGBps > 0;
  }

  @Override
  public String toString() {
    return name;
  }
}
