package io.github.gpusizer.core.estimate;

/**
 * A kind of disk, with its sequential read rate and random reads per second, assumed when the caller gives none.
 *
 * <pre>{@code
 * double mbps = DiskType.HDD.typicalReadMBps();                  // 125
 * double jpegs = DiskType.HDD.filesPerSecond(108e3);             // ~148 ImageNet JPEGs/s read at random
 * }</pre>
 *
 * <p>A file read at random pays one access ({@code 1 / randomReadsPerSecond}) and then streams its bytes at the
 * sequential rate, so small files on a hard disk are read at a small fraction of its sequential rate. Listed from
 * the cheapest per byte to the fastest.
 */
public enum DiskType {
  /**
   * A 7,200 rpm hard disk: 100–150 MB/s sequential (seed 002, "100-150MB/S 的硬驱会很慢，不足以跟上 GPU"; the middle,
   * 125, is used) and 170 random reads/s (Seagate Exos X18 datasheet: random read 4K QD16, 170 IOPS).
   */
  HDD("hard disk", 125, 170),
  /**
   * A network block volume at its baseline: AWS EBS gp3 gives 3,000 IOPS and 125 MiB/s (131 MB/s) without paying
   * for more (AWS EBS User Guide, "General Purpose SSD volumes", gp3); other clouds' balanced volumes are alike.
   */
  NETWORK_VOLUME("network volume", 131, 3_000),
  /**
   * A SATA SSD: the SATA III link carries 6 Gb/s, about 550 MB/s of data after 8b/10b coding (SATA-IO 3.0); 98,000
   * random 4 KB reads/s at QD32 (Samsung 870 EVO datasheet).
   */
  SATA_SSD("SATA SSD", 550, 98_000),
  /**
   * An NVMe SSD on PCIe 3.0 x4: about 3,000 MB/s sequential reads (PCI-SIG: 0.985 GB/s per Gen3 lane); 600,000 random
   * 4 KB reads/s at QD32 (Samsung 970 EVO Plus datasheet, 1 TB).
   */
  NVME_SSD("NVMe SSD", 3000, 600_000);

  private final String label;
  private final double typicalReadMBps;
  private final double randomReadsPerSecond;

  DiskType(String label, double typicalReadMBps, double randomReadsPerSecond) {
    this.label = label;
    this.typicalReadMBps = typicalReadMBps;
    this.randomReadsPerSecond = randomReadsPerSecond;
  }

  /** Sequential read rate in decimal MB/s. */
  public double typicalReadMBps() {
    return typicalReadMBps;
  }

  /** Random reads per second at a deep queue (the datasheet's 4 KB IOPS). */
  public double randomReadsPerSecond() {
    return randomReadsPerSecond;
  }

  /** Files of {@code bytes} each read per second in random order: one access plus the bytes at the sequential rate. */
  public double filesPerSecond(double bytes) {
    return 1 / (1 / randomReadsPerSecond + Math.max(0, bytes) / (typicalReadMBps * 1e6));
  }

  /** Decimal MB/s when reading {@code access}-style, files of {@code bytes} each. */
  public double readMBps(DataAccess access, double bytes) {
    return access == DataAccess.RANDOM_FILES ? filesPerSecond(bytes) * bytes / 1e6 : typicalReadMBps;
  }

  /** A plain name: "hard disk", "SATA SSD". */
  public String label() {
    return label;
  }
}
