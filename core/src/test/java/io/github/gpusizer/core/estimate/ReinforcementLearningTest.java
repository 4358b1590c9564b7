package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.core.model.ConvNet;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import org.junit.jupiter.api.Test;

/** PPO on Atari: a tiny network whose pace the CPU-stepped environments set. */
class ReinforcementLearningTest {
  /**
   * One agent step of Python subprocess vector environments, about 3 ms of a core (EnvPool's ~1 ms per step, 1 M
   * frames/s on 256 cores at frame skip 4, and its README's ~3x over subprocess environments on 12 cores), spread
   * over PPO's 4 update epochs (CleanRL's default), which train on every step 4 times.
   */
  private static final double PYTHON_ENV_MS_PER_TRAINED_SAMPLE = 3.0 / 4;

  private static Task ppo() {
    return Task.pretraining(Presets.get("ppo-atari-nature-cnn")).microBatch(256).samples(40_000_000)
        .precision(PrecisionMode.FP32).cpuMsPerSample(PYTHON_ENV_MS_PER_TRAINED_SAMPLE).build();
  }

  @Test
  void ppo_network_is_cleanrls_agent_with_breakouts_four_actions() {
    ConvNet agent = (ConvNet) Presets.get("ppo-atari-nature-cnn");
    // 8,224 + 32,832 + 36,928 (convolutions) + 1,606,144 (3136 -> 512) + 2,052 (actor) + 513 (critic)
    assertThat(agent.parameters()).isEqualTo(1_686_693L);
    assertThat(agent.referenceResolution()).isEqualTo(84);
  }

  @Test
  void cpu_stepped_environments_not_the_gpu_set_the_pace_until_the_host_has_cores_enough() {
    // GIVEN PPO on one A100 with a 4-core host and with a 64-core host
    Hardware few = Hardware.single(TestGpus.A100_SXM4_80GB).withCpuCoresPerNode(4);
    Hardware many = Hardware.single(TestGpus.A100_SXM4_80GB).withCpuCoresPerNode(64);
    // WHEN estimated
    PerformanceEstimate small = Estimator.defaults().estimate(ppo(), few, Layout.single()).performance();
    PerformanceEstimate large = Estimator.defaults().estimate(ppo(), many, Layout.single()).performance();
    // THEN the 4-core host starves the GPU (the environments are the bottleneck) and more cores train faster
    assertThat(small.bottleneck()).isEqualTo(Bottleneck.CPU_INPUT);
    assertThat(large.samplesPerSecond()).isGreaterThan(2 * small.samplesPerSecond());
  }
}
