package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import java.util.Optional;

/**
 * Which offerings of a catalog to list; every criterion left out matches everything.
 *
 * <pre>{@code
 * List<Offering> cheapA100s = catalog.offerings(OfferingFilter.builder()
 *     .gpu("a100 80gb")                        // any id, name or alias the catalog knows
 *     .provider("aws")
 *     .minGpuCount(4)
 *     .maxPricePerHour(Money.of("40", "USD"))  // offerings priced in another currency do not match
 *     .build());
 * }</pre>
 */
public final class OfferingFilter {
  private static final OfferingFilter ANY = builder().build();

  private final String gpu;
  private final String provider;
  private final String region;
  private final int minGpuCount;
  private final int maxGpuCount;
  private final Money maxPricePerHour;

  private OfferingFilter(Builder b) {
    this.gpu = b.gpu;
    this.provider = b.provider;
    this.region = b.region;
    this.minGpuCount = b.minGpuCount == null ? 1 : b.minGpuCount;
    this.maxGpuCount = b.maxGpuCount == null ? Integer.MAX_VALUE : b.maxGpuCount;
    this.maxPricePerHour = b.maxPricePerHour;
  }

  /** The filter that matches every offering. */
  public static OfferingFilter any() {
    return ANY;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The GPU name, id or alias offerings must carry, as given; resolved by the catalog that is queried. */
  public Optional<String> gpu() {
    return Optional.ofNullable(gpu);
  }

  /** The provider offerings must come from, compared ignoring case. */
  public Optional<String> provider() {
    return Optional.ofNullable(provider);
  }

  /** The region offerings must be sold in, compared ignoring case. */
  public Optional<String> region() {
    return Optional.ofNullable(region);
  }

  /** The fewest GPUs per instance, 1 unless set. */
  public int minGpuCount() {
    return minGpuCount;
  }

  /** The most GPUs per instance, {@link Integer#MAX_VALUE} unless set. */
  public int maxGpuCount() {
    return maxGpuCount;
  }

  /** The highest on-demand price per hour; only offerings priced in its currency can match. */
  public Optional<Money> maxPricePerHour() {
    return Optional.ofNullable(maxPricePerHour);
  }

  /** Whether an offering matches, its GPU being the one with id {@code gpuId} when a GPU was asked for. */
  boolean matches(Offering o, Optional<String> gpuId) {
    return gpuId.map(id -> o.gpu().id().equals(id)).orElse(true)
        && (provider == null || provider.equalsIgnoreCase(o.provider()))
        && (region == null || region.equalsIgnoreCase(o.region()))
        && o.gpuCount() >= minGpuCount
        && o.gpuCount() <= maxGpuCount
        && (maxPricePerHour == null
            || (o.onDemandPerHour().currency().equals(maxPricePerHour.currency())
                && o.onDemandPerHour().compareTo(maxPricePerHour) <= 0));
  }

  @Override
  public String toString() {
    return "OfferingFilter{gpu=" + gpu + ", provider=" + provider + ", region=" + region + ", gpuCount="
        + minGpuCount + ".." + maxGpuCount + ", maxPricePerHour=" + maxPricePerHour + "}";
  }

  /** Each criterion may be given once; {@link #build()} checks them together and may be called again. */
  public static final class Builder {
    private String gpu;
    private String provider;
    private String region;
    private Integer minGpuCount;
    private Integer maxGpuCount;
    private Money maxPricePerHour;

    private Builder() {}

    /** @throws IllegalStateException if already set */
    public Builder gpu(String nameOrAlias) {
      checkArgument(!checkNotNull(nameOrAlias, "nameOrAlias").isBlank(), "GPU name must not be blank");
      checkState(gpu == null, "gpu was already set to %s", gpu);
      this.gpu = nameOrAlias;
      return this;
    }

    /** @throws IllegalStateException if already set */
    public Builder provider(String provider) {
      checkArgument(!checkNotNull(provider, "provider").isBlank(), "provider must not be blank");
      checkState(this.provider == null, "provider was already set to %s", this.provider);
      this.provider = provider.strip();
      return this;
    }

    /** @throws IllegalStateException if already set */
    public Builder region(String region) {
      checkArgument(!checkNotNull(region, "region").isBlank(), "region must not be blank");
      checkState(this.region == null, "region was already set to %s", this.region);
      this.region = region.strip();
      return this;
    }

    /** @throws IllegalStateException if already set */
    public Builder minGpuCount(int minGpuCount) {
      checkArgument(minGpuCount >= 1, "minimum GPU count must be >= 1, was %s", minGpuCount);
      checkState(this.minGpuCount == null, "minimum GPU count was already set to %s", this.minGpuCount);
      this.minGpuCount = minGpuCount;
      return this;
    }

    /** @throws IllegalStateException if already set */
    public Builder maxGpuCount(int maxGpuCount) {
      checkArgument(maxGpuCount >= 1, "maximum GPU count must be >= 1, was %s", maxGpuCount);
      checkState(this.maxGpuCount == null, "maximum GPU count was already set to %s", this.maxGpuCount);
      this.maxGpuCount = maxGpuCount;
      return this;
    }

    /** Exactly this many GPUs per instance: sets the minimum and the maximum. */
    public Builder gpuCount(int gpuCount) {
      return minGpuCount(gpuCount).maxGpuCount(gpuCount);
    }

    /**
     * @throws IllegalArgumentException if negative
     * @throws IllegalStateException if already set
     */
    public Builder maxPricePerHour(Money maxPricePerHour) {
      checkNotNull(maxPricePerHour, "maxPricePerHour");
      checkArgument(!maxPricePerHour.isNegative(), "maximum price per hour must be >= 0, was %s", maxPricePerHour);
      checkState(this.maxPricePerHour == null, "maximum price per hour was already set to %s", this.maxPricePerHour);
      this.maxPricePerHour = maxPricePerHour;
      return this;
    }

    /** @throws IllegalArgumentException if the minimum GPU count exceeds the maximum */
    public OfferingFilter build() {
      checkArgument(minGpuCount == null || maxGpuCount == null || minGpuCount <= maxGpuCount,
          "minimum GPU count %s exceeds maximum %s", minGpuCount, maxGpuCount);
      return new OfferingFilter(this);
    }
  }
}
