package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.gpusizer.catalog.DataSize;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FixedCostsTest {
  private static final FixedCosts DEFAULTS = FixedCosts.defaults();
  /** 125 MiB/s in bytes per second. */
  private static final double RATE = 125 * 1024 * 1024;

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  @Test
  void start_up_is_provisioning_the_image_the_framework_and_the_weights_at_the_storage_rate() {
    DataSize weights = DataSize.ofGB(13.5);
    FixedCosts.Startup s = DEFAULTS.startup("aws", weights, DataSize.ofGB(80), Optional.empty());
    assertThat(s.provisioning()).isEqualTo(Duration.ofSeconds(45));
    assertThat(seconds(s.framework())).isCloseTo(15e9 / RATE + 11, within(1e-6));
    assertThat(seconds(s.weights())).isCloseTo(13.5e9 / RATE, within(1e-6));
    assertThat(s.data()).isZero();
    assertThat(s.total()).isEqualTo(s.provisioning().plus(s.framework()).plus(s.weights()));
  }

  @Test
  void a_provider_of_its_own_and_a_resumed_run_change_only_their_parts() {
    FixedCosts costs = DEFAULTS.withProvisioning("AIStudio", Duration.ofSeconds(20)).resumingFromCheckpoint();
    FixedCosts.Startup s = costs.startup("aistudio", DataSize.ofGB(1), DataSize.ofGB(3), Optional.of(DataSize.ofGB(2)));
    assertThat(s.provisioning()).isEqualTo(Duration.ofSeconds(20));
    assertThat(costs.provisioning("aws")).isEqualTo(Duration.ofSeconds(45));
    assertThat(seconds(s.weights())).isCloseTo(4e9 / RATE, within(1e-6)); // weights and the optimizer state
    assertThat(seconds(s.data())).isCloseTo(2e9 / RATE, within(1e-6));
  }

  @Test
  void checkpoints_are_written_at_youngs_interval_and_once_at_the_end() {
    DataSize state = DataSize.ofGB(100);
    double write = 100e9 / RATE / 8; // eight nodes write their shares at once
    double mtbf = 3600 / (FixedCosts.DEFAULT_FAILURES_PER_GPU_HOUR * 64);
    double interval = Math.sqrt(2 * write * mtbf);
    Duration compute = Duration.ofHours(100);
    double expected = write * (Math.floor(100 * 3600 / interval) + 1);
    assertThat(seconds(DEFAULTS.checkpoints(compute, state, 64, 8))).isCloseTo(expected, within(1e-6));
    // a fixed interval of one hour: 100 periodic and a final one
    assertThat(seconds(DEFAULTS.withCheckpointInterval(Duration.ofHours(1)).checkpoints(compute, state, 64, 8)))
        .isCloseTo(write * 101, within(1e-6));
    assertThat(DEFAULTS.checkpoints(compute, DataSize.ZERO, 64, 8)).isZero();
  }

  @Test
  void none_costs_nothing_and_bad_settings_say_what_is_allowed() {
    assertThat(FixedCosts.none().startup("aws", DataSize.ofGB(10), DataSize.ofGB(10), Optional.empty()).total())
        .isZero();
    assertThat(FixedCosts.none().checkpoints(Duration.ofHours(5), DataSize.ofGB(10), 8, 1)).isZero();
    assertThatThrownBy(() -> DEFAULTS.withStorageMBps(0)).hasMessageContaining("storage rate must be > 0 MB/s");
    assertThatThrownBy(() -> DEFAULTS.withProvisioning(Duration.ofSeconds(-1)))
        .hasMessageContaining("provisioning must be >= 0");
  }
}
