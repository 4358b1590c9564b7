package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.core.task.Dataset;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import org.junit.jupiter.api.Test;

/** Host sizing speaks the seeds' advice: disk by access pattern, RAM by the rule that applies, cores with a why. */
class HostSizerTest {
  private static final Estimator ESTIMATOR = Estimator.defaults();

  @Test
  void imagenet_jpegs_read_at_random_need_an_ssd_and_the_reason_says_so() {
    // GIVEN ResNet-50 on ImageNet's 1.28 M JPEGs on one A100
    Task task = Task.pretraining(TestModels.RESNET50).dataset(Dataset.IMAGENET_1K).epochs(90).microBatch(256)
        .precision(PrecisionMode.FP16_MIXED).build();
    HostSizing host = ESTIMATOR.estimate(task, Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single()).host();
    // THEN not a hard disk: it reads ~150 such files a second at random, the GPU wants thousands
    assertThat(host.access()).isEqualTo(DataAccess.RANDOM_FILES);
    assertThat(host.diskType()).isIn(DiskType.SATA_SSD, DiskType.NVME_SSD);
    assertThat(host.diskReason()).contains("small files read at random").contains("a hard disk reads 148 such files/s")
        .contains("deep-learning server guide").contains("WebDataset").contains("a network volume at its baseline")
        .contains("too little");
  }

  @Test
  void packing_small_files_into_shards_would_let_a_hard_disk_do_for_a_slow_gpu() {
    // GIVEN ResNet-50 on a T4: a few hundred images/s, ~40 MB/s, within a hard disk's sequential rate
    Task task = Task.pretraining(TestModels.RESNET50).dataset(Dataset.IMAGENET_1K).microBatch(64)
        .precision(PrecisionMode.FP16_MIXED).build();
    HostSizing host = ESTIMATOR.estimate(task, Hardware.single(TestGpus.T4), Layout.single()).host();
    // THEN the files need an SSD, and packed shards would let the hard disk do
    assertThat(host.diskType()).isEqualTo(DiskType.SATA_SSD);
    assertThat(host.diskReason()).contains("packed into sequential shards (WebDataset tar, TFRecord) a hard disk "
        + "would do");
  }

  @Test
  void a_hard_disk_reads_small_files_at_a_small_fraction_of_its_sequential_rate() {
    // 1 / (1/170 + 108 kB / 125 MB/s) = 148 files/s = 16 MB/s of the 125
    assertThat(DiskType.HDD.filesPerSecond(108e3)).isBetween(147.0, 149.0);
    assertThat(DiskType.HDD.readMBps(DataAccess.RANDOM_FILES, 108e3)).isLessThan(0.15 * 125);
    assertThat(DiskType.HDD.readMBps(DataAccess.SEQUENTIAL_SHARDS, 108e3)).isEqualTo(125);
  }

  @Test
  void an_inference_node_s_ram_follows_its_weights_not_its_gpu_memory() {
    // GIVEN Llama-2-7B served on 8 A100-80GB (640 GB of GPU memory)
    Task task = Task.inference(TestModels.LLAMA2_7B).microBatch(8).sequenceLength(512).generatedTokens(128)
        .build();
    HostSizing host = ESTIMATOR.estimate(task, Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1), Layout.dataParallel(8))
        .host();
    // THEN 13.5 GB of weights in the page cache + 8 × 2 GiB processes + 4 GiB OS, rounded up: 33 GiB, not 640
    assertThat(host.ramRule()).isEqualTo(HostSizing.RamRule.WEIGHTS_PIPELINE_AND_OS);
    assertThat(host.ram()).isEqualTo(DataSize.ofGiB(33));
    assertThat(host.ramReason()).contains("weights in the page cache").contains("safetensors")
        .contains("not for serving");
    assertThat(host.access()).isEqualTo(DataAccess.LOADING_ONLY);
  }

  @Test
  void image_training_keeps_seed_002s_ram_at_least_the_gpu_memory() {
    Task task = Task.pretraining(TestModels.RESNET50).microBatch(64).precision(PrecisionMode.FP16_MIXED).build();
    HostSizing host = ESTIMATOR.estimate(task, Hardware.of(TestGpus.T4, 4, 1), Layout.dataParallel(4)).host();
    assertThat(host.ramRule()).isEqualTo(HostSizing.RamRule.AT_LEAST_GPU_MEMORY);
    assertThat(host.ram()).isGreaterThanOrEqualTo(DataSize.ofGiB(64));
    assertThat(host.ramReason()).contains("deep-learning server guide").contains("heavy preprocessing");
  }

  @Test
  void llm_training_gets_3_cores_per_gpu_and_says_why_not_the_seeds_10_to_12() {
    Task task = Task.pretraining(TestModels.LLAMA2_7B).microBatch(1).globalBatch(8).sequenceLength(4096)
        .precision(PrecisionMode.BF16_MIXED).build();
    HostSizing host = ESTIMATOR.estimate(task, Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single()).host();
    assertThat(host.cpuCores()).isEqualTo(3);
    assertThat(host.coresReason()).contains("pre-tokenised").contains("nothing to decode or augment")
        .contains("10-12").contains("samples/s x ms of CPU per sample");
    assertThat(host.ramRule()).isEqualTo(HostSizing.RamRule.WEIGHTS_PIPELINE_AND_OS);
  }

  @Test
  void text_with_a_cpu_cost_per_sample_gets_cores_from_rate_times_milliseconds() {
    Task task = Task.pretraining(TestModels.BERT_LARGE).microBatch(32).sequenceLength(128).cpuMsPerSample(20)
        .precision(PrecisionMode.BF16_MIXED).build();
    HostSizing host = ESTIMATOR.estimate(task, Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single()).host();
    assertThat(host.coresReason()).contains("ms of CPU each =").contains("loader cores + 1");
    assertThat(host.cpuCores()).isGreaterThan(3);
  }

  @Test
  void runs_sharing_an_instance_multiply_cores_and_ram_and_say_so() {
    Task task = Task.pretraining(TestModels.RESNET50).microBatch(64).precision(PrecisionMode.FP16_MIXED).build();
    HostSizing one = ESTIMATOR.estimate(task, Hardware.single(TestGpus.T4), Layout.single()).host();
    HostSizing two = one.forRuns(2);
    assertThat(two.cpuCores()).isEqualTo(2 * one.cpuCores());
    assertThat(two.ram()).isEqualTo(one.ram().times(2));
    assertThat(two.disk()).isEqualTo(one.disk());
    assertThat(two.ramReason()).endsWith("× 2 runs sharing the instance");
  }
}
