package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuCsvTest {
  private final Catalog catalog = Fixtures.gpus();

  @Test
  void reads_every_gpu_in_file_order() {
    assertThat(catalog.gpus()).extracting(Gpu::id).containsExactly("a100-sxm4-40gb", "a100-sxm4-80gb",
        "a100-pcie-40gb", "a10", "t4", "v100-sxm2-16gb", "h100-sxm5-80gb", "l4", "rtx-4090");
  }

  @Test
  void maps_every_column_of_a_row() {
    // GIVEN the H100 row of testdata/gpus.csv  WHEN loaded
    Gpu h100 = catalog.gpu("h100-sxm5-80gb");

    // THEN each column lands in its field, with its unit
    assertThat(h100.name()).isEqualTo("NVIDIA H100 SXM5 80GB");
    assertThat(h100.aliases()).containsExactly("H100", "H100 SXM", "H100-MEGA");
    assertThat(h100.vendor()).isEqualTo(Vendor.NVIDIA);
    assertThat(h100.architecture()).isEqualTo("Hopper");
    assertThat(h100.computeCapability()).contains(new ComputeCapability(9, 0));
    assertThat(h100.releaseYear()).isEqualTo(2022);
    assertThat(h100.memory()).isEqualTo(DataSize.ofBytes(80L << 30));
    assertThat(h100.memoryType()).isEqualTo(MemoryType.HBM3);
    assertThat(h100.memoryBandwidthGBps()).isEqualTo(3350.0);
    assertThat(h100.denseTflops()).containsExactlyInAnyOrderEntriesOf(Map.of(
        Precision.FP64, 34.0, Precision.FP32, 67.0, Precision.TF32, 494.7, Precision.FP16, 989.4,
        Precision.BF16, 989.4, Precision.FP8, 1978.9, Precision.INT8, 1978.9));
    assertThat(h100.fp16AccumulateTflops()).isEmpty();
    assertThat(h100.tensorCores()).isTrue();
    assertThat(h100.formFactor()).isEqualTo(FormFactor.SXM);
    assertThat(h100.nvlinkGBps()).isEqualTo(900.0);
    assertThat(h100.pcieGeneration()).hasValue(5);
    assertThat(h100.tdpWatts()).isEqualTo(700);
    assertThat(h100.smCount()).hasValue(132);
    assertThat(h100.minCuda()).contains(new CudaVersion(11, 8));
    assertThat(h100.purchasePrice()).isEmpty();
    assertThat(h100.source()).isEqualTo("NVIDIA H100 Tensor Core GPU datasheet");
    assertThat(h100.unconfirmed()).isEmpty();
  }

  @Test
  void empty_throughput_cell_means_the_precision_is_unsupported() {
    // The V100 row leaves TF32, BF16, FP8 and INT8 empty.
    Gpu v100 = catalog.gpu("v100");
    assertThat(v100.supports(Precision.FP16)).isTrue();
    assertThat(v100.supports(Precision.BF16)).isFalse();
    assertThat(v100.supports(Precision.TF32)).isFalse();
    assertThat(v100.supports(Precision.INT8)).isFalse();
  }

  @Test
  void int8_tops_and_fp16_accumulate_columns_have_their_own_fields() {
    Gpu rtx4090 = catalog.gpu("RTX 4090");
    assertThat(rtx4090.denseTflops(Precision.INT8)).isEqualTo(660.6);
    assertThat(rtx4090.denseTflops(Precision.FP16)).isEqualTo(165.2);
    assertThat(rtx4090.fp16AccumulateTflops()).hasValue(330.3);
  }

  @Test
  void purchase_price_columns_make_a_dated_price() {
    Gpu rtx4090 = catalog.gpu("rtx-4090");
    assertThat(rtx4090.purchasePrice()).hasValueSatisfying(p -> {
      assertThat(p.price().isEqualTo(Money.of(new BigDecimal("1599"), Money.currency("USD")))).isTrue();
      assertThat(p.date()).isEqualTo(LocalDate.of(2022, 10, 12));
      assertThat(p.kind()).isEqualTo(PurchasePrice.Kind.LAUNCH_MSRP);
      assertThat(p.source()).isEqualTo("NVIDIA GeForce RTX 4090 launch announcement");
    });
  }

  @Test
  void unconfirmed_lists_column_names() {
    assertThat(catalog.gpu("rtx-4090").unconfirmed()).containsExactly("fp64_tflops", "sm_count");
  }
}
