package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.time.LocalDate;
import java.time.Period;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * An instance type someone rents out: one machine with {@code gpuCount} GPUs, its host and its prices.
 *
 * <pre>{@code
 * for (Offering o : catalog.offerings()) {
 *   System.out.println(o.provider() + " " + o.instanceType() + " " + o.gpu().id() + " x" + o.gpuCount()
 *       + " " + o.onDemandPerHour() + "/h");
 * }
 * }</pre>
 *
 * <p>A {@link Fabric#CLUSTER} offering states its {@code networkGbps}; a {@link Fabric#STANDALONE} or
 * {@link Fabric#ETHERNET} one may leave it out.
 *
 * @param provider who sells it, e.g. {@code aws} or {@code aistudio}
 * @param instanceType the provider's name for it, e.g. {@code p4d.24xlarge}
 * @param region where it is sold, e.g. {@code us-east-1}
 * @param gpu the GPU model it carries
 * @param gpuCount GPUs per instance, >= 1
 * @param vcpus logical CPU cores of the instance
 * @param ram host memory
 * @param localDisk disk that comes with the instance (system plus data disk); zero if none
 * @param onDemandPerHour the on-demand price of the whole instance for one hour
 * @param spotPerHour the spot (pre-emptible) price per hour, if sold that way
 * @param billing how used time is rounded up before billing
 * @param monthly the monthly subscription price of the instance, if offered
 * @param yearly the yearly subscription price of the instance, if offered
 * @param networkGbps network bandwidth out of one instance in Gbit/s, all its NICs together, where the provider
 *     states it
 * @param fabric the network between instances: a cluster fabric, plain Ethernet, or none (a stand-alone machine)
 * @param priceDate the date the prices were read
 * @param source where the prices and the shape come from
 */
public record Offering(
    String provider,
    String instanceType,
    String region,
    Gpu gpu,
    int gpuCount,
    int vcpus,
    DataSize ram,
    DataSize localDisk,
    Money onDemandPerHour,
    Optional<Money> spotPerHour,
    BillingMode billing,
    Optional<Money> monthly,
    Optional<Money> yearly,
    OptionalDouble networkGbps,
    Fabric fabric,
    LocalDate priceDate,
    String source) {

  public Offering {
    checkArgument(!checkNotNull(provider, "provider").isBlank(), "offering needs a provider");
    checkArgument(!checkNotNull(instanceType, "instanceType").isBlank(), "offering of %s needs an instance type", provider);
    checkNotNull(region, "region");
    checkNotNull(gpu, "gpu");
    checkArgument(gpuCount >= 1, "%s %s: GPU count must be >= 1, was %s", provider, instanceType, gpuCount);
    checkArgument(vcpus >= 0, "%s %s: vCPUs must be >= 0, was %s", provider, instanceType, vcpus);
    checkNotNull(ram, "ram");
    checkNotNull(localDisk, "localDisk");
    checkNotNull(onDemandPerHour, "onDemandPerHour");
    checkArgument(!onDemandPerHour.isNegative(), "%s %s: on-demand price must be >= 0, was %s", provider, instanceType, onDemandPerHour);
    checkNotNull(spotPerHour, "spotPerHour");
    spotPerHour.ifPresent(spot -> {
      checkArgument(!spot.isNegative(), "%s %s: spot price must be >= 0, was %s", provider, instanceType, spot);
      checkArgument(spot.currency().equals(onDemandPerHour.currency()),
          "%s %s: spot price currency %s differs from on-demand %s", provider, instanceType, spot.currency(), onDemandPerHour.currency());
    });
    checkNotNull(billing, "billing");
    checkNotNull(monthly, "monthly");
    checkNotNull(yearly, "yearly");
    checkNotNull(networkGbps, "networkGbps");
    networkGbps.ifPresent(gbps -> checkArgument(Double.isFinite(gbps) && gbps >= 0,
        "%s %s: network bandwidth must be a finite number >= 0 Gbit/s, was %s", provider, instanceType, gbps));
    checkNotNull(fabric, "fabric");
    checkArgument(fabric != Fabric.CLUSTER || networkGbps.isPresent(),
        "%s %s: an offering on a cluster fabric must state its network bandwidth (networkGbps); a stand-alone "
            + "machine or an Ethernet VM may leave it out", provider, instanceType);
    checkNotNull(priceDate, "priceDate");
    checkArgument(!checkNotNull(source, "source").isBlank(), "%s %s needs a source for its price", provider, instanceType);
  }

  /**
   * How old a price may be before {@link #stalenessWarning} warns: 180 days. Cloud prices change a few times a year
   * (issue 13 found Lambda's 8x V100 bundled at 4.40 USD/h while the current SkyPilot file says 6.32).
   */
  public static final Period STALE_AFTER = Period.ofDays(180);

  /** Whole days between {@link #priceDate()} and {@code today}; negative for a price dated after {@code today}. */
  public long priceAgeDays(LocalDate today) {
    checkNotNull(today, "today");
    return ChronoUnit.DAYS.between(priceDate, today);
  }

  /**
   * A warning when the price was read more than {@code staleAfter} before {@code today}, e.g. {@code "the price of
   * aws p4d.24xlarge (us-east-1) was read on 2026-01-06, 328 days before 2026-11-30 (older than 180 days): check the
   * provider's current price"}; empty for a fresher price.
   *
   * <pre>{@code
   * offering.stalenessWarning(LocalDate.now(ZoneOffset.UTC), Offering.STALE_AFTER).ifPresent(warnings::add);
   * }</pre>
   *
   * @throws IllegalArgumentException if {@code staleAfter} is negative
   */
  public Optional<String> stalenessWarning(LocalDate today, Period staleAfter) {
    checkNotNull(today, "today");
    checkNotNull(staleAfter, "staleAfter");
    checkArgument(!staleAfter.isNegative(), "staleAfter must be >= 0, was %s", staleAfter);
    if (!priceDate.plus(staleAfter).isBefore(today)) {
      return Optional.empty();
    }
    return Optional.of(String.format("the price of %s %s (%s) was read on %s, %d days before %s (older than %s): "
        + "check the provider's current price", provider, instanceType, region, priceDate, priceAgeDays(today),
        today, describe(staleAfter)));
  }

  private static String describe(Period period) {
    if (period.getYears() == 0 && period.getMonths() == 0) {
      return period.getDays() + (period.getDays() == 1 ? " day" : " days");
    }
    return period.toString();
  }

  /**
   * Whether instances of this offering can be joined into one job: its fabric joins instances and the offering states
   * the network they are joined by. A job over instances on a bandwidth nobody stated is a guess nobody launches: a
   * job starts when its last instance is up, and separate on-demand VMs are rarely placed together, so an assumed
   * network never joins nodes.
   */
  public boolean joinable() {
    return fabric.joinable() && networkGbps.isPresent();
  }

  /** {@code provider/instanceType/region}, unique within a catalog. */
  public String key() {
    return provider + "/" + instanceType + "/" + region;
  }

  /**
   * {@link #key()} in lower case: providers, instance types and regions name the same thing whatever their case
   * ({@code MyCo/X1/R1} is {@code myco/x1/r1}), so two offerings with keys equal but for case are one offering.
   */
  String identity() {
    return key().toLowerCase(java.util.Locale.ROOT);
  }

  /** Device memory of all GPUs of the instance together. */
  public DataSize totalGpuMemory() {
    return gpu.memory().times(gpuCount);
  }

  @Override
  public String toString() {
    return key() + " (" + gpu.id() + " x" + gpuCount + ", " + onDemandPerHour + "/h)";
  }
}
