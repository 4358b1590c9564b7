package io.github.gpusizer.core.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Service-level objectives of a deployment: time to first token (TTFT, from arrival to the first output token,
 * queueing included) and time per output token (TPOT, the mean gap between later tokens of one request), each at
 * the median and the 95th percentile; any may be left open.
 *
 * <pre>{@code
 * LatencyTargets slo = LatencyTargets.builder().ttftP95(Duration.ofSeconds(2)).tpotP95(Duration.ofMillis(100))
 *     .build();
 * LatencyTargets reading = LatencyTargets.builder().minTokensPerSecondPerUser(20).build(); // TPOT p50 <= 50 ms
 * }</pre>
 *
 * @param ttftP50 median TTFT bound
 * @param ttftP95 95th-percentile TTFT bound
 * @param tpotP50 median TPOT bound
 * @param tpotP95 95th-percentile TPOT bound
 */
public record LatencyTargets(Optional<Duration> ttftP50, Optional<Duration> ttftP95, Optional<Duration> tpotP50,
                             Optional<Duration> tpotP95) {

  public LatencyTargets {
    check("ttftP50", ttftP50);
    check("ttftP95", ttftP95);
    check("tpotP50", tpotP50);
    check("tpotP95", tpotP95);
  }

  private static void check(String field, Optional<Duration> bound) {
    checkNotNull(bound, field);
    bound.ifPresent(d -> checkArgument(!d.isNegative() && !d.isZero(), "%s must be > 0, was %s", field, d));
  }

  /** No targets: the cheapest plan that keeps up with the traffic at all. */
  public static LatencyTargets none() {
    return new LatencyTargets(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
  }

  /** TTFT and TPOT bounds at the 95th percentile. */
  public static LatencyTargets p95(Duration ttft, Duration tpot) {
    return builder().ttftP95(ttft).tpotP95(tpot).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Whether no target is set. */
  public boolean isEmpty() {
    return ttftP50.isEmpty() && ttftP95.isEmpty() && tpotP50.isEmpty() && tpotP95.isEmpty();
  }

  /**
   * The targets a latency misses, as "TTFT p95 2.4 s > 2 s" phrases; empty when it meets them all.
   */
  List<String> misses(Latency latency) {
    List<String> misses = new ArrayList<>();
    miss(misses, "TTFT p50", latency.ttftP50Seconds(), ttftP50);
    miss(misses, "TTFT p95", latency.ttftP95Seconds(), ttftP95);
    miss(misses, "TPOT p50", latency.tpotP50Seconds(), tpotP50);
    miss(misses, "TPOT p95", latency.tpotP95Seconds(), tpotP95);
    return misses;
  }

  private static void miss(List<String> misses, String what, double seconds, Optional<Duration> bound) {
    bound.ifPresent(b -> {
      if (seconds > ServingTexts.seconds(b)) {
        misses.add(what + " " + ServingTexts.text(seconds) + " > " + ServingTexts.duration(b));
      }
    });
  }

  /**
   * A builder whose setters check their argument at once; a bound set twice is a mistake
   * ({@link IllegalStateException} with the earlier value).
   */
  public static final class Builder {
    private Duration ttftP50;
    private Duration ttftP95;
    private Duration tpotP50;
    private Duration tpotP95;

    private Builder() {}

    private static Duration positive(String field, Duration value, Duration earlier) {
      checkNotNull(value, field);
      checkState(earlier == null, "%s was already set to %s", field, earlier);
      checkArgument(!value.isNegative() && !value.isZero(), "%s must be > 0, was %s", field, value);
      return value;
    }

    public Builder ttftP50(Duration v) {
      ttftP50 = positive("ttftP50", v, ttftP50);
      return this;
    }

    public Builder ttftP95(Duration v) {
      ttftP95 = positive("ttftP95", v, ttftP95);
      return this;
    }

    public Builder tpotP50(Duration v) {
      tpotP50 = positive("tpotP50", v, tpotP50);
      return this;
    }

    public Builder tpotP95(Duration v) {
      tpotP95 = positive("tpotP95", v, tpotP95);
      return this;
    }

    /**
     * A reading speed each user must see: the median TPOT at most {@code 1 / tokensPerSecond}.
     *
     * @throws IllegalArgumentException if the rate is not > 0 and finite
     * @throws IllegalStateException if the median TPOT is already set
     */
    public Builder minTokensPerSecondPerUser(double tokensPerSecond) {
      checkArgument(tokensPerSecond > 0 && Double.isFinite(tokensPerSecond),
          "minTokensPerSecondPerUser must be > 0 and finite, was %s", tokensPerSecond);
      long nanos = Math.max(1, Math.round(1e9 / tokensPerSecond));
      return tpotP50(Duration.ofNanos(nanos));
    }

    public LatencyTargets build() {
      return new LatencyTargets(Optional.ofNullable(ttftP50), Optional.ofNullable(ttftP95),
          Optional.ofNullable(tpotP50), Optional.ofNullable(tpotP95));
    }
  }
}
