package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.AttentionKernel;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import org.junit.jupiter.api.Test;

/** Context parallelism: each sequence split over {@code cp} GPUs, ring attention between them. */
class ContextParallelTest {
  private static final Estimator ESTIMATOR = Estimator.defaults();
  /** Llama-3.1-8B at 32k tokens, BF16, FlashAttention, full recomputation: a long-context job. */
  private static final Task LONG = Task.pretraining(TestModels.LLAMA3_8B).microBatch(1).globalBatch(64)
      .sequenceLength(32768).precision(PrecisionMode.BF16_MIXED).checkpointing(Checkpointing.FULL).build();
  private static final Hardware NODE = Hardware.of(TestGpus.H100_SXM, 8, 1);

  @Test
  void the_degree_multiplies_the_gpus_and_the_gradient_ranks_and_shows_in_the_description() {
    Layout layout = new Layout(2, 4, 1, ZeroStage.STAGE_1, 8).withContextParallel(4);
    assertThat(layout.gpus()).isEqualTo(2 * 4 * 4);
    assertThat(layout.gradientRanks()).isEqualTo(2 * 4);
    assertThat(layout.nodes()).isEqualTo(4);
    assertThat(layout.toString()).contains("CP 4");
    assertThat(layout.withZero(ZeroStage.STAGE_3).contextParallel()).isEqualTo(4);
    assertThat(layout.withShardGroup(1).contextParallel()).isEqualTo(4);
  }

  @Test
  void a_degree_of_one_is_the_layout_without_context_parallelism_exactly() {
    Layout plain = new Layout(8, 1, 1, ZeroStage.STAGE_3, 8);
    assertThat(plain.contextParallel()).isEqualTo(1);
    assertThat(plain.withContextParallel(1)).isEqualTo(plain);
    assertThat(new Layout(8, 1, 1, ZeroStage.STAGE_3, 8, 8, 1, 1)).isEqualTo(plain);
    assertThat(ESTIMATOR.estimate(LONG, NODE, plain.withContextParallel(1)))
        .isEqualTo(ESTIMATOR.estimate(LONG, NODE, plain));
    assertThat(plain.toString()).doesNotContain("CP");
  }

  @Test
  void rejects_a_degree_below_one() {
    assertThatThrownBy(() -> Layout.single().withContextParallel(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("context-parallel degree must be >= 1, was 0");
  }

  @Test
  void splitting_a_sequence_over_two_gpus_halves_the_activations_and_keeps_the_weights() {
    // GIVEN the long job on one GPU, and on two GPUs splitting each sequence
    Hardware two = Hardware.of(TestGpus.H100_SXM, 2, 1);
    Job one = new Job(LONG, Hardware.single(TestGpus.H100_SXM), Layout.single());
    Job split = new Job(LONG, two, new Layout(1, 1, 1, ZeroStage.NONE, 2).withContextParallel(2));
    // WHEN the training memory is counted
    double activations = MemoryModel.trainingActivations(one);
    double halved = MemoryModel.trainingActivations(split);
    // THEN every saved tensor (FlashAttention keeps no score matrix) and the loss buffer scale with the GPU's tokens:
    // exactly half; the weights are replicated, not split
    assertThat(halved).isCloseTo(activations / 2, within(1e-6 * activations));
    assertThat(split.microTokens()).isEqualTo(one.microTokens() / 2);
    assertThat(MemoryModel.breakdown(split).weights()).isEqualTo(MemoryModel.breakdown(one).weights());
  }

  @Test
  void zero_shards_the_optimizer_state_over_data_times_context_parallel_ranks() {
    // GIVEN ZeRO-1 over 8 GPUs of one node: 8 data-parallel ranks, or 1 rank with context parallelism of 8
    Layout dp8 = new Layout(8, 1, 1, ZeroStage.STAGE_1, 8);
    Layout cp8 = new Layout(1, 1, 1, ZeroStage.STAGE_1, 8).withContextParallel(8);
    // WHEN the memory is estimated
    MemoryBreakdown data = ESTIMATOR.memory(LONG, NODE, dp8).breakdown();
    MemoryBreakdown context = ESTIMATOR.memory(LONG, NODE, cp8).breakdown();
    // THEN the optimizer state is sharded 8 ways in both (Megatron-LM's distributed optimizer over dp x cp)
    assertThat(context.optimizer()).isEqualTo(data.optimizer());
    assertThat(context.activations().bytes()).isLessThan(data.activations().bytes() / 7);
  }

  @Test
  void the_step_does_the_same_work_in_all_but_attention_spread_over_the_ring() {
    // GIVEN the long job data-parallel over 8 GPUs, and one sequence at a time split 8 ways
    Layout dp8 = new Layout(8, 1, 1, ZeroStage.STAGE_1, 8);
    Layout cp8 = new Layout(1, 1, 1, ZeroStage.STAGE_1, 8).withContextParallel(8);
    // WHEN both are estimated
    PerformanceEstimate data = ESTIMATOR.estimate(LONG, NODE, dp8).performance();
    PerformanceEstimate context = ESTIMATOR.estimate(LONG, NODE, cp8).performance();
    // THEN the model FLOPs per step are the same, and so is the hardware's arithmetic over all GPUs: ring attention
    // splits the queries, not the work
    assertThat(context.flopsPerStep()).isEqualTo(data.flopsPerStep());
    assertThat(context.hardwareTflopsPerGpu() * context.stepTime().toNanos())
        .isCloseTo(data.hardwareTflopsPerGpu() * data.stepTime().toNanos(), within(1e-6 * data.hardwareTflopsPerGpu()
            * data.stepTime().toNanos()));
  }

  @Test
  void ring_attention_hides_behind_attention_on_nvlink_at_long_sequences() {
    // GIVEN 32k tokens split over the 8 GPUs of an NVLink node
    Job job = new Job(LONG, NODE, new Layout(1, 1, 1, ZeroStage.STAGE_1, 8).withContextParallel(8));
    // WHEN the exposed ring traffic of a layer is computed
    double exposed = CommunicationModel.contextParallelLayerSeconds(job, TestModels.LLAMA3_8B);
    // THEN it is all hidden: a 4k-token block's K and V (2 x 4096 x 1024 x 2 B = 16 MiB) cross NVLink in ~0.1 ms,
    // while attending 4k queries to 32k keys takes longer
    assertThat(ComputeModel.flashAttentionSecondsPerLayer(job, TestModels.LLAMA3_8B) / 8)
        .isGreaterThan(2 * 16.0 * (1 << 20) / (CommunicationModel.contextParallelBandwidth(job)));
    assertThat(exposed).isZero();
  }

  @Test
  void ring_attention_shows_when_short_blocks_cross_a_slow_network() {
    // GIVEN 8k tokens split over 8 nodes of one GPU each, joined by 100 Gb/s Ethernet
    Task shorter = LONG.toBuilder().sequenceLength(8192).build();
    Hardware nodes = Hardware.of(TestGpus.H100_SXM, 1, 8).withInterNodeGbps(100);
    Job job = new Job(shorter, nodes, new Layout(1, 1, 1, ZeroStage.STAGE_1, 1).withContextParallel(8));
    // WHEN the exposed ring traffic of a layer is computed
    double exposed = CommunicationModel.contextParallelLayerSeconds(job, TestModels.LLAMA3_8B);
    // THEN each of the 7 hops outlasts its block's attention, forward and backward: (hop - attention) summed
    double block = 2 * 1024.0 * 1024 * 2; // K and V of 1024 tokens, 1024 wide (8 KV heads of 128), BF16
    double bandwidth = CommunicationModel.contextParallelBandwidth(job);
    double attention = ComputeModel.flashAttentionSecondsPerLayer(job, TestModels.LLAMA3_8B) / 8;
    double forward = block / bandwidth + Links.COLLECTIVE_LATENCY_SECONDS - attention;
    double backward = 2 * block / bandwidth + Links.COLLECTIVE_LATENCY_SECONDS - 2.5 * attention;
    assertThat(forward).isPositive();
    assertThat(backward).isPositive();
    assertThat(exposed).isCloseTo(7 * (forward + backward), within(1e-15));
    assertThat(bandwidth).isCloseTo(100e9 / 8 * Efficiency.LINK, within(1.0));
  }

  @Test
  void rejects_a_degree_that_does_not_divide_the_sequence() {
    Layout cp3 = new Layout(1, 1, 1, ZeroStage.NONE, 3).withContextParallel(3);
    assertThatThrownBy(() -> ESTIMATOR.estimate(LONG, Hardware.of(TestGpus.H100_SXM, 3, 1), cp3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("context parallelism (3) must divide the sequence length 32768");
  }

  @Test
  void rejects_attention_that_keeps_its_scores() {
    Task eager = LONG.toBuilder().attention(AttentionKernel.EAGER).build();
    Layout cp2 = new Layout(1, 1, 1, ZeroStage.NONE, 2).withContextParallel(2);
    assertThatThrownBy(() -> ESTIMATOR.estimate(eager, Hardware.of(TestGpus.H100_SXM, 2, 1), cp2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("context parallelism (2) needs blockwise attention (FlashAttention)");
  }

  @Test
  void rejects_inference_and_models_without_sequences() {
    Layout cp2 = new Layout(1, 1, 1, ZeroStage.NONE, 2).withContextParallel(2);
    Hardware two = Hardware.of(TestGpus.H100_SXM, 2, 1);
    Task serve = Task.inference(TestModels.LLAMA3_8B).sequenceLength(4096).generatedTokens(16).build();
    assertThatThrownBy(() -> ESTIMATOR.estimate(serve, two, cp2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("context parallelism (2) splits training sequences; inference with it is not modelled");
    Task cnn = Task.pretraining(Presets.get("resnet50")).microBatch(32).samples(1e6).build();
    assertThatThrownBy(() -> ESTIMATOR.estimate(cnn, two, cp2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("context parallelism (2) splits a transformer's sequence");
  }
  @Test
  void the_memory_key_tells_context_parallel_degrees_apart_and_equal_keys_give_equal_memory() {
    // GIVEN DDP of the long job with each sequence split over 2 GPUs, on 2 GPUs and on 8 (4 data-parallel ranks)
    Task open = LONG.toBuilder().globalBatch(0).build();
    Hardware two = Hardware.of(TestGpus.H100_SXM, 2, 1);
    Layout cp2 = new Layout(1, 1, 1, ZeroStage.NONE, 2).withContextParallel(2);
    Layout cp2dp4 = new Layout(4, 1, 1, ZeroStage.NONE, 8).withContextParallel(2);
    Layout dp2 = new Layout(2, 1, 1, ZeroStage.NONE, 2);
    // WHEN their memory keys and estimates are compared
    MemoryModel.LayoutKey a = MemoryModel.LayoutKey.of(open, two, cp2);
    MemoryModel.LayoutKey b = MemoryModel.LayoutKey.of(open, NODE, cp2dp4);
    // THEN the degree is part of the key, and equal keys hold equal memory, as the sizer's memo relies on
    assertThat(a).isEqualTo(b);
    assertThat(a).isNotEqualTo(MemoryModel.LayoutKey.of(open, two, dp2));
    assertThat(ESTIMATOR.memory(open, two, cp2)).isEqualTo(ESTIMATOR.memory(open, NODE, cp2dp4));
  }
}
