package io.github.gpusizer.core.estimate;

/**
 * A kind of local disk, with the sequential read rate assumed for it when the caller gives none.
 *
 * <pre>{@code
 * double mbps = DiskType.HDD.typicalReadMBps(); // 125
 * }</pre>
 */
public enum DiskType {
  /**
   * A hard disk: 100–150 MB/s sequential (seed 002, "100-150MB/S 的硬驱会很慢，不足以跟上 GPU"); the middle, 125, is
   * used.
   */
  HDD(125),
  /** A SATA SSD: the SATA III link carries 6 Gb/s, about 550 MB/s of data after 8b/10b coding (SATA-IO 3.0). */
  SATA_SSD(550),
  /** An NVMe SSD on PCIe 3.0 x4: about 3,000 MB/s sequential reads (PCI-SIG: 0.985 GB/s per Gen3 lane). */
  NVME_SSD(3000);

  private final double typicalReadMBps;

  DiskType(double typicalReadMBps) {
    this.typicalReadMBps = typicalReadMBps;
  }

  /** Sequential read rate in decimal MB/s. */
  public double typicalReadMBps() {
    return typicalReadMBps;
  }
}
