package io.github.gpusizer.core;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.CudaVersion;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.FormFactor;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.MemoryType;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.catalog.Vendor;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Task;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * GPUs and offerings for the sizer's tests, with datasheet figures (dense peaks) and their sources. Prices marked
 * "test input" are made up for a test and are no market price.
 */
final class Fixtures {
  private Fixtures() {}

  // NVIDIA T4 datasheet (2019): 16 GB GDDR6, 320 GB/s, 8.1 TFLOPS FP32, 65 TFLOPS mixed FP16/FP32, 130 TOPS INT8,
  // 70 W, PCIe gen3; compute capability 7.5 (CUDA C++ Programming Guide); Turing needs CUDA 10.0.
  static final Gpu T4 = gpu("t4", "Tesla T4", Vendor.NVIDIA, "Turing", "7.5", 2018, 16, MemoryType.GDDR6, 320,
      ImmutableMap.of(Precision.FP32, 8.1, Precision.FP16, 65.0, Precision.INT8, 130.0), OptionalDouble.empty(),
      true, FormFactor.PCIE, 0, 3, 70, "10.0", "NVIDIA T4 Tensor Core GPU datasheet");

  // NVIDIA V100 datasheet (SXM2): 16 GB HBM2, 900 GB/s, 15.7 TFLOPS FP32, 125 TFLOPS tensor, 7.8 FP64, NVLink
  // 300 GB/s, 300 W; compute capability 7.0; Volta needs CUDA 9.0.
  static final Gpu V100 = gpu("v100-sxm2-16gb", "Tesla V100-SXM2-16GB", Vendor.NVIDIA, "Volta", "7.0", 2017, 16,
      MemoryType.HBM2, 900, ImmutableMap.of(Precision.FP64, 7.8, Precision.FP32, 15.7, Precision.FP16, 125.0),
      OptionalDouble.empty(), true, FormFactor.SXM, 300, 3, 300, "9.0", "NVIDIA V100 Tensor Core GPU datasheet");

  // NVIDIA A100 datasheet (SXM4 40 GB): HBM2 1,555 GB/s; FP64 9.7, FP32 19.5, TF32 156, BF16/FP16 312, INT8 624
  // (dense); NVLink 600 GB/s, 400 W, PCIe gen4; compute capability 8.0; Ampere needs CUDA 11.0.
  static final Gpu A100_40 = gpu("a100-sxm4-40gb", "NVIDIA A100-SXM4-40GB", Vendor.NVIDIA, "Ampere", "8.0", 2020, 40,
      MemoryType.HBM2, 1555, a100Tflops(), OptionalDouble.empty(), true, FormFactor.SXM, 600, 4, 400, "11.0",
      "NVIDIA A100 Tensor Core GPU datasheet");

  // Same datasheet, SXM4 80 GB: HBM2e 2,039 GB/s, same peaks.
  static final Gpu A100_80 = gpu("a100-sxm4-80gb", "NVIDIA A100-SXM4-80GB", Vendor.NVIDIA, "Ampere", "8.0", 2020, 80,
      MemoryType.HBM2E, 2039, a100Tflops(), OptionalDouble.empty(), true, FormFactor.SXM, 600, 4, 400, "11.0",
      "NVIDIA A100 Tensor Core GPU datasheet");

  // NVIDIA Ada GPU architecture whitepaper, appendix table for the GeForce RTX 4090: 24 GB GDDR6X, 1,008 GB/s,
  // 82.6 TFLOPS FP32 and TF32 tensor, 165.2 FP16/BF16 tensor with FP32 accumulate (330.3 with FP16 accumulate),
  // 330.3 FP8 with FP32 accumulate, 660.6 INT8, 450 W, PCIe gen4, no NVLink; compute capability 8.9; needs CUDA
  // 11.8 (seed 000).
  static final Gpu RTX4090 = gpu("rtx-4090", "NVIDIA GeForce RTX 4090", Vendor.NVIDIA, "Ada Lovelace", "8.9", 2022,
      24, MemoryType.GDDR6X, 1008,
      ImmutableMap.of(Precision.FP32, 82.6, Precision.TF32, 82.6, Precision.FP16, 165.2, Precision.BF16, 165.2,
          Precision.FP8, 330.3, Precision.INT8, 660.6),
      OptionalDouble.of(330.3), true, FormFactor.CONSUMER, 0, 4, 450, "11.8", "NVIDIA Ada GPU architecture whitepaper");

  // NVIDIA H100 datasheet (SXM5): 80 GB HBM3, 3.35 TB/s; FP64 34, FP32 67, TF32 494.7, BF16/FP16 989.4, FP8 1,978.9
  // (dense; the datasheet's 989/1,979/3,958 are sparse); NVLink 900 GB/s, 700 W, PCIe gen5; compute capability 9.0;
  // Hopper needs CUDA 12.0 (seed 000: "需要 CUDA 12.x").
  static final Gpu H100 = gpu("h100-sxm5-80gb", "NVIDIA H100 SXM5 80GB", Vendor.NVIDIA, "Hopper", "9.0", 2022, 80,
      MemoryType.HBM3, 3350,
      ImmutableMap.of(Precision.FP64, 34.0, Precision.FP32, 67.0, Precision.TF32, 494.7, Precision.FP16, 989.4,
          Precision.BF16, 989.4, Precision.FP8, 1978.9, Precision.INT8, 1978.9),
      OptionalDouble.empty(), true, FormFactor.SXM, 900, 5, 700, "12.0", "NVIDIA H100 Tensor Core GPU datasheet");

  static final List<Gpu> GPUS = List.of(T4, V100, A100_40, A100_80, RTX4090, H100);

  private static final String AWS = "AWS EC2 On-Demand pricing, us-east-1, and instance type pages (read 2023-06)";
  private static final LocalDate AWS_DATE = LocalDate.of(2023, 6, 1);
  private static final String SEED = "seed 000: AIStudio pay-as-you-go development machines";
  private static final LocalDate SEED_DATE = LocalDate.of(2024, 6, 1);

  // AWS EC2 bills Linux on-demand instances per second (AWS "Per Second Billing" announcement, 2017).
  static final Offering G4DN = aws("g4dn.xlarge", T4, 1, 4, 16, 125, "0.526", OptionalDouble.of(25),
      Fabric.ETHERNET);
  static final Offering P3 = aws("p3.2xlarge", V100, 1, 8, 61, 0, "3.06", OptionalDouble.of(10), Fabric.ETHERNET);
  static final Offering P3_16 = aws("p3.16xlarge", V100, 8, 64, 488, 0, "24.48", OptionalDouble.of(25), Fabric.ETHERNET);
  static final Offering P4D = aws("p4d.24xlarge", A100_40, 8, 96, 1152, 8000, "32.7726", OptionalDouble.of(400),
      Fabric.CLUSTER);
  static final Offering P4DE = aws("p4de.24xlarge", A100_80, 8, 96, 1152, 8000, "40.9657", OptionalDouble.of(400),
      Fabric.CLUSTER);
  static final Offering P5 = aws("p5.48xlarge", H100, 8, 192, 2048, 30720, "98.32", OptionalDouble.of(3200),
      Fabric.CLUSTER);

  // Seed 000's AIStudio table: 4090 in 广东B at 2.09 CNY/h per GPU with 14 cores and 28 GB per GPU; A100-40GB in
  // 江苏A at 4.81 CNY/h per GPU with 10 cores and 86 GB; 50 GB system + 20 GB cloud disk. The seed does not state
  // the billing unit; these fixtures bill per minute.
  static final Offering AISTUDIO_4090_1 = aistudio(RTX4090, 1, 14, 28, "2.09", "guangdong-b");
  static final Offering AISTUDIO_4090_2 = aistudio(RTX4090, 2, 28, 56, "4.18", "guangdong-b");
  static final Offering AISTUDIO_4090_4 = aistudio(RTX4090, 4, 56, 112, "8.36", "guangdong-b");
  static final Offering AISTUDIO_4090_8 = aistudio(RTX4090, 8, 112, 224, "16.72", "guangdong-b");
  static final Offering AISTUDIO_A100_1 = aistudio(A100_40, 1, 10, 86, "4.81", "jiangsu-a");
  static final Offering AISTUDIO_A100_2 = aistudio(A100_40, 2, 20, 172, "9.62", "jiangsu-a");
  static final Offering AISTUDIO_A100_4 = aistudio(A100_40, 4, 40, 344, "19.24", "jiangsu-a");
  static final Offering AISTUDIO_A100_8 = aistudio(A100_40, 8, 80, 688, "38.48", "jiangsu-a");

  static final List<Offering> AWS_OFFERINGS = List.of(G4DN, P3, P3_16, P4D, P4DE, P5);
  static final List<Offering> AISTUDIO_OFFERINGS = List.of(AISTUDIO_4090_1, AISTUDIO_4090_2, AISTUDIO_4090_4,
      AISTUDIO_4090_8, AISTUDIO_A100_1, AISTUDIO_A100_2, AISTUDIO_A100_4, AISTUDIO_A100_8);

  static Catalog aws() {
    return Catalog.of(GPUS, AWS_OFFERINGS);
  }

  static Catalog aistudio() {
    return Catalog.of(GPUS, AISTUDIO_OFFERINGS);
  }

  static Catalog of(Offering... offerings) {
    return Catalog.of(GPUS, List.of(offerings));
  }

  /**
   * Llama-2-7B's dimensions (Touvron et al. 2023; Hugging Face meta-llama/Llama-2-7b-hf config.json): 32 layers,
   * hidden 4096, 32 heads, FFN 11008, vocabulary 32000, SwiGLU, RMSNorm, rotary positions, untied embeddings.
   */
  static final Transformer LLAMA2_7B = Transformer.builder("llama-2-7b").layers(32).hidden(4096).heads(32)
      .ffn(11008).vocab(32000).maxPositions(4096).gatedMlp(true).bias(false).tiedEmbeddings(false)
      .norm(io.github.gpusizer.core.model.Norm.RMS_NORM).positions(io.github.gpusizer.core.model.Positions.ROTARY)
      .build();

  /**
   * GPT-2 small (Radford et al. 2019; Hugging Face gpt2 config.json): 12 layers, hidden 768, 12 heads, vocabulary
   * 50257, 1024 positions, tied embeddings.
   */
  static final Transformer GPT2 = Transformer.builder("gpt2").layers(12).hidden(768).heads(12).vocab(50257)
      .maxPositions(1024).tiedEmbeddings(true).build();

  /** Full fine-tuning of Llama-2-7B on {@code tokens} tokens, BF16 mixed precision, AdamW, sequences of 2048. */
  static Task llamaFineTune(double tokens) {
    return Task.fullFineTuning(LLAMA2_7B).tokens(tokens).microBatch(1).globalBatch(64).sequenceLength(2048).build();
  }

  /** GPT-2 small pre-training on {@code tokens} tokens, BF16 mixed, micro-batch 8 of 1024 tokens. */
  static Task gpt2(double tokens) {
    return Task.pretraining(GPT2).tokens(tokens).microBatch(8).sequenceLength(1024).build();
  }

  static Offering offering(String provider, String type, String region, Gpu gpu, int count, String price,
      String currency, BillingMode billing, Optional<String> spot, Optional<String> monthly) {
    return new Offering(provider, type, region, gpu, count, 8 * count, DataSize.ofGiB(64 * count),
        DataSize.ofGB(1000), Money.of(price, currency), spot.map(s -> Money.of(s, currency)), billing,
        monthly.map(m -> Money.of(m, currency)), Optional.empty(), OptionalDouble.of(100), Fabric.ETHERNET,
        LocalDate.of(2024, 1, 1),
        "test input");
  }

  /**
   * {@code o} on another network: {@code fabric} at {@code gbps} (empty: not stated, as plain Ethernet may be). E.g.
   * {@code withNetwork(o, o.networkGbps(), Fabric.CLUSTER)}: {@link #offering}s on RDMA, as they were timed before
   * plain Ethernet got the socket transport's share of its link.
   */
  static Offering withNetwork(Offering o, OptionalDouble gbps, Fabric fabric) {
    return new Offering(o.provider(), o.instanceType(), o.region(), o.gpu(), o.gpuCount(), o.vcpus(), o.ram(),
        o.localDisk(), o.onDemandPerHour(), o.spotPerHour(), o.billing(), o.monthly(), o.yearly(), gbps, fabric,
        o.priceDate(), o.source());
  }

  /** {@code o} joined by an RDMA cluster fabric of the same bandwidth ({@link #withNetwork}). */
  static Offering onRdma(Offering o) {
    return withNetwork(o, o.networkGbps(), Fabric.CLUSTER);
  }

  private static Offering aws(String type, Gpu gpu, int count, int vcpus, int ramGiB, int diskGB, String price,
      OptionalDouble gbps, Fabric fabric) {
    return new Offering("aws", type, "us-east-1", gpu, count, vcpus, DataSize.ofGiB(ramGiB), DataSize.ofGB(diskGB),
        Money.of(price, "USD"), Optional.empty(), BillingMode.PER_SECOND, Optional.empty(), Optional.empty(), gbps,
        fabric, AWS_DATE, AWS);
  }

  private static Offering aistudio(Gpu gpu, int count, int vcpus, int ramGB, String price, String region) {
    return new Offering("aistudio", gpu.id() + "-x" + count, region, gpu, count, vcpus, DataSize.ofGB(ramGB),
        DataSize.ofGB(70), Money.of(price, "CNY"), Optional.empty(), BillingMode.PER_MINUTE, Optional.empty(),
        Optional.empty(), OptionalDouble.empty(), Fabric.STANDALONE, SEED_DATE, SEED);
  }

  private static ImmutableMap<Precision, Double> a100Tflops() {
    return ImmutableMap.of(Precision.FP64, 9.7, Precision.FP32, 19.5, Precision.TF32, 156.0, Precision.FP16, 312.0,
        Precision.BF16, 312.0, Precision.INT8, 624.0);
  }

  private static Gpu gpu(String id, String name, Vendor vendor, String arch, String cc, int year, int memGiB,
      MemoryType type, double bandwidth, ImmutableMap<Precision, Double> tflops, OptionalDouble fp16Acc,
      boolean tensorCores, FormFactor form, double nvlink, int pcie, int tdp, String minCuda, String source) {
    return new Gpu(id, name, ImmutableList.of(), vendor, arch, Optional.of(ComputeCapability.parse(cc)), year,
        DataSize.ofGiB(memGiB), type, bandwidth, tflops, fp16Acc, tensorCores, form, nvlink, OptionalInt.of(pcie),
        tdp, OptionalInt.empty(), Optional.of(CudaVersion.parse(minCuda)), Optional.empty(), source,
        ImmutableSet.of());
  }
}
