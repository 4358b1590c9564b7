package io.github.gpusizer.core.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.model.Presets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServingProperties {
  /** Few examples: each runs a whole search. */
  private static final int EXAMPLES = 12;
  /** One offering per GPU class keeps each search short: L4, L40S, A100-80GB and H100 nodes. */
  private static final Catalog SMALL = Catalog.bundled().withOfferings(Catalog.bundled().offerings().stream()
      .filter(o -> o.key().equals("aws/g6.xlarge/us-east-1") || o.key().equals("aws/g6e.12xlarge/us-east-1")
          || o.key().equals("lambda/gpu_8x_a100_80gb_sxm4/us-east-1")
          || o.key().equals("lambda/gpu_8x_h100_sxm5/us-east-1"))
      .toList());

  private static ServingTask task(double rps, int prompt, int output, Optional<Duration> tpot) {
    ServingTask.Builder b = ServingTask.builder(Presets.get("llama-2-13b")).requestsPerSecond(rps)
        .promptTokens(prompt).outputTokens(output);
    tpot.ifPresent(b::tpot);
    return b.build();
  }

  private static Optional<ServingPlan> best(ServingTask task) {
    return ServingSizer.forTask(task).catalog(SMALL).recommend().best();
  }

  @Test
  void more_traffic_never_costs_less() {
    qt().withExamples(EXAMPLES).forAll(doubles().between(0.1, 20), integers().between(50, 1500),
        integers().between(20, 500)).checkAssert((rps, prompt, output) -> {
          Optional<ServingPlan> low = best(task(rps, prompt, output, Optional.empty()));
          Optional<ServingPlan> high = best(task(rps * 2, prompt, output, Optional.empty()));
          high.ifPresent(h -> assertThat(low).hasValueSatisfying(
              l -> assertThat(l.costPerHour()).isLessThanOrEqualTo(h.costPerHour())));
        });
  }

  @Test
  void a_tighter_target_never_gives_a_cheaper_plan() {
    qt().withExamples(EXAMPLES).forAll(doubles().between(0.1, 20), integers().between(20, 200))
        .checkAssert((rps, tpotMs) -> {
          Optional<ServingPlan> loose = best(task(rps, 500, 200, Optional.of(Duration.ofMillis(2L * tpotMs))));
          Optional<ServingPlan> tight = best(task(rps, 500, 200, Optional.of(Duration.ofMillis(tpotMs))));
          tight.ifPresent(t -> assertThat(loose).hasValueSatisfying(
              l -> assertThat(l.costPerHour()).isLessThanOrEqualTo(t.costPerHour())));
        });
  }

  @Test
  void more_traffic_never_needs_fewer_replicas_of_one_configuration() {
    var h100 = Catalog.bundled().gpu("h100-sxm");
    qt().withExamples(EXAMPLES * 4).forAll(doubles().between(0.01, 30), integers().between(1, 8))
        .checkAssert((rps, tpLog) -> {
          int tp = 1 << (tpLog % 4);
          ReplicaModel replica = ReplicaModel.of(task(rps, 800, 200, Optional.empty()), h100, tp,
              Estimator.defaults()).get();
          var light = replica.at(rps);
          var heavy = replica.at(rps * 1.5);
          if (heavy.ok()) {
            assertThat(light.ok()).isTrue();
            assertThat(heavy.get().latency().tpotP95Seconds())
                .isGreaterThanOrEqualTo(light.get().latency().tpotP95Seconds());
            assertThat(heavy.get().latency().ttftP95Seconds())
                .isGreaterThanOrEqualTo(light.get().latency().ttftP95Seconds());
          }
        });
  }

  @Test
  void percentiles_never_fall_below_medians() {
    var a100 = Catalog.bundled().gpu("a100-sxm4-80gb");
    qt().withExamples(EXAMPLES * 4).forAll(doubles().between(0.01, 10), integers().between(10, 2000))
        .checkAssert((rps, prompt) -> {
          ReplicaModel replica = ReplicaModel.of(task(rps, prompt, 100, Optional.empty()), a100, 1,
              Estimator.defaults()).get();
          replica.at(rps).value().ifPresent(load -> {
            assertThat(load.latency().ttftP95Seconds()).isGreaterThanOrEqualTo(load.latency().ttftP50Seconds());
            assertThat(load.latency().tpotP95Seconds()).isGreaterThanOrEqualTo(load.latency().tpotP50Seconds());
            assertThat(load.batchP95()).isGreaterThanOrEqualTo(load.batch());
          });
        });
  }
}
