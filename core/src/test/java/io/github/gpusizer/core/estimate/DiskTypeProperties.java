package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import org.junit.jupiter.api.Test;

/** Reading small files at random never beats reading the same bytes sequentially, on any disk. */
class DiskTypeProperties {
  @Test
  void random_files_are_read_no_faster_than_sequential_shards_nor_than_the_disks_iops() {
    qt().forAll(integers().between(1, 50_000_000), integers().between(0, DiskType.values().length - 1))
        .checkAssert((bytes, index) -> {
          DiskType disk = DiskType.values()[index];
          assertThat(disk.readMBps(DataAccess.RANDOM_FILES, bytes))
              .isLessThanOrEqualTo(disk.readMBps(DataAccess.SEQUENTIAL_SHARDS, bytes) + 1e-9);
          assertThat(disk.filesPerSecond(bytes)).isLessThanOrEqualTo(disk.randomReadsPerSecond());
        });
  }

  @Test
  void faster_kinds_of_local_disk_read_small_files_faster() {
    qt().forAll(integers().between(1, 50_000_000)).checkAssert(bytes -> {
      assertThat(DiskType.SATA_SSD.filesPerSecond(bytes)).isGreaterThan(DiskType.HDD.filesPerSecond(bytes));
      assertThat(DiskType.NVME_SSD.filesPerSecond(bytes)).isGreaterThan(DiskType.SATA_SSD.filesPerSecond(bytes));
    });
  }

  @Test
  void the_slowest_sufficient_disk_for_shards_is_never_faster_than_for_random_files() {
    qt().forAll(integers().between(1_000, 10_000_000), integers().between(1, 100_000)).checkAssert((bytes, rate) ->
        assertThat(HostSizer.slowestFor(DataAccess.SEQUENTIAL_SHARDS, bytes, rate).ordinal())
            .isLessThanOrEqualTo(HostSizer.slowestFor(DataAccess.RANDOM_FILES, bytes, rate).ordinal()));
  }
}
