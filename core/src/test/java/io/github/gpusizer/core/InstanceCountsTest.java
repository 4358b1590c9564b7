package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InstanceCountsTest {
  @Test
  void every_count_up_to_eight_gpus_then_steps_of_at_most_a_quarter() {
    int[] ladder = InstanceCounts.ladder(1, 64, 0, false);
    assertThat(ladder).startsWith(1, 2, 3, 4, 5, 6, 7, 8).endsWith(64);
    for (int k = 1; k < ladder.length; k++) {
      assertThat((double) ladder[k]).isLessThanOrEqualTo(Math.max(ladder[k - 1] + 1, ladder[k - 1] * 1.25));
    }
  }

  @Test
  void the_rungs_of_a_pipelined_ladder_split_into_two_four_or_eight_stages_in_steps_of_at_most_a_quarter() {
    for (int max : new int[] {22, 64, 2048}) {
      // GIVEN single-GPU instances (and 8-GPU ones), a model that needs pipeline stages
      for (int gpusPerInstance : new int[] {1, 8}) {
        int[] ladder = InstanceCounts.ladder(gpusPerInstance, max, 0, true);
        // THEN past the dense part every rung but the largest allowed splits into 4 stages from 16 nodes and into
        // 8 from 32, and no step is more than a quarter
        for (int k = 1; k < ladder.length; k++) {
          int rung = ladder[k];
          assertThat((double) rung).isLessThanOrEqualTo(Math.max(ladder[k - 1] + 1, ladder[k - 1] * 1.25));
          if (rung != max && rung >= 16) {
            assertThat(rung % (rung >= 32 ? InstanceCounts.PIPELINE_STAGES : 4)).as("rung %d", rung).isZero();
          }
        }
      }
    }
    assertThat(InstanceCounts.ladder(1, 22, 0, true)).contains(16, 20, 22);
  }

  @Test
  void the_ladders_cheapest_is_the_exhaustive_searchs_where_a_pipelined_count_between_rungs_costs_least() {
    // GIVEN the case QuickTheories found (GpuSizerProperties: a tighter deadline gave a cheaper best option): a 3.3B
    // decoder on single-RTX-4090 spot instances, at most 22, 15 h; 4 pipeline stages × 5 replicas on 20 nodes fit
    // without recomputation and cost 18.60 USD, 8 % under 18 or 22 nodes (ZeRO-3 with full recomputation)
    Transformer model = Transformer.builder("gen-15x65").layers(15).hidden(64 * 65).heads(65).vocab(50257)
        .maxPositions(2048).build();
    Task task = Task.pretraining(model).tokens(1e9).microBatch(16).sequenceLength(2048)
        .precision(PrecisionMode.FP16_MIXED).build();
    // (the instances joined by RDMA at 100 Gb/s, as that case timed them: over plain Ethernet's TCP sockets the
    // pipeline's traffic makes 8 nodes the cheapest, on the ladder and exhaustively alike)
    Catalog catalog = GpuSizerProperties.CATALOG.merge(Fixtures.of(Fixtures.onRdma(Fixtures.offering("test",
        "4090x1-spot-rdma", "r1", Fixtures.RTX4090, 1, "0.6", "USD", BillingMode.PER_MINUTE, Optional.of("0.2"),
        Optional.empty()))));
    Sizer ladder = GpuSizer.forTask(task).catalog(catalog).deadline(Duration.ofHours(15))
        .maxGpus(22).objective(Objective.CHEAPEST).allowSpot();
    // WHEN sized on the ladder and exhaustively
    Option best = ladder.recommend().bestOrThrow();
    Option exhaustive = ladder.exhaustive().recommend().bestOrThrow();
    // THEN the ladder's best costs within the ranking's tie of the exhaustive best (before: 8 nodes at 19.09 USD)
    assertThat(best.cost().amount())
        .isLessThanOrEqualTo(exhaustive.cost().amount().multiply(BigDecimal.valueOf(1 + TieRule.COST_TIE)));
    assertThat(best.instances()).isEqualTo(20);
  }
}
