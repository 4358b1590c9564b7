package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two promises the sizer builds on to spare memory estimates across instance counts: equal
 * {@link Estimator#memoryKey keys} mean equal estimates, and under ZeRO memory per GPU never rises with the
 * data-parallel ranks from 2 up while the job stays within one node or spans several.
 */
class MemoryKeyTest {
  private static final Estimator ESTIMATOR = Estimator.defaults();
  static final List<String> MODELS = List.of("gpt2", "bert-base", "llama-2-7b", "mistral-7b", "resnet50");
  private static final List<Gpu> GPUS = List.of(TestGpus.A100_SXM4_80GB, TestGpus.A10, TestGpus.H100_SXM);
  private static final int[] PER_NODE = {1, 2, 4, 8};

  /** A training task of a preset: pre-training, full fine-tuning, LoRA or QLoRA; open or given global batch. */
  static Task task(int model, int kind, int microBatch, int checkpointing, int globalBatch) {
    var spec = Presets.get(MODELS.get(model));
    boolean transformer = !MODELS.get(model).equals("resnet50");
    Task.Builder b = switch (transformer ? kind : kind % 2) {
      case 0 -> Task.pretraining(spec);
      case 1 -> Task.fullFineTuning(spec);
      case 2 -> Task.lora(spec, 8);
      default -> Task.qlora(spec, 16);
    };
    if (transformer) {
      b.tokens(1e8).sequenceLength(512);
    } else {
      b.samples(1e5);
    }
    return b.microBatch(microBatch).globalBatch(globalBatch)
        .checkpointing(Checkpointing.values()[checkpointing]).build();
  }

  /** {@code dp} GPUs: within one node if at most {@code perNode}, else whole nodes of {@code perNode} (or null). */
  private static Hardware hardware(Gpu gpu, int perNode, int dp) {
    if (dp <= perNode) {
      return Hardware.of(gpu, dp, 1);
    }
    return dp % perNode == 0 ? Hardware.of(gpu, perNode, dp / perNode) : null;
  }

  private static Layout layout(int dp, ZeroStage zero, Hardware hw) {
    return new Layout(dp, 1, 1, zero, hw.gpusPerNode());
  }

  private static Layout hybrid(Layout l, boolean halves) {
    return halves && l.zero() != ZeroStage.NONE && l.dataParallel() % 2 == 0
        ? l.withShardGroup(l.dataParallel() / 2) : l;
  }

  @Test
  void equal_keys_give_equal_memory_estimates() {
    qt().withExamples(400).forAll(integers().between(0, MODELS.size() - 1), integers().between(0, 3),
            integers().between(0, 3), integers().between(0, 64 * 64 - 1))
        .checkAssert((model, kind, zero, ranks) -> {
          int dp1 = 1 + ranks / 64;
          int dp2 = 1 + ranks % 64;
          Task task = task(model, kind, 1 + dp1 % 4, dp2 % 3, dp1 % 2 == 0 ? 0 : 4096);
          Gpu gpu = GPUS.get((dp1 + dp2) % GPUS.size());
          ZeroStage stage = ZeroStage.values()[zero];
          Hardware h1 = hardware(gpu, PER_NODE[dp2 % 4], dp1);
          Hardware h2 = hardware(gpu, PER_NODE[dp1 % 4], dp2);
          if (h1 == null || h2 == null) {
            return; // not whole nodes
          }
          // some of them hybrid (HSDP): ZeRO shards within half the ranks, replicated across the two halves
          Layout l1 = hybrid(layout(dp1, stage, h1), ranks % 3 == 0);
          Layout l2 = hybrid(layout(dp2, stage, h2), ranks % 5 == 0);
          if (ESTIMATOR.memoryKey(task, h1, l1).equals(ESTIMATOR.memoryKey(task, h2, l2))) {
            assertThat(ESTIMATOR.memory(task, h2, l2)).isEqualTo(ESTIMATOR.memory(task, h1, l1));
          }
        });
  }

  @Test
  void plain_data_parallelism_shares_one_key_from_two_ranks_up_within_nodes_and_across() {
    Task task = task(2, 1, 2, 0, 0);
    Hardware eightOnOne = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
    Hardware twoOnOne = Hardware.of(TestGpus.A100_SXM4_80GB, 2, 1);
    Hardware eightOnEight = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 8);
    Object one = ESTIMATOR.memoryKey(task, Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single());
    Object two = ESTIMATOR.memoryKey(task, twoOnOne, layout(2, ZeroStage.NONE, twoOnOne));
    Object eight = ESTIMATOR.memoryKey(task, eightOnOne, layout(8, ZeroStage.NONE, eightOnOne));
    Object sixtyFour = ESTIMATOR.memoryKey(task, eightOnEight, layout(64, ZeroStage.NONE, eightOnEight));
    assertThat(eight).isEqualTo(two).isNotEqualTo(one); // DDP's gradient bucket from two ranks up
    assertThat(sixtyFour).isNotEqualTo(eight); // several nodes: another error band
    assertThat(ESTIMATOR.memoryKey(task, eightOnOne, layout(8, ZeroStage.STAGE_1, eightOnOne)))
        .isNotEqualTo(ESTIMATOR.memoryKey(task, twoOnOne, layout(2, ZeroStage.STAGE_1, twoOnOne)));
  }

  @Test
  void a_hybrid_layout_is_keyed_by_its_shard_group_not_its_ranks() {
    // GIVEN FSDP over 16 ranks, HSDP over 32 ranks sharding within groups of 16, and HSDP over 16 in groups of 8
    Task task = task(2, 1, 2, 0, 0);
    Hardware two = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 2);
    Hardware four = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 4);
    Layout fsdp16 = layout(16, ZeroStage.STAGE_3, two);
    Layout hsdp32 = layout(32, ZeroStage.STAGE_3, four).withShardGroup(16);
    Layout hsdp16 = fsdp16.withShardGroup(8);

    // THEN one shard group of 16 holds the same state per GPU; a group of 8 holds twice the shards' share
    assertThat(ESTIMATOR.memoryKey(task, four, hsdp32)).isEqualTo(ESTIMATOR.memoryKey(task, two, fsdp16));
    assertThat(ESTIMATOR.memory(task, four, hsdp32)).isEqualTo(ESTIMATOR.memory(task, two, fsdp16));
    assertThat(ESTIMATOR.memoryKey(task, two, hsdp16)).isNotEqualTo(ESTIMATOR.memoryKey(task, two, fsdp16));
    assertThat(ESTIMATOR.memory(task, two, hsdp16).perGpu()).isGreaterThan(
        ESTIMATOR.memory(task, two, fsdp16).perGpu());
  }

  @Test
  void sharded_memory_never_rises_with_the_ranks_from_two_up_on_as_many_nodes_or_within_one() {
    qt().withExamples(400).forAll(integers().between(0, MODELS.size() - 1), integers().between(0, 3),
            integers().between(1, 3), integers().between(0, 4 * 62 - 1))
        .checkAssert((model, kind, zero, shape) -> {
          int dp = 2 + shape / 4;
          int perNode = shape % 4;
          Task task = task(model, kind, 1 + dp % 4, dp % 3, dp % 2 == 0 ? 0 : 8192);
          Gpu gpu = GPUS.get(dp % GPUS.size());
          ZeroStage stage = ZeroStage.values()[zero];
          int n = PER_NODE[perNode];
          int more = dp < n ? dp + 1 : dp + n; // a rank more within the node, or a node more
          Hardware fewer = hardware(gpu, n, dp);
          Hardware larger = hardware(gpu, n, more);
          if (fewer == null || larger == null || (fewer.nodes() > 1) != (larger.nodes() > 1)) {
            return; // not whole nodes, or from one node to several (another error band)
          }
          MemoryEstimate atFewer = ESTIMATOR.memory(task, fewer, layout(dp, stage, fewer));
          MemoryEstimate atMore = ESTIMATOR.memory(task, larger, layout(more, stage, larger));
          assertThat(atMore.perGpu()).isLessThanOrEqualTo(atFewer.perGpu());
          assertThat(atMore.perGpuInterval().high()).isLessThanOrEqualTo(atFewer.perGpuInterval().high());
          assertThat(atMore.fits() || !atFewer.fits()).as("fits at %s ranks but not at %s", dp, more).isTrue();
        });
  }

  @Test
  void a_peak_the_allocator_cache_fills_to_the_capacity_fits_at_every_rank_count_from_the_first_that_fits() {
    // GIVEN a 27-layer, 4,928-wide decoder under ZeRO-3 and full recomputation on single-T4 nodes, whose peak
    // reaches the T4's 16 GB from 14 ranks up: the allocator's cache takes what room is left (found by a property
    // of the sizer: 17 ranks "did not fit" by a byte of rounding between fits at 16 and 18)
    var model = io.github.gpusizer.core.model.Transformer.builder("gen-27x77").layers(27).hidden(4928).heads(77)
        .vocab(50257).maxPositions(2048).build();
    Task task = Task.pretraining(model).tokens(1e6).microBatch(4).sequenceLength(1024)
        .precision(io.github.gpusizer.core.task.PrecisionMode.FP16_MIXED).checkpointing(Checkpointing.FULL).build();
    // THEN every count from 14 ranks up fits, at exactly the capacity until the allocation shrinks below it
    for (int dp = 14; dp <= 24; dp++) {
      Hardware hw = Hardware.of(TestGpus.T4, 1, dp);
      MemoryEstimate m = ESTIMATOR.memory(task, hw, layout(dp, ZeroStage.STAGE_3, hw));
      assertThat(m.fits()).as("%s ranks", dp).isTrue();
      assertThat(m.perGpu()).isLessThanOrEqualTo(m.capacity());
    }
  }
}
