package io.github.gpusizer.core.estimate;

import io.github.gpusizer.catalog.FormFactor;
import io.github.gpusizer.catalog.Gpu;

/** Bandwidth of the links between GPUs, per direction, in GB/s. */
final class Links {
  /**
   * PCIe x16 per direction by generation: 8, 16 and 32 GT/s per lane with 128b/130b coding give 15.75, 31.5 and 63
   * GB/s for Gen3, Gen4 and Gen5 (PCI-SIG, PCI Express Base Specification 3.0/4.0/5.0); Gen2 (5 GT/s, 8b/10b) 8 GB/s.
   */
  static double pcieGBps(Gpu gpu) {
    int generation = gpu.pcieGeneration().orElse(4);
    return switch (generation) {
      case 1 -> 4;
      case 2 -> 8;
      case 3 -> 15.75;
      case 4 -> 31.5;
      case 5 -> 63;
      default -> 63 * Math.pow(2, generation - 5);
    };
  }

  /**
   * Assumed network out of a node when the hardware does not say: one 100 Gb/s Ethernet port (12.5 GB/s), the
   * common cloud VM network without InfiniBand or EFA.
   */
  static final double DEFAULT_INTER_NODE_GBPS = 100;

  /**
   * NCCL time of one small collective within a node, the latency floor of tensor-parallel all-reduces while decoding
   * (nccl-tests show all-reduce times of roughly 10 µs for small messages on NVLink systems).
   */
  static final double COLLECTIVE_LATENCY_SECONDS = 10e-6;

  private Links() {}

  /**
   * Whether {@code gpusInNode} GPUs reach each other over NVLink: SXM/OAM boards and superchips connect all GPUs
   * through NVSwitch or a full mesh; PCIe cards only in bridged pairs.
   */
  static boolean usesNvlink(Gpu gpu, int gpusInNode) {
    if (!gpu.hasNvlink()) {
      return false;
    }
    FormFactor form = gpu.formFactor();
    return form == FormFactor.SXM || form == FormFactor.OAM || form == FormFactor.SUPERCHIP
        || form == FormFactor.TPU || gpusInNode <= 2;
  }

  /** Per-direction bandwidth between GPUs of one node in GB/s: half the bidirectional NVLink total, or PCIe. */
  static double intraNodeGBps(Gpu gpu, int gpusInNode) {
    return usesNvlink(gpu, gpusInNode) ? gpu.nvlinkGBps() / 2 : pcieGBps(gpu);
  }

  /** Network bandwidth out of one node in GB/s (per direction). */
  static double interNodeGBps(Hardware hardware) {
    return hardware.interNodeGbps().orElse(DEFAULT_INTER_NODE_GBPS) / 8;
  }
}
