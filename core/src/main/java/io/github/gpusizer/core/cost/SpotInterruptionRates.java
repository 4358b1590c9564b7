package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableMap;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Default spot (pre-emptible) interruption rates per provider, each with its source, for when the caller states
 * none: spot capacity is then priced with the re-done work its interruptions cost instead of as if it were never
 * reclaimed. A provider without a default (spot from a user's catalog, say Vast or RunPod) is still priced as never
 * interrupted, with a warning that says so.
 *
 * <pre>{@code
 * SpotInterruptionRates.bundled().rate("aws").get().perHour();   // 3.06e-4 per instance-hour
 * SpotInterruptionRates.bundled().rate("lambda");                // empty: Lambda sells no spot capacity
 * }</pre>
 *
 * <p>The rates are defaults, deliberately on the high side of what the providers publish, because what each
 * provider publishes is per instance type and region and changes monthly; give the rate of the instance you mean to
 * rent with {@code spotInterruptions(...)} on the sizer (or {@code --spot-interruptions} in the CLI).
 */
public final class SpotInterruptionRates {

  /**
   * AWS: the Spot Instance Advisor gives each instance type and region a "frequency of interruption", "the rate at
   * which Spot has reclaimed capacity during the trailing month", in the bands {@code <5%}, {@code 5-10%},
   * {@code 10-15%}, {@code 15-20%} and {@code >20%} (AWS's description of its advisor data
   * spot-advisor-data.json, as quoted by grailbio/base's spotadvisor package, pkg.go.dev). The bundled catalog does
   * not hold the band of each GPU instance type, so the default is the lower edge of the worst band: 20 % of
   * capacity reclaimed a month.
   */
  public static final double AWS_MONTHLY_FRACTION = 0.20;

  /**
   * Azure: Microsoft publishes an eviction rate per VM size and region over the trailing 28 days (Azure Resource
   * Graph {@code SpotResources}, learn.microsoft.com "Use Azure Spot Virtual Machines", section "Pricing and
   * eviction history") but no figure that could be bundled; the default assumes AWS's worst-band figure over that
   * 28-day window.
   */
  public static final double AZURE_FRACTION_PER_28_DAYS = 0.20;

  /**
   * Google Cloud: preemptible VMs "always stop after 24 hours"; Spot VMs, "the latest version of preemptible VMs"
   * at the same prices, have no maximum runtime, and Google publishes no preemption rate for them
   * (docs.cloud.google.com/compute/docs/instances/create-use-preemptible). The default is the preemptible bound:
   * one preemption per 24 hours of an instance's time.
   */
  public static final Duration GCP_PREEMPTIBLE_MAX_RUNTIME = Duration.ofHours(24);

  private static final SpotInterruptionRates BUNDLED = new SpotInterruptionRates(ImmutableMap.of(
      "aws", new Rate(perHour(AWS_MONTHLY_FRACTION, CostModel.MONTH),
          "20 % of spot capacity reclaimed a month, the lower edge of the worst band of AWS's Spot Instance Advisor "
              + "(<5 %, 5-10 %, 10-15 %, 15-20 %, >20 % a month)"),
      "azure", new Rate(perHour(AZURE_FRACTION_PER_28_DAYS, Duration.ofDays(28)),
          "20 % of spot VMs evicted in 28 days, assumed: Azure publishes each size's eviction rate over the "
              + "trailing 28 days but no bundled figure"),
      "gcp", new Rate(1.0 / GCP_PREEMPTIBLE_MAX_RUNTIME.toHours(),
          "one preemption per 24 h of instance time, the bound of Google's preemptible VMs (Spot VMs have no "
              + "maximum runtime and no published rate)")));

  private static final SpotInterruptionRates NONE = new SpotInterruptionRates(ImmutableMap.of());

  private final ImmutableMap<String, Rate> byProvider;

  private SpotInterruptionRates(Map<String, Rate> byProvider) {
    this.byProvider = ImmutableMap.copyOf(byProvider);
  }

  /** The sourced defaults for AWS, Azure and Google Cloud (provider names as in the bundled catalog). */
  public static SpotInterruptionRates bundled() {
    return BUNDLED;
  }

  /** No defaults: spot is priced as never interrupted unless the caller gives an interruption model. */
  public static SpotInterruptionRates none() {
    return NONE;
  }

  /**
   * A copy with {@code provider}'s default set to {@code rate} (a provider of a user's catalog, or a measured rate).
   *
   * @throws IllegalArgumentException if the provider is blank or the rate is negative or not finite
   */
  public SpotInterruptionRates with(String provider, Rate rate) {
    checkArgument(!checkNotNull(provider, "provider").isBlank(), "provider must not be blank");
    checkNotNull(rate, "rate");
    Map<String, Rate> copy = new java.util.LinkedHashMap<>(byProvider);
    copy.put(provider.strip().toLowerCase(Locale.ROOT), rate);
    return new SpotInterruptionRates(copy);
  }

  /** The default rate of {@code provider} (case ignored), if there is one. */
  public Optional<Rate> rate(String provider) {
    checkNotNull(provider, "provider");
    return Optional.ofNullable(byProvider.get(provider.toLowerCase(Locale.ROOT)));
  }

  /**
   * Interruptions per instance-hour from the fraction of instances a provider reports reclaimed over a period, for a
   * constant rate (a Poisson process): {@code -ln(1 - fraction) / hours}.
   *
   * @throws IllegalArgumentException if the fraction is not in [0, 1) or the period is not positive
   */
  public static double perHour(double fraction, Duration period) {
    checkArgument(fraction >= 0 && fraction < 1, "fraction reclaimed must be in [0, 1), was %s", fraction);
    checkArgument(checkNotNull(period, "period").compareTo(Duration.ZERO) > 0, "period must be > 0, was %s", period);
    return -Math.log1p(-fraction) / (period.toSeconds() / 3600.0);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SpotInterruptionRates r && r.byProvider.equals(byProvider);
  }

  @Override
  public int hashCode() {
    return byProvider.hashCode();
  }

  @Override
  public String toString() {
    return "SpotInterruptionRates" + byProvider;
  }

  /**
   * One provider's default.
   *
   * @param perHour expected interruptions per instance-hour, >= 0
   * @param basis where the figure comes from, in a phrase a report can quote
   */
  public record Rate(double perHour, String basis) {
    public Rate {
      checkArgument(Double.isFinite(perHour) && perHour >= 0,
          "interruptions per hour must be finite and >= 0, was %s", perHour);
      checkArgument(!checkNotNull(basis, "basis").isBlank(), "the basis of a rate must not be blank");
    }
  }
}
