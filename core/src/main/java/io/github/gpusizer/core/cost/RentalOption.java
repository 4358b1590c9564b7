package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Offering;
import java.math.BigDecimal;
import java.time.Duration;

/**
 * One way to run a job: an offering, how many instances, for how long, paid how. Compared side by side by
 * {@link RentalComparison}.
 *
 * <pre>{@code
 * // the job takes 20 h on a V100; an A100 is 2x as fast
 * RentalOption v100 = RentalOption.fromReference(v100Offering, Duration.ofHours(20), 1.0);
 * RentalOption a100 = RentalOption.fromReference(a100Offering, Duration.ofHours(20), 2.0);   // 10 h
 * RentalOption spot = RentalOption.of(a100Offering, Duration.ofHours(10)).withMode(PricingMode.SPOT).withInstances(2);
 * }</pre>
 *
 * @param label a name for people; by default the instance type, the instance count and the pricing mode
 * @param offering what is rented
 * @param instances how many instances, >= 1
 * @param wall how long they run
 * @param mode how they are paid for
 * @param storage storage kept for the whole job, priced by {@link CostModel#withStoragePrice}; zero for none
 */
public record RentalOption(
    String label, Offering offering, int instances, Duration wall, PricingMode mode, DataSize storage) {

  public RentalOption {
    checkNotNull(label, "label");
    checkNotNull(offering, "offering");
    checkNotNull(wall, "wall");
    checkNotNull(mode, "mode");
    checkNotNull(storage, "storage");
    checkArgument(!label.isBlank(), "rental option needs a label");
    checkArgument(instances >= 1, "instances must be >= 1, was %s", instances);
    checkArgument(!wall.isNegative(), "wall time must be >= 0, was %s", wall);
  }

  /** One on-demand instance of {@code offering} for {@code wall}, no storage. */
  public static RentalOption of(Offering offering, Duration wall) {
    checkNotNull(offering, "offering");
    return new RentalOption(defaultLabel(offering, 1, PricingMode.ON_DEMAND), offering, 1, wall,
        PricingMode.ON_DEMAND, DataSize.ZERO);
  }

  /**
   * One on-demand instance running for {@code referenceTime ÷ speedup}: the time measured on a reference GPU,
   * divided by this offering's speedup over it (2.0 = twice as fast). Rounded to the nanosecond.
   *
   * @throws IllegalArgumentException if the speedup is not finite and > 0
   */
  public static RentalOption fromReference(Offering offering, Duration referenceTime, double speedup) {
    checkNotNull(offering, "offering");
    checkNotNull(referenceTime, "referenceTime");
    checkArgument(!referenceTime.isNegative(), "reference time must be >= 0, was %s", referenceTime);
    BigDecimal seconds = Decimals.seconds(referenceTime)
        .divide(Decimals.positiveRatio(speedup, "speedup"), Decimals.MATH);
    return of(offering, Decimals.ofSeconds(seconds));
  }

  public RentalOption withLabel(String label) {
    return new RentalOption(label, offering, instances, wall, mode, storage);
  }

  /** A copy with {@code instances} instances (and the default label updated, if it was the default). */
  public RentalOption withInstances(int instances) {
    return new RentalOption(relabel(instances, mode), offering, instances, wall, mode, storage);
  }

  /** A copy paid for with {@code mode} (and the default label updated, if it was the default). */
  public RentalOption withMode(PricingMode mode) {
    checkNotNull(mode, "mode");
    return new RentalOption(relabel(instances, mode), offering, instances, wall, mode, storage);
  }

  public RentalOption withStorage(DataSize storage) {
    return new RentalOption(label, offering, instances, wall, mode, storage);
  }

  private String relabel(int newInstances, PricingMode newMode) {
    return label.equals(defaultLabel(offering, instances, mode)) ? defaultLabel(offering, newInstances, newMode) : label;
  }

  private static String defaultLabel(Offering offering, int instances, PricingMode mode) {
    return offering.provider() + " " + offering.instanceType() + (instances > 1 ? " x" + instances : "")
        + (mode == PricingMode.ON_DEMAND ? "" : " " + mode.name().toLowerCase(java.util.Locale.ROOT));
  }
}
