package io.github.gpusizer.catalog;

import com.google.common.collect.ImmutableMap;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Google Compute Engine machine types GPUs attach to. GCP prices a GPU apart from the VM it is attached to,
 * and SkyPilot's {@code gcp/vms.csv} lists GPUs as rows of their own (no instance type); an offering is a GPU row
 * plus a host VM row of the same zone. Source: Google Cloud, "GPU machine types",
 * https://cloud.google.com/compute/docs/gpus (accelerator-optimized A2, A3, A4 and G2 machine types come with a
 * fixed GPU model and count; the older GPUs - T4, V100, P100, P4, K80 - attach to N1 machines).
 */
final class GcpHosts {
  /**
   * Accelerator-optimized families whose name ends in {@code -<n>g}, n being the GPU count, and the SkyPilot
   * accelerator name of their GPU.
   */
  private static final ImmutableMap<String, String> FIXED_GPU_FAMILIES = ImmutableMap.<String, String>builder()
      .put("a2-highgpu", "A100")
      .put("a2-megagpu", "A100")
      .put("a2-ultragpu", "A100-80GB")
      .put("a3-highgpu", "H100")
      .put("a3-megagpu", "H100-MEGA")
      .put("a3-ultragpu", "H200")
      .put("a4-highgpu", "B200")
      .build();
  private static final Pattern FIXED_GPU_TYPE = Pattern.compile("([a-z0-9]+-[a-z]+)-(\\d+)g");
  /** G2 machines carry NVIDIA L4s: vCPUs of the machine type -> L4 count (same source, "G2 machine series"). */
  private static final ImmutableMap<Integer, Integer> G2_L4_COUNT = ImmutableMap.<Integer, Integer>builder()
      .put(4, 1).put(8, 1).put(12, 1).put(16, 1).put(32, 1)
      .put(24, 2)
      .put(48, 4)
      .put(96, 8)
      .build();
  private static final Pattern G2_TYPE = Pattern.compile("g2-standard-(\\d+)");

  /**
   * SkyPilot's default host for GPUs without a machine family of their own: at least 8 vCPUs per GPU and 4 GiB of
   * memory per vCPU, on an N1 machine (sky/catalog/gcp_catalog.py in skypilot-org/skypilot: 'DEFAULT' of
   * _NUM_ACC_TO_NUM_CPU and _DEFAULT_GPU_MEMORY_CPU_RATIO). Every such count stays within GCP's per-GPU vCPU
   * limits (source above: e.g. one V100 allows up to 12 vCPUs).
   */
  static final int N1_VCPUS_PER_GPU = 8;
  static final int N1_GIB_PER_VCPU = 4;

  /** A GPU model and count that come with a machine type. */
  record Attached(String accelerator, int count) {}

  private GcpHosts() {}

  /** The GPUs an accelerator-optimized machine type comes with; empty for any other type. */
  static Optional<Attached> attachedTo(String instanceType) {
    String type = instanceType.toLowerCase(Locale.ROOT);
    Matcher g2 = G2_TYPE.matcher(type);
    if (g2.matches()) {
      Integer count = G2_L4_COUNT.get(Integer.parseInt(g2.group(1)));
      return count == null ? Optional.empty() : Optional.of(new Attached("L4", count));
    }
    Matcher fixed = FIXED_GPU_TYPE.matcher(type);
    if (fixed.matches() && FIXED_GPU_FAMILIES.containsKey(fixed.group(1))) {
      return Optional.of(new Attached(FIXED_GPU_FAMILIES.get(fixed.group(1)), Integer.parseInt(fixed.group(2))));
    }
    return Optional.empty();
  }

  /** Whether an accelerator only comes with its own machine family (A100, H100, L4, ...) rather than on N1. */
  static boolean hasOwnFamily(String accelerator) {
    return accelerator.equalsIgnoreCase("L4")
        || FIXED_GPU_FAMILIES.values().stream().anyMatch(accelerator::equalsIgnoreCase);
  }

  /** Whether a machine type is an N1 machine, the general-purpose family older GPUs attach to. */
  static boolean isN1(String instanceType) {
    String type = instanceType.toLowerCase(Locale.ROOT);
    return type.startsWith("n1-standard-") || type.startsWith("n1-highmem-") || type.startsWith("n1-highcpu-");
  }
}
