package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Across nodes on a slow network the layout search proposes hybrid sharding (FSDP's HYBRID_SHARD: ZeRO within each
 * node, replicas across), which keeps every micro-batch's weight gathers on the node's NVLink; full sharding sends
 * them over the network.
 */
class HybridShardingTest {
  /**
   * Eight A100-80GB per instance, joined by one 100 Gb/s RDMA port (RoCE): a cluster fabric, but an eighth of the
   * DGX A100's. (Over 100 Gb/s of plain Ethernet, whose TCP sockets reach half of it, a Llama-3-8B fine-tune gains
   * next to nothing from a second node, and FASTEST keeps one.)
   */
  private static final Offering SLOW_FABRIC_A100 = Fixtures.onRdma(Fixtures.offering("test", "a100x8-roce100",
      "region", Fixtures.A100_80, 8, "16.00", "USD", BillingMode.PER_SECOND, Optional.empty(), Optional.empty()));

  /** Llama-3-8B full fine-tuning: its 16 GB of BF16 weights are gathered twice per micro-batch under ZeRO-3. */
  private static final Task LLAMA3_8B = Task.fullFineTuning(Presets.get("llama-3-8b")).tokens(2e8)
      .microBatch(1).sequenceLength(4096).globalBatch(64).build();

  @Test
  void fourNodesOnASlowFabricShardWithinEachNode() {
    Recommendation rec = GpuSizer.forTask(LLAMA3_8B).catalog(Fixtures.of(SLOW_FABRIC_A100)).maxGpus(32)
        .objective(Objective.FASTEST).recommend();

    Option best = rec.best().orElseThrow();
    assertThat(best.gpus()).isEqualTo(32);
    assertThat(best.layout().zero()).isNotEqualTo(ZeroStage.NONE);
    assertThat(best.layout().hybridSharded()).isTrue();
    assertThat(best.layout().shardGroup()).isEqualTo(8);
    assertThat(best.toString()).contains("hybrid-sharded in groups of 8");
  }

  @Test
  void theEstimatorAgreesThatHybridIsFasterThere() {
    Task task = LLAMA3_8B.toBuilder().checkpointing(Checkpointing.FULL).build();
    Hardware hw = Hardware.of(Fixtures.A100_80, 8, 4).withInterNodeGbps(100);
    Layout full = new Layout(32, 1, 1, ZeroStage.STAGE_3, 8);
    Estimator estimator = Estimator.defaults();

    double fullSeconds = estimator.performance(task, hw, full).totalTime().orElseThrow().toNanos() / 1e9;
    double hybridSeconds = estimator.performance(task, hw, full.withShardGroup(8)).totalTime().orElseThrow()
        .toNanos() / 1e9;

    assertThat(hybridSeconds).isLessThan(fullSeconds);
  }
}
