package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.catalog.SkyPilotOptions;
import io.github.gpusizer.core.estimate.Warning;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Task;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.Period;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every option whose price is older than the threshold warns that it is stale, judged by a given clock (#13). */
class PriceStalenessTest {
  private static final Task LORA = Task.lora(Presets.get("llama-2-7b"), 8).tokens(5e7).microBatch(1)
      .globalBatch(128).sequenceLength(1024).build();

  private static Clock on(int year, int month, int day) {
    return Clock.fixed(LocalDate.of(year, month, day).atStartOfDay(ZoneOffset.UTC).toInstant(), ZoneOffset.UTC);
  }

  private static boolean stale(Option o) {
    return o.warnings().stream().anyMatch(w -> w.code().equals("price-stale"));
  }

  @Test
  void bundled_prices_are_fresh_the_day_after_they_were_read_and_stale_seven_months_later() {
    // GIVEN the bundled catalog, read on 2026-11-30 and 2026-12-01
    Recommendation fresh = GpuSizer.forTask(LORA).clock(on(2026, 12, 2)).recommend();
    Recommendation old = GpuSizer.forTask(LORA).clock(on(2027, 7, 1)).recommend();

    // THEN no option warns the day after, every option does seven months later, naming the date read
    assertThat(fresh.options()).noneMatch(PriceStalenessTest::stale);
    assertThat(old.options()).isNotEmpty().allMatch(PriceStalenessTest::stale);
    assertThat(old.bestOrThrow().warnings()).filteredOn(w -> w.code().equals("price-stale")).singleElement()
        .satisfies(w -> {
          assertThat(w.severity()).isEqualTo(Warning.Severity.WARNING);
          assertThat(w.message()).contains(old.bestOrThrow().offering().priceDate().toString(), "older than 180 days");
          assertThat(w.text(Warning.Surface.CLI)).contains("--catalog");
          assertThat(w.text(Warning.Surface.API)).contains("catalog(...)").doesNotContain("--catalog");
        });
  }

  @Test
  void a_user_catalog_price_warns_by_its_own_date_and_the_threshold_is_the_callers() {
    // GIVEN a user's offering priced on 2024-01-01
    Offering mine = Fixtures.offering("mycloud", "a100x8", "r1", Fixtures.A100_80, 8, "20", "USD",
        BillingMode.PER_SECOND, Optional.empty(), Optional.empty());
    Catalog catalog = Fixtures.of(mine);

    // THEN on 2024-06-29 (180 days) it is not stale, on 2024-06-30 it is; a 3-year threshold silences it
    assertThat(stale(GpuSizer.forTask(LORA).catalog(catalog).clock(on(2024, 6, 29)).recommend().bestOrThrow()))
        .isFalse();
    assertThat(stale(GpuSizer.forTask(LORA).catalog(catalog).clock(on(2024, 6, 30)).recommend().bestOrThrow()))
        .isTrue();
    assertThat(stale(GpuSizer.forTask(LORA).catalog(catalog).clock(on(2026, 12, 1)).staleAfter(Period.ofYears(3))
        .recommend().bestOrThrow())).isFalse();
  }

  @Test
  void a_skypilot_file_priced_by_its_price_date_reaches_the_options_as_stale(@TempDir Path dir) throws IOException {
    // GIVEN a SkyPilot Lambda row whose prices were read on 2025-01-06
    Path file = dir.resolve("lambda").resolve("vms.csv");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,"
        + "SpotPrice\ngpu_1x_h100_sxm5,H100,1.0,26.0,225.0,4.29,us-east-1,,\n", StandardCharsets.UTF_8);
    Catalog catalog = Catalog.loadSkyPilot(file, SkyPilotOptions.builder().priceDate(LocalDate.of(2025, 1, 6))
        .build());

    // WHEN sized on 2026-12-01
    Option best = GpuSizer.forTask(LORA).catalog(catalog).clock(on(2026, 12, 1)).recommend().bestOrThrow();

    // THEN the option says how old the price is
    assertThat(best.offering().priceDate()).isEqualTo(LocalDate.of(2025, 1, 6));
    assertThat(best.warnings()).filteredOn(w -> w.code().equals("price-stale")).singleElement()
        .satisfies(w -> assertThat(w.message()).contains("2025-01-06", "694 days"));
  }

  @Test
  void the_clock_and_threshold_are_set_once_and_a_negative_threshold_is_refused() {
    Sizer sizer = GpuSizer.forTask(LORA).clock(on(2026, 12, 1));
    assertThatIllegalStateException().isThrownBy(() -> sizer.clock(Clock.systemUTC()))
        .withMessageStartingWith("clock was already set to");
    assertThatIllegalArgumentException().isThrownBy(() -> GpuSizer.forTask(LORA).staleAfter(Period.ofDays(-1)))
        .withMessage("staleAfter must be >= 0, was P-1D");
  }
}
