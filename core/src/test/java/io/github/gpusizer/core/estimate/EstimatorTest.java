package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.common.testing.NullPointerTester;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.core.model.Generic;
import io.github.gpusizer.core.model.Recurrent;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class EstimatorTest {
  private static final Estimator ESTIMATOR = Estimator.defaults();
  private static final Hardware A100 = Hardware.single(TestGpus.A100_SXM4_80GB);
  private static final Task LLAMA_TRAINING = Task.pretraining(TestModels.LLAMA2_7B).microBatch(1).globalBatch(8)
      .sequenceLength(4096).tokens(1e9).build();

  // ------------------------------------------------------------------ errors

  @Test
  void rejects_bf16_on_a_v100_naming_the_capability_needed_and_the_one_it_has() {
    Task bf16 = Task.fullFineTuning(TestModels.BERT_LARGE).precision(PrecisionMode.BF16_MIXED).build();
    assertThatThrownBy(() -> ESTIMATOR.estimate(bf16, Hardware.single(TestGpus.V100_SXM2_16GB), Layout.single()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BF16 needs compute capability 8.0")
        .hasMessageContaining("Tesla V100-SXM2-16GB has 7.0");
  }

  @Test
  void as_run_a_task_without_a_chosen_precision_takes_the_best_the_gpu_has_and_says_so() {
    // GIVEN BERT-large fine-tuning whose caller chose no precision (the BF16 default), and one that chose BF16
    Task open = Task.fullFineTuning(TestModels.BERT_LARGE).microBatch(4).sequenceLength(128).build();
    Task bf16 = open.toBuilder().precision(PrecisionMode.BF16_MIXED).build();
    Hardware v100 = Hardware.single(TestGpus.V100_SXM2_16GB);
    // WHEN estimated as run on a V100 (no BF16)
    Estimate asRun = ESTIMATOR.estimateAsRun(open, v100, Layout.single());
    // THEN it is exactly the estimate of FP16 mixed precision, the task reports it, and a warning says why
    Task fp16 = open.forGpu(TestGpus.V100_SXM2_16GB);
    assertThat(fp16.precision()).isEqualTo(PrecisionMode.FP16_MIXED);
    assertThat(asRun.task()).isEqualTo(fp16);
    assertThat(asRun.memory()).isEqualTo(ESTIMATOR.estimate(fp16, v100, Layout.single()).memory());
    assertThat(asRun.warnings().get(0).code()).isEqualTo("precision-fallback");
    assertThat(asRun.warnings().get(0).message()).contains("runs in FP16_MIXED on the Tesla V100-SXM2-16GB");
    // and a precision chosen outright is never replaced; where the GPU has it, nothing changes
    assertThatThrownBy(() -> ESTIMATOR.estimateAsRun(bf16, v100, Layout.single()))
        .hasMessageContaining("BF16 needs compute capability 8.0");
    assertThat(ESTIMATOR.estimateAsRun(open, A100, Layout.single()))
        .isEqualTo(ESTIMATOR.estimate(open, A100, Layout.single()));
  }

  @Test
  void rejects_fp8_on_an_a100_naming_capability_8_9() {
    Task fp8 = Task.pretraining(TestModels.LLAMA2_7B).precision(PrecisionMode.FP8_MIXED).build();
    assertThatThrownBy(() -> ESTIMATOR.memory(fp8, A100, Layout.single()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("FP8 needs compute capability 8.9")
        .hasMessageContaining("has 8.0");
  }

  @Test
  void rejects_a_global_batch_that_is_not_a_multiple_of_micro_batch_times_data_parallel_ranks() {
    Task task = LLAMA_TRAINING.toBuilder().microBatch(2).globalBatch(10).build();
    Hardware node = Hardware.of(TestGpus.A100_SXM4_80GB, 4, 1);
    assertThatThrownBy(() -> ESTIMATOR.estimate(task, node, Layout.dataParallel(4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("global batch 10 must be a multiple of micro-batch 2 x 4 data-parallel ranks = 8");
  }

  @Test
  void rejects_tensor_parallelism_that_does_not_divide_the_heads() {
    Hardware node = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
    Layout tp3 = new Layout(2, 3, 1, ZeroStage.NONE, 8);
    assertThatThrownBy(() -> ESTIMATOR.memory(LLAMA_TRAINING, node, tp3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tensor parallelism (3) must divide the 32 attention heads of llama-2-7b");
  }

  @Test
  void rejects_splitting_the_layers_of_qlora_but_not_sharding_them() {
    // GIVEN QLoRA of Llama-2-7B on an 8-GPU node
    Task qlora = Task.qlora(TestModels.LLAMA2_7B, 8).microBatch(1).build();
    Hardware node = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
    // WHEN its layers are split by tensor or pipeline parallelism THEN it is refused, saying what QLoRA runs with
    assertThatThrownBy(() -> ESTIMATOR.memory(qlora, node, new Layout(4, 2, 1, ZeroStage.NONE, 8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("QLORA keeps its 4-bit base weights whole on each GPU")
        .hasMessageContaining("not tensor (2), pipeline (1) or context (1) parallelism");
    assertThatThrownBy(() -> ESTIMATOR.memory(qlora, Hardware.of(TestGpus.A100_SXM4_80GB, 4, 2),
        new Layout(4, 1, 2, ZeroStage.NONE, 4))).hasMessageContaining("pipeline (2)");
    // while FSDP sharding (FSDP-QLoRA) and LoRA on 16-bit weights with tensor parallelism are estimated
    assertThat(ESTIMATOR.memory(qlora, node, new Layout(8, 1, 1, ZeroStage.STAGE_3, 8)).perGpu().bytes()).isPositive();
    Task lora = Task.lora(TestModels.LLAMA2_7B, 8).microBatch(1).build();
    assertThat(ESTIMATOR.memory(lora, node, new Layout(4, 2, 1, ZeroStage.NONE, 8)).perGpu().bytes()).isPositive();
  }

  @Test
  void rejects_a_layout_larger_than_the_hardware() {
    assertThatThrownBy(() -> ESTIMATOR.memory(LLAMA_TRAINING, A100, Layout.dataParallel(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs 2 GPUs but the hardware has 1");
  }

  @Test
  void rejects_zero_sharding_for_inference_and_tensor_parallelism_for_cnns() {
    Task serve = Task.inference(TestModels.LLAMA2_7B).build();
    Hardware node = Hardware.of(TestGpus.A100_SXM4_80GB, 2, 1);
    assertThatThrownBy(() -> ESTIMATOR.memory(serve, node, Layout.dataParallel(2).withZero(ZeroStage.STAGE_3)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ZeRO stage 3");
    Task cnn = Task.pretraining(TestModels.RESNET50).build();
    assertThatThrownBy(() -> ESTIMATOR.memory(cnn, node, new Layout(1, 2, 1, ZeroStage.NONE, 2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("resnet50-v1.5 is not a transformer");
  }

  @Test
  void rejects_an_efficiency_outside_0_to_1() {
    assertThatThrownBy(() -> ESTIMATOR.withEfficiency(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("efficiency (MFU) must be in (0, 1], was 0.0");
    assertThatThrownBy(() -> ESTIMATOR.withEfficiency(1.5)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void hardware_rejects_zero_gpus_and_a_negative_disk_rate() {
    assertThatThrownBy(() -> Hardware.of(TestGpus.T4, 0, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("GPUs per node must be >= 1, was 0");
    assertThatThrownBy(() -> Hardware.single(TestGpus.T4).withDiskMBps(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("disk read rate must be > 0 MB/s, was -1.0");
  }

  @Test
  void public_entry_points_reject_nulls() {
    NullPointerTester tester = new NullPointerTester()
        .setDefault(Task.class, LLAMA_TRAINING)
        .setDefault(Hardware.class, A100)
        .setDefault(Layout.class, Layout.single())
        .setDefault(io.github.gpusizer.catalog.Gpu.class, TestGpus.A100_SXM4_80GB);
    tester.testAllPublicInstanceMethods(ESTIMATOR);
    tester.testAllPublicStaticMethods(Hardware.class);
  }

  // ------------------------------------------------------------------ speed and bottleneck

  @Test
  void decoding_one_sequence_is_bound_by_memory_bandwidth() {
    Task decode = Task.inference(TestModels.LLAMA2_7B).sequenceLength(128).generatedTokens(512).build();
    PerformanceEstimate p = ESTIMATOR.estimate(decode, A100, Layout.single()).performance();
    assertThat(p.bottleneck()).isEqualTo(Bottleneck.MEMORY_BANDWIDTH);
    assertThat(p.mfu()).isLessThan(0.05);
  }

  @Test
  void a_7b_pretraining_step_on_one_gpu_is_compute_bound_with_a_plausible_mfu() {
    PerformanceEstimate p = ESTIMATOR.estimate(LLAMA_TRAINING, A100, Layout.single()).performance();
    assertThat(p.bottleneck()).isEqualTo(Bottleneck.COMPUTE);
    assertThat(p.mfu()).isBetween(0.4, 0.8);
    assertThat(p.tokensPerSecond()).isCloseTo(p.samplesPerSecond() * 4096, within(1e-6));
  }

  @Test
  void total_time_is_the_work_over_the_throughput() {
    PerformanceEstimate p = ESTIMATOR.estimate(LLAMA_TRAINING, A100, Layout.single()).performance();
    double seconds = 1e9 / p.tokensPerSecond();
    assertThat(p.totalTime()).isPresent();
    assertThat(p.totalTime().get().toMillis() / 1000.0).isCloseTo(seconds, within(0.01));
  }

  @Test
  void many_nodes_on_a_slow_network_are_bound_by_communication() {
    // GIVEN a 1.7B model, one sequence per GPU, 8 nodes joined by one 100 Gb/s Ethernet port each
    Task task = Task.pretraining(TestModels.GPT_1_7B).microBatch(1).globalBatch(64).sequenceLength(512).build();
    Hardware cluster = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 8).withInterNodeGbps(100);
    Estimate e = ESTIMATOR.estimate(task, cluster, new Layout(64, 1, 1, ZeroStage.NONE, 8));
    assertThat(e.performance().bottleneck()).isEqualTo(Bottleneck.COMMUNICATION);
    assertThat(e.performance().scalingEfficiency()).isLessThan(0.5);
  }

  @Test
  void the_efficiency_override_sets_the_arithmetic_rate() {
    Estimator slow = ESTIMATOR.withEfficiency(0.25);
    PerformanceEstimate p = slow.estimate(LLAMA_TRAINING, A100, Layout.single()).performance();
    assertThat(p.mfu()).isBetween(0.22, 0.25);
    assertThat(slow.efficiency()).hasValue(0.25);
  }

  @Test
  void full_recomputation_reports_more_hardware_flops_than_model_flops() {
    Task full = LLAMA_TRAINING.toBuilder().checkpointing(Checkpointing.FULL).build();
    PerformanceEstimate p = ESTIMATOR.estimate(full, A100, Layout.single()).performance();
    // 8N instead of 6N for the matmuls (4/3); causal FlashAttention executes half the attention FLOPs MFU counts
    assertThat(p.hardwareTflopsPerGpu() / p.achievedTflopsPerGpu()).isBetween(1.2, 1.34);
  }

  @Test
  void a_small_batch_lstm_language_model_is_bound_by_memory_bandwidth() {
    // GIVEN the PyTorch word-language-model LSTM (2 × 1500, vocabulary 33278) at batch 20, 35 steps
    Recurrent lstm = new Recurrent("lstm-lm", Recurrent.Cell.LSTM, 2, 1500, 1500, 33278, true);
    Task task = Task.pretraining(lstm).microBatch(20).sequenceLength(35).precision(PrecisionMode.FP16_MIXED)
        .optimizer(Optimizer.SGD).build();
    // WHEN estimated on a V100 with tensor cores: each time step re-reads the recurrent weights for 20 rows of work
    // (10 FLOPs per byte, far below the V100's ~140), which outweighs the compute-bound output projection
    Estimate e = ESTIMATOR.estimate(task, Hardware.single(TestGpus.V100_SXM2_16GB), Layout.single());
    assertThat(e.performance().bottleneck()).isEqualTo(Bottleneck.MEMORY_BANDWIDTH);
    assertThat(e.memory().fits()).isTrue();
    assertThat(e.performance().tokensPerSecond()).isCloseTo(e.performance().samplesPerSecond() * 35, within(1e-6));
  }

  @Test
  void tensor_parallelism_splits_the_weights_and_pipeline_bubbles_shrink_with_more_micro_batches() {
    Hardware node = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
    Task task = Task.pretraining(TestModels.LLAMA2_13B).microBatch(1).globalBatch(4).sequenceLength(4096).build();
    MemoryBreakdown single = ESTIMATOR.memory(task, A100, Layout.single()).breakdown();
    MemoryBreakdown tp8 = ESTIMATOR.memory(task, node, new Layout(1, 8, 1, ZeroStage.NONE, 8)).breakdown();
    assertThat(tp8.weights().bytes()).isEqualTo(single.weights().bytes() / 8);
    Layout pp4 = new Layout(2, 1, 4, ZeroStage.NONE, 8);
    double few = ESTIMATOR.estimate(task.toBuilder().globalBatch(8).build(), node, pp4).performance()
        .scalingEfficiency();
    double many = ESTIMATOR.estimate(task.toBuilder().globalBatch(64).build(), node, pp4).performance()
        .scalingEfficiency();
    // bubble (p − 1) / (m + p − 1): 3/7 of the step with 4 micro-batches, 3/35 with 32
    assertThat(many).isGreaterThan(few);
    assertThat(few).isLessThan(0.6);
  }

  // ------------------------------------------------------------------ input pipeline and host

  @Test
  void too_few_cpu_cores_make_image_training_cpu_bound_with_a_warning() {
    Task task = Task.pretraining(TestModels.RESNET50).microBatch(256).precision(PrecisionMode.FP16_MIXED)
        .cpuMsPerSample(10).build();
    Hardware fourCores = A100.withCpuCoresPerNode(4);
    Estimate e = ESTIMATOR.estimate(task, fourCores, Layout.single());
    // 3 loader cores × 1000 ms / 10 ms = 300 images/s
    assertThat(e.performance().bottleneck()).isEqualTo(Bottleneck.CPU_INPUT);
    assertThat(e.performance().samplesPerSecond()).isCloseTo(300, within(1e-6));
    assertThat(e.warnings())
        .map(Warning::toString).anyMatch(w -> w.contains("expected GPU utilisation") && w.contains("CPUs"));
  }

  @Test
  void a_hard_disk_starves_an_a100_training_on_imagenet_jpegs() {
    Task task = Task.pretraining(TestModels.RESNET50).microBatch(256).precision(PrecisionMode.FP16_MIXED).build();
    Estimate e = ESTIMATOR.estimate(task, A100.withDiskMBps(125), Layout.single());
    assertThat(e.performance().bottleneck()).isEqualTo(Bottleneck.DISK_INPUT);
    assertThat(e.performance().samplesPerSecond()).isCloseTo(125e6 / InputPipeline.DEFAULT_IMAGE_BYTES, within(1e-6));
    // ~2,700 images/s × 108 KB ≈ 290 MB/s: a SATA SSD keeps up, a hard disk does not
    assertThat(e.host().diskType()).isEqualTo(DiskType.SATA_SSD);
  }

  @Test
  void host_for_image_work_gets_at_least_10_cores_per_gpu_and_ram_at_least_the_gpu_memory() {
    Task task = Task.pretraining(TestModels.RESNET50).microBatch(64).precision(PrecisionMode.FP16_MIXED)
        .datasetSize(DataSize.ofGB(150)).build();
    Hardware node = Hardware.of(TestGpus.T4, 4, 1);
    Estimate e = ESTIMATOR.estimate(task, node, Layout.dataParallel(4));
    assertThat(e.host().cpuCores()).isGreaterThanOrEqualTo(40);
    assertThat(e.host().ram()).isGreaterThanOrEqualTo(DataSize.ofGiB(64));
    assertThat(e.host().disk()).isGreaterThanOrEqualTo(DataSize.ofGB(200));
    assertThat(e.host().reason()).contains("data set");
  }

  @Test
  void host_for_text_needs_a_few_cores_and_an_hdd_keeps_up_with_tokens() {
    HostSizing host = ESTIMATOR.estimate(LLAMA_TRAINING, A100, Layout.single()).host();
    assertThat(host.cpuCores()).isEqualTo(3);
    assertThat(host.diskType()).isEqualTo(DiskType.HDD);
    // the checkpoint: weights and Adam moments in FP32, 12 bytes per parameter
    assertThat(host.disk().bytes()).isGreaterThan(12 * 6_738_415_616L);
  }

  // ------------------------------------------------------------------ warnings

  @Test
  void warns_that_pytorch_leaves_tf32_off_for_fp32_on_an_a100() {
    Task fp32 = Task.pretraining(TestModels.RESNET50).precision(PrecisionMode.FP32).build();
    assertThat(ESTIMATOR.estimate(fp32, A100, Layout.single()).warnings())
        .map(Warning::toString).anyMatch(w -> w.contains("TF32") && w.contains("allow_tf32"));
  }

  @Test
  void warns_about_pcie_between_pcie_gpus() {
    Task task = Task.pretraining(TestModels.RESNET50).microBatch(64).globalBatch(256)
        .precision(PrecisionMode.FP16_MIXED).build();
    Estimate e = ESTIMATOR.estimate(task, Hardware.of(TestGpus.T4, 4, 1), Layout.dataParallel(4));
    assertThat(e.warnings()).map(Warning::toString).anyMatch(w -> w.contains("PCIe") && w.contains("without NVLink"));
  }

  @Test
  void warns_that_4090s_stage_their_collectives_through_host_memory() {
    Task task = Task.pretraining(TestModels.RESNET50).microBatch(64).globalBatch(256)
        .precision(PrecisionMode.FP16_MIXED).build();
    Estimate e = ESTIMATOR.estimate(task, Hardware.of(TestGpus.RTX_4090, 4, 1), Layout.dataParallel(4));
    assertThat(e.warnings()).anySatisfy(w -> {
      assertThat(w.code()).isEqualTo("no-peer-to-peer");
      assertThat(w.message()).contains("have no PCIe peer-to-peer").contains("through host memory at 15.8 GB/s");
    });
  }

  @Test
  void warns_about_a_sequence_longer_than_the_model_was_built_for() {
    Task longer = LLAMA_TRAINING.toBuilder().sequenceLength(8192).checkpointing(Checkpointing.FULL).build();
    assertThat(ESTIMATOR.estimate(longer, A100, Layout.single()).warnings())
        .map(Warning::toString).anyMatch(w -> w.contains("8192") && w.contains("4096 positions"));
  }

  @Test
  void warns_when_eager_host_overhead_dominates_decoding() {
    Task decode = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).generatedTokens(50).build();
    assertThat(ESTIMATOR.estimate(decode, A100, Layout.single()).warnings())
        .map(Warning::toString).anyMatch(w -> w.contains("eager PyTorch"));
  }

  @Test
  void compiled_execution_decodes_at_the_bandwidth_limit() {
    // GIVEN Llama-2-7B decoding one sequence on an A100-80GB, graph-captured (gpt-fast: 107 tokens/s)
    Task decode = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).generatedTokens(200).build();
    PerformanceEstimate eager = ESTIMATOR.estimate(decode, A100, Layout.single()).performance();
    PerformanceEstimate compiled = ESTIMATOR.withCompiledExecution().estimate(decode, A100, Layout.single())
        .performance();
    // THEN it reads 13.5 GB of weights per token at 80% of 2039 GB/s: about 120 tokens/s; eager stays near 25
    assertThat(compiled.tokensPerSecond()).isBetween(100.0, 130.0);
    assertThat(eager.tokensPerSecond()).isBetween(20.0, 30.0);
  }

  @Test
  void the_hardware_decides_how_many_nodes_a_layout_spans() {
    // GIVEN 16 data-parallel ranks (the layout says nothing of nodes) on two 8-GPU nodes with 12 cores each
    Task task = Task.pretraining(TestModels.RESNET50).microBatch(256).globalBatch(4096)
        .precision(PrecisionMode.FP16_MIXED).build();
    Hardware two = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 2).withCpuCoresPerNode(12).withInterNodeGbps(800);
    Estimate e = ESTIMATOR.estimate(task, two, Layout.dataParallel(16));
    // THEN both nodes' loader cores count: 2 × (12 − 8) × 1000 / 10 ms = 800 images/s
    assertThat(e.performance().samplesPerSecond()).isCloseTo(800, within(1e-6));
  }

  // ------------------------------------------------------------------ micro-batch search

  @Test
  void max_micro_batch_is_the_largest_that_fits() {
    Task task = Task.fullFineTuning(TestModels.BERT_LARGE).sequenceLength(512).precision(PrecisionMode.FP16_MIXED)
        .flashAttention(false).build();
    Hardware v100 = Hardware.single(TestGpus.V100_SXM2_16GB);
    int largest = ESTIMATOR.maxMicroBatch(task, v100, Layout.single());
    assertThat(largest).isPositive();
    assertThat(ESTIMATOR.memory(task.toBuilder().microBatch(largest).build(), v100, Layout.single()).fits()).isTrue();
    assertThat(ESTIMATOR.memory(task.toBuilder().microBatch(largest + 1).build(), v100, Layout.single()).fits())
        .isFalse();
  }

  @Test
  void max_micro_batch_is_0_when_the_weights_alone_do_not_fit() {
    Task huge = Task.pretraining(new Generic("huge", 20_000_000_000L, 4e10, 1000))
        .precision(PrecisionMode.FP16_MIXED).build();
    assertThat(ESTIMATOR.maxMicroBatch(huge, Hardware.single(TestGpus.T4), Layout.single())).isZero();
  }

  @Test
  void step_time_is_at_least_a_nanosecond_and_durations_are_whole() {
    Task tiny = Task.inference(new Generic("tiny", 10, 10, 0)).build();
    Duration step = ESTIMATOR.estimate(tiny, A100, Layout.single()).performance().stepTime();
    assertThat(step).isPositive();
  }
}
