package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link Sizer#gpus} (exactly N GPUs in all) and {@link Sizer#minGpus} (at least N): options and rejections. */
class GpuCountLimitsTest {

  private static Sizer sizer() {
    return GpuSizer.forTask(Fixtures.gpt2(1e9)).catalog(Fixtures.aws()).deadline(Duration.ofDays(30));
  }

  @Test
  void exactly_n_gpus_gives_only_options_of_n_gpus_in_all() {
    // WHEN exactly 4 GPUs are asked for
    Recommendation rec = sizer().gpus(4).recommend();
    // THEN every option and every Pareto point rents 4 GPUs (four 1-GPU instances)
    assertThat(rec.options()).isNotEmpty().allSatisfy(o -> assertThat(o.gpus()).isEqualTo(4));
    assertThat(rec.paretoFront()).allSatisfy(o -> assertThat(o.gpus()).isEqualTo(4));
  }

  @Test
  void an_offering_whose_instances_cannot_make_exactly_n_gpus_is_rejected_saying_why() {
    // WHEN exactly 12 GPUs are asked for of a catalog whose instances have 1 or 8 GPUs
    Recommendation rec = sizer().gpus(12).recommend();
    // THEN the 8-GPU instances are rejected as too large, with the reason
    assertThat(rec.rejected()).filteredOn(r -> r.offering().equals(Fixtures.P5)).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(Rejection.Kind.TOO_LARGE);
      assertThat(r.reason()).isEqualTo("has 8 GPUs per instance: no number of instances makes exactly 12 GPUs");
    });
    // AND the 1-GPU instances make 12
    assertThat(rec.options()).isNotEmpty().allSatisfy(o -> assertThat(o.gpus()).isEqualTo(12));
  }

  @Test
  void at_least_n_gpus_gives_only_options_of_n_gpus_or_more() {
    // WHEN at least 16 GPUs are asked for
    Recommendation rec = sizer().minGpus(16).recommend();
    // THEN no option or Pareto point rents fewer, and an 8-GPU instance is taken twice or more
    assertThat(rec.options()).isNotEmpty().allSatisfy(o -> assertThat(o.gpus()).isGreaterThanOrEqualTo(16));
    assertThat(rec.paretoFront()).allSatisfy(o -> assertThat(o.gpus()).isGreaterThanOrEqualTo(16));
    assertThat(rec.options()).filteredOn(o -> o.offering().equals(Fixtures.P5))
        .allSatisfy(o -> assertThat(o.instances()).isGreaterThanOrEqualTo(2));
  }

  @Test
  void the_fewest_instances_that_make_n_gpus_are_tried_off_the_ladder() {
    // GIVEN at least 104 GPUs: 13 instances of 8, a count the ladder (10, 12, 15) skips
    Recommendation rec = sizer().minGpus(104).maxGpus(104).recommend();
    // THEN the 8-GPU instances are tried at 13
    assertThat(rec.options()).filteredOn(o -> o.offering().gpuCount() == 8).isNotEmpty()
        .allSatisfy(o -> assertThat(o.instances()).isEqualTo(13));
  }

  @Test
  void at_least_n_gpus_beyond_the_node_limit_is_rejected_saying_why() {
    // WHEN at least 32 GPUs are asked for on at most 2 nodes
    Recommendation rec = sizer().minGpus(32).maxNodes(2).recommend();
    // THEN every offering is rejected: 8-GPU instances need 4 nodes, 1-GPU ones 32
    assertThat(rec.isFeasible()).isFalse();
    assertThat(rec.rejected()).filteredOn(r -> r.offering().equals(Fixtures.P5)).singleElement()
        .satisfies(r -> assertThat(r.reason())
            .isEqualTo("at least 32 GPUs need 4 instances of 8, more than the limit of 2 nodes"));
  }

  @Test
  void gpus_and_min_gpus_follow_the_builder_contract() {
    // validated at once
    assertThatThrownBy(() -> sizer().gpus(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gpus must be >= 1, was 0");
    assertThatThrownBy(() -> sizer().minGpus(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("minGpus must be >= 1, was -1");
    assertThatThrownBy(() -> sizer().gpus(GpuSizer.MAX_CLUSTER_GPUS + 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gpus must be <= ");
    // set once, the earlier value named
    assertThatThrownBy(() -> sizer().gpus(8).gpus(16)).isInstanceOf(IllegalStateException.class)
        .hasMessage("gpus was already set to 8");
    assertThatThrownBy(() -> sizer().minGpus(8).minGpus(16)).isInstanceOf(IllegalStateException.class)
        .hasMessage("minGpus was already set to 8");
  }

  @Test
  void contradicting_gpu_counts_are_refused_by_recommend() {
    assertThatThrownBy(() -> sizer().gpus(8).maxGpus(16).recommend()).isInstanceOf(IllegalStateException.class)
        .hasMessage("gpus (8) fixes the number of GPUs; it cannot be given with maxGpus (16)");
    assertThatThrownBy(() -> sizer().gpus(8).minGpus(4).recommend()).isInstanceOf(IllegalStateException.class)
        .hasMessage("gpus (8) fixes the number of GPUs; it cannot be given with minGpus (4)");
    assertThatThrownBy(() -> sizer().minGpus(16).maxGpus(8).recommend()).isInstanceOf(IllegalStateException.class)
        .hasMessage("minGpus (16) must be <= maxGpus (8)");
    assertThatThrownBy(() -> sizer().minGpus(128).recommend()).isInstanceOf(IllegalStateException.class)
        .hasMessage("minGpus (128) must be <= maxGpus (64), whose default is 64");
  }
}
