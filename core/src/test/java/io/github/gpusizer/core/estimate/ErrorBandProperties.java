package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** Invariants of error bands over generated ratios and predictions. */
class ErrorBandProperties {
  /** Bands with a p10 ratio in [0.5, 1.5] and a p90 ratio up to 1.5 above it. */
  private static Gen<ErrorBand> bands() {
    return doubles().between(0.5, 1.5).zip(doubles().between(0, 1.5),
        (low, spread) -> new ErrorBand(low, low + spread, "generated"));
  }

  @Test
  void every_interval_contains_its_prediction() {
    qt().forAll(bands(), doubles().between(0, 1e12)).checkAssert((band, predicted) -> {
      assertThat(band.ofPredicted(predicted).contains(predicted)).isTrue();
      Duration time = Duration.ofNanos((long) (predicted * 1e3));
      assertThat(band.ofPredictedTime(time).contains(time)).isTrue();
    });
  }

  @Test
  void time_interval_is_the_work_over_the_rate_interval() {
    // time = work / rate, so the time's low end is the work over the rate's high end, and the reverse
    qt().forAll(bands(), doubles().between(1, 1e6)).checkAssert((band, rate) -> {
      double work = 3.6e6;
      Interval<Double> rates = band.ofPredicted(rate);
      Interval<Duration> times = band.ofPredictedTime(Duration.ofNanos((long) (work / rate * 1e9)));
      assertThat(times.low().toNanos() / 1e9).isCloseTo(work / rates.high(), within(1e-6 * work / rates.high()
          + 1e-9));
      assertThat(times.high().toNanos() / 1e9).isCloseTo(work / rates.low(), within(1e-6 * work / rates.low()
          + 1e-9));
    });
  }
}
