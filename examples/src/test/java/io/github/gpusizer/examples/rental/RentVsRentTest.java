package io.github.gpusizer.examples.rental;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.core.cost.RentalComparison;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RentVsRentTest {
  @Test
  void seed_example_costs_the_same_not_40_against_20() {
    // GIVEN seed 001: A100 at 2 CNY/h, twice as fast as a V100 at 1 CNY/h that needs 20 h
    RentalComparison c = RentVsRent.seedExample();
    // THEN both cost 20 CNY (2 x 20 / 2 and 1 x 20), and the A100 finishes in 10 h
    assertThat(c.rows()).allSatisfy(r -> assertThat(r.cost().amount().isEqualTo(Money.of("20", "CNY"))).isTrue());
    RentalComparison.Row a100 = c.rows().stream().filter(r -> r.option().label().startsWith("A100")).findFirst()
        .orElseThrow();
    assertThat(a100.option().wall()).isEqualTo(Duration.ofHours(10));
    assertThat(c.fastest()).isEqualTo(a100);
    assertThat(c.verdict()).contains("cost the same");
  }

  @Test
  void estimator_hours_decide_between_aistudio_a100_and_4090() {
    Task task = Task.lora(Presets.get("llama-2-7b"), 8).sequenceLength(1024).tokens(50e6).build();
    RentalComparison c = RentVsRent.compare(task, Catalog.bundled(), "aistudio", "NVIDIA-A100-40GB-x1",
        "NVIDIA-4090-24GB-x1");
    assertThat(c.rows()).hasSize(2);
    for (RentalComparison.Row r : c.rows()) {
      // cost = hourly price x billed hours (AIStudio rows bill per hour, rounded up)
      long billedHours = r.billed().toHours();
      assertThat(r.billed()).isEqualTo(Duration.ofHours(billedHours));
      assertThat(r.cost().amount().isEqualTo(r.option().offering().onDemandPerHour().times(billedHours))).isTrue();
      assertThat(r.option().wall()).isLessThanOrEqualTo(r.billed());
    }
    // the A100 is faster: a short high-end rental against a long mid-range one
    assertThat(c.fastest().option().offering().gpu().id()).isEqualTo("a100-sxm4-40gb");
  }
}
