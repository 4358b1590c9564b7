package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import org.junit.jupiter.api.Test;

/** Hybrid sharding (HSDP) and interleaved pipeline stages. */
class HybridAndInterleavedLayoutTest {
  private static final Estimator ESTIMATOR = Estimator.defaults();
  private static final Task LLAMA = Task.pretraining(TestModels.LLAMA2_7B).microBatch(2).globalBatch(256)
      .sequenceLength(4096).precision(PrecisionMode.BF16_MIXED).checkpointing(Checkpointing.FULL).build();

  @Test
  void hybrid_sharding_keeps_the_memory_of_full_sharding_over_one_node() {
    // GIVEN Llama-2-7B with FSDP over one 8-GPU node, and HSDP over two such nodes sharding within each node
    Hardware one = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
    Hardware two = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 2);
    Layout fsdp8 = Layout.dataParallel(8).withZero(ZeroStage.STAGE_3);
    Layout hsdp = new Layout(16, 1, 1, ZeroStage.STAGE_3, 8).withShardGroup(8);
    Layout fsdp16 = new Layout(16, 1, 1, ZeroStage.STAGE_3, 8);
    // WHEN the memory per GPU is estimated
    long oneNode = ESTIMATOR.memory(LLAMA, one, fsdp8).perGpu().bytes();
    long hybrid = ESTIMATOR.memory(LLAMA, two, hsdp).perGpu().bytes();
    long full = ESTIMATOR.memory(LLAMA, two, fsdp16).perGpu().bytes();
    // THEN HSDP holds what an 8-way shard holds, more than a 16-way shard
    assertThat(hybrid).isEqualTo(oneNode);
    assertThat(full).isLessThan(hybrid);
  }

  @Test
  void hybrid_sharding_keeps_the_gathers_on_nvlink_so_it_beats_full_sharding_over_slow_ethernet() {
    // GIVEN two 8 x A100 nodes joined by 100 Gb/s Ethernet
    Hardware two = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 2).withInterNodeGbps(100);
    Layout fsdp16 = new Layout(16, 1, 1, ZeroStage.STAGE_3, 8);
    Layout hsdp = fsdp16.withShardGroup(8);
    // WHEN the step times are estimated
    double full = ESTIMATOR.estimate(LLAMA, two, fsdp16).performance().stepTime().toNanos();
    double hybrid = ESTIMATOR.estimate(LLAMA, two, hsdp).performance().stepTime().toNanos();
    // THEN HSDP is faster: only a shard of the gradients (1/8) crosses the network, once per step
    assertThat(hybrid).isLessThan(full);
  }

  @Test
  void a_shard_group_of_all_ranks_is_full_sharding_exactly() {
    Hardware two = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 2);
    Layout fsdp16 = new Layout(16, 1, 1, ZeroStage.STAGE_3, 8);
    assertThat(fsdp16.withShardGroup(16)).isEqualTo(fsdp16);
    assertThat(fsdp16.hybridSharded()).isFalse();
    assertThat(ESTIMATOR.estimate(LLAMA, two, fsdp16.withShardGroup(16)))
        .isEqualTo(ESTIMATOR.estimate(LLAMA, two, fsdp16));
  }

  @Test
  void shard_group_must_divide_the_data_parallel_ranks_and_is_all_ranks_without_zero() {
    assertThatThrownBy(() -> new Layout(16, 1, 1, ZeroStage.STAGE_3, 8).withShardGroup(6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shard group must divide the 16 data-parallel ranks, was 6");
    assertThat(new Layout(16, 1, 1, ZeroStage.NONE, 8, 8, 1).shardGroup()).isEqualTo(16);
    assertThat(new Layout(16, 1, 1, ZeroStage.STAGE_3, 8).withShardGroup(8).toString())
        .isEqualTo("FSDP/ZeRO-3 x16 (hybrid, shard groups of 8), 2 nodes");
  }

  @Test
  void interleaving_cuts_the_pipeline_bubble_and_keeps_more_activations_in_flight() {
    // GIVEN Llama-2-7B in 4 pipeline stages over one node, 32 micro-batches per step
    Hardware node = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
    Task task = LLAMA.toBuilder().microBatch(1).globalBatch(64).build();
    Layout plain = new Layout(2, 1, 4, ZeroStage.STAGE_1, 8);
    Layout interleaved = plain.withVirtualStages(2);
    // WHEN estimated
    Estimate p = ESTIMATOR.estimate(task, node, plain);
    Estimate i = ESTIMATOR.estimate(task, node, interleaved);
    // THEN the step is shorter (bubble (p − 1)/v micro-batch times instead of p − 1)
    assertThat(i.performance().stepTime()).isLessThan(p.performance().stepTime());
    // AND the first stage keeps 1 + (p − 1)/(p·v) = 1.375 times the activations (Korthikanti et al. 2022, §4.2.3)
    double ratio = (double) i.memory().breakdown().activations().bytes()
        / p.memory().breakdown().activations().bytes();
    assertThat(ratio).isGreaterThan(1.0).isLessThanOrEqualTo(1.375 + 1e-9);
    assertThat(MemoryModel.interleavedInFlight(new Job(task, node, interleaved))).isCloseTo(1.375, within(1e-12));
  }

  @Test
  void virtual_stages_need_pipeline_parallelism() {
    assertThatThrownBy(() -> Layout.dataParallel(8).withVirtualStages(2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("virtual pipeline stages (2) need pipeline parallelism, which is 1");
    assertThat(new Layout(2, 1, 4, ZeroStage.STAGE_1, 8).withVirtualStages(2).toString())
        .isEqualTo("ZeRO-1 x2, PP 4 (interleaved x2)");
  }
}
