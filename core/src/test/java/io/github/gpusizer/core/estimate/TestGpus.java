package io.github.gpusizer.core.estimate;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.CudaVersion;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.FormFactor;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.MemoryType;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.catalog.Vendor;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * GPUs with their datasheet figures, for tests until the bundled catalog is ready. Dense peaks; 16- and 8-bit
 * tensor rates with FP32 accumulation. Memory as nvidia-smi's total in MiB rounded to GiB.
 */
final class TestGpus {
  private TestGpus() {}

  /** NVIDIA A100 Tensor Core GPU datasheet (2021, 80GB SXM column); A100 whitepaper for SMs and NVLink. */
  static final Gpu A100_SXM4_80GB = gpu("a100-sxm4-80gb", "NVIDIA A100-SXM4-80GB", "Ampere", 8, 0, 2020, 80,
      MemoryType.HBM2E, 2039,
      Map.of(Precision.FP64, 9.7, Precision.FP32, 19.5, Precision.TF32, 156.0, Precision.FP16, 312.0,
          Precision.BF16, 312.0, Precision.INT8, 624.0),
      FormFactor.SXM, 600, 4, 400, 108, "11.0", "NVIDIA A100 Tensor Core GPU datasheet (2021), SXM 80GB column");

  /** NVIDIA A100 Tensor Core GPU datasheet (2021, 40GB SXM column). */
  static final Gpu A100_SXM4_40GB = gpu("a100-sxm4-40gb", "NVIDIA A100-SXM4-40GB", "Ampere", 8, 0, 2020, 40,
      MemoryType.HBM2, 1555,
      Map.of(Precision.FP64, 9.7, Precision.FP32, 19.5, Precision.TF32, 156.0, Precision.FP16, 312.0,
          Precision.BF16, 312.0, Precision.INT8, 624.0),
      FormFactor.SXM, 600, 4, 400, 108, "11.0", "NVIDIA A100 Tensor Core GPU datasheet (2021), SXM 40GB column");

  /** NVIDIA Tesla V100 datasheet (2018, SXM2 column): 15.7 FP32, 125 tensor TFLOP/s, 900 GB/s, NVLink 300 GB/s. */
  static final Gpu V100_SXM2_16GB = gpu("v100-sxm2-16gb", "Tesla V100-SXM2-16GB", "Volta", 7, 0, 2017, 16,
      MemoryType.HBM2, 900,
      Map.of(Precision.FP64, 7.8, Precision.FP32, 15.7, Precision.FP16, 125.0),
      FormFactor.SXM, 300, 3, 300, 80, "9.0", "NVIDIA Tesla V100 datasheet (2018), SXM2 column");

  /** NVIDIA T4 datasheet (2019): 8.1 FP32, 65 FP16 mixed, 130 INT8, 320 GB/s, 70 W. */
  static final Gpu T4 = gpu("t4", "Tesla T4", "Turing", 7, 5, 2018, 16, MemoryType.GDDR6, 320,
      Map.of(Precision.FP32, 8.1, Precision.FP16, 65.0, Precision.INT8, 130.0),
      FormFactor.PCIE, 0, 3, 70, 40, "10.0", "NVIDIA T4 Tensor Core GPU datasheet (2019)");

  /**
   * NVIDIA Ada Lovelace architecture whitepaper (v2.1), Table 2, GeForce RTX 4090: 82.6 FP32, 82.6 TF32, 165.2 FP16
   * and BF16 with FP32 accumulate (330.3 with FP16 accumulate), 330.3 FP8 (FP32 accumulate), 660.6 INT8; 1008 GB/s.
   */
  static final Gpu RTX_4090 = new Gpu("rtx-4090", "NVIDIA GeForce RTX 4090", ImmutableList.of("4090"), Vendor.NVIDIA,
      "Ada Lovelace", Optional.of(new ComputeCapability(8, 9)), 2022, DataSize.ofGiB(24), MemoryType.GDDR6X, 1008,
      ImmutableMap.of(Precision.FP32, 82.6, Precision.TF32, 82.6, Precision.FP16, 165.2, Precision.BF16, 165.2,
          Precision.FP8, 330.3, Precision.INT8, 660.6),
      OptionalDouble.of(330.3), true, FormFactor.CONSUMER, 0, OptionalInt.of(4), 450, OptionalInt.of(128),
      Optional.of(CudaVersion.parse("11.8")), Optional.empty(), "NVIDIA Ada Lovelace architecture whitepaper v2.1",
      ImmutableSet.of());

  /**
   * NVIDIA Ampere GA102 GPU architecture whitepaper (2020), GeForce RTX 3090: 35.6 FP32 and TF32, 71 FP16/BF16 with
   * FP32 accumulate (142 with FP16 accumulate), 284 INT8; 936 GB/s GDDR6X; 350 W; 82 SMs.
   */
  static final Gpu RTX_3090 = new Gpu("rtx-3090", "NVIDIA GeForce RTX 3090", ImmutableList.of("3090"), Vendor.NVIDIA,
      "Ampere", Optional.of(new ComputeCapability(8, 6)), 2020, DataSize.ofGiB(24), MemoryType.GDDR6X, 936,
      ImmutableMap.of(Precision.FP32, 35.6, Precision.TF32, 35.6, Precision.FP16, 71.0, Precision.BF16, 71.0,
          Precision.INT8, 284.0),
      OptionalDouble.of(142.0), true, FormFactor.CONSUMER, 0, OptionalInt.of(4), 350, OptionalInt.of(82),
      Optional.of(CudaVersion.parse("11.1")), Optional.empty(), "NVIDIA Ampere GA102 GPU architecture whitepaper",
      ImmutableSet.of());

  /**
   * NVIDIA GeForce RTX 3090 Ti specifications (2022): the full GA102 (84 SMs, 10,752 CUDA cores) at 450 W, 24 GB
   * GDDR6X at 1,008 GB/s, 40 TFLOPS FP32; tensor rates scaled from the RTX 3090's by SMs × boost clock.
   */
  static final Gpu RTX_3090_TI = new Gpu("rtx-3090-ti", "NVIDIA GeForce RTX 3090 Ti", ImmutableList.of("3090 ti"),
      Vendor.NVIDIA, "Ampere", Optional.of(new ComputeCapability(8, 6)), 2022, DataSize.ofGiB(24), MemoryType.GDDR6X,
      1008, ImmutableMap.of(Precision.FP32, 40.0, Precision.TF32, 40.0, Precision.FP16, 80.0, Precision.BF16, 80.0,
          Precision.INT8, 320.0),
      OptionalDouble.of(160.0), true, FormFactor.CONSUMER, 0, OptionalInt.of(4), 450, OptionalInt.of(84),
      Optional.of(CudaVersion.parse("11.1")), Optional.empty(), "NVIDIA GeForce RTX 3090 Ti specifications (2022)",
      ImmutableSet.of());

  /** NVIDIA A100 Tensor Core GPU datasheet (2020, 40GB PCIe column): the SXM4 chip and peaks at 250 W, 1555 GB/s. */
  static final Gpu A100_PCIE_40GB = gpu("a100-pcie-40gb", "NVIDIA A100-PCIE-40GB", "Ampere", 8, 0, 2020, 40,
      MemoryType.HBM2, 1555,
      Map.of(Precision.FP64, 9.7, Precision.FP32, 19.5, Precision.TF32, 156.0, Precision.FP16, 312.0,
          Precision.BF16, 312.0, Precision.INT8, 624.0),
      FormFactor.PCIE, 0, 4, 250, 108, "11.0", "NVIDIA A100 Tensor Core GPU datasheet (2020), PCIe 40GB column");

  /** NVIDIA H100 Tensor Core GPU datasheet (2023, PCIe column): 51.2 FP32, 756 FP16/BF16 dense, 2.0 TB/s, 350 W. */
  static final Gpu H100_PCIE = gpu("h100-pcie", "NVIDIA H100 PCIe", "Hopper", 9, 0, 2022, 80, MemoryType.HBM2E, 2000,
      Map.of(Precision.FP64, 25.6, Precision.FP32, 51.2, Precision.TF32, 378.0, Precision.FP16, 756.0,
          Precision.BF16, 756.0, Precision.FP8, 1513.0, Precision.INT8, 1513.0),
      FormFactor.PCIE, 0, 5, 350, 114, "11.8", "NVIDIA H100 Tensor Core GPU datasheet (2023), PCIe column");

  /** NVIDIA A10 Tensor Core GPU datasheet (2021): 31.2 FP32, 62.5 TF32, 125 FP16/BF16 dense, 600 GB/s, 150 W. */
  static final Gpu A10 = gpu("a10", "NVIDIA A10", "Ampere", 8, 6, 2021, 24, MemoryType.GDDR6, 600,
      Map.of(Precision.FP32, 31.2, Precision.TF32, 62.5, Precision.FP16, 125.0, Precision.BF16, 125.0,
          Precision.INT8, 250.0),
      FormFactor.PCIE, 0, 4, 150, 72, "11.1", "NVIDIA A10 Tensor Core GPU datasheet (2021)");

  /**
   * NVIDIA H100 Tensor Core GPU datasheet (2023, SXM column): 67 FP32, 494.7 TF32, 989.4 BF16/FP16, 1978.9 FP8 dense
   * (half the sparse figures), 3.35 TB/s, NVLink 900 GB/s, 700 W.
   */
  static final Gpu H100_SXM = gpu("h100-sxm", "NVIDIA H100 SXM", "Hopper", 9, 0, 2022, 80, MemoryType.HBM3, 3352,
      Map.of(Precision.FP64, 34.0, Precision.FP32, 67.0, Precision.TF32, 494.7, Precision.FP16, 989.4,
          Precision.BF16, 989.4, Precision.FP8, 1978.9, Precision.INT8, 1978.9),
      FormFactor.SXM, 900, 5, 700, 132, "12.0", "NVIDIA H100 Tensor Core GPU datasheet (2023), SXM column");

  /**
   * The H100 SXM with 96 GB of HBM2e at 2.4 TB/s and a 500 W power limit of Meta's Grand Teton hosts
   * (pytorch/torchtitan {@code benchmarks/llama3_h100_202412_torchtitan.md}, "Hardware"): the same 132-SM Hopper chip
   * and datasheet peaks as the H100 SXM; torchtitan notes its sustained rate lies between the SXM and NVL figures.
   */
  static final Gpu H100_SXM_96GB = gpu("h100-sxm-96gb", "NVIDIA H100 SXM 96GB", "Hopper", 9, 0, 2023, 96,
      MemoryType.HBM2E, 2400,
      Map.of(Precision.FP64, 34.0, Precision.FP32, 67.0, Precision.TF32, 494.7, Precision.FP16, 989.4,
          Precision.BF16, 989.4, Precision.FP8, 1978.9, Precision.INT8, 1978.9),
      FormFactor.SXM, 900, 5, 500, 132, "12.0", "pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md");

  /**
   * NVIDIA H200 Tensor Core GPU datasheet (2024, SXM column): 141 GB HBM3E at 4.8 TB/s; the same Hopper chip as the
   * H100 SXM, so the same dense peaks (989.4 BF16/FP16); NVLink 900 GB/s; up to 700 W.
   */
  static final Gpu H200_SXM = new Gpu("h200-sxm", "NVIDIA H200", ImmutableList.of(), Vendor.NVIDIA, "Hopper",
      Optional.of(new ComputeCapability(9, 0)), 2024, DataSize.ofGB(141), MemoryType.HBM3E, 4800,
      ImmutableMap.of(Precision.FP64, 34.0, Precision.FP32, 67.0, Precision.TF32, 494.7, Precision.FP16, 989.4,
          Precision.BF16, 989.4, Precision.FP8, 1978.9, Precision.INT8, 1978.9),
      OptionalDouble.empty(), true, FormFactor.SXM, 900, OptionalInt.of(5), 700, OptionalInt.of(132),
      Optional.of(CudaVersion.parse("12.0")), Optional.empty(),
      "NVIDIA H200 Tensor Core GPU datasheet (2024), SXM column", ImmutableSet.of());

  private static Gpu gpu(String id, String name, String architecture, int major, int minor, int year, int gib,
                         MemoryType memoryType, double bandwidth, Map<Precision, Double> tflops, FormFactor form,
                         double nvlink, int pcie, int tdp, int sms, String cuda, String source) {
    return new Gpu(id, name, ImmutableList.of(), Vendor.NVIDIA, architecture,
        Optional.of(new ComputeCapability(major, minor)), year, DataSize.ofGiB(gib), memoryType, bandwidth,
        ImmutableMap.copyOf(tflops), OptionalDouble.empty(), true, form, nvlink, OptionalInt.of(pcie), tdp,
        OptionalInt.of(sms), Optional.of(CudaVersion.parse(cuda)), Optional.empty(), source, ImmutableSet.of());
  }
}
