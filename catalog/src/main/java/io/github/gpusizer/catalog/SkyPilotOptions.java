package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import java.time.LocalDate;
import java.util.Optional;

/**
 * How to read a SkyPilot catalog file ({@code vms.csv} of
 * <a href="https://github.com/skypilot-org/skypilot-catalog">skypilot-org/skypilot-catalog</a>).
 *
 * <pre>{@code
 * SkyPilotOptions options = SkyPilotOptions.builder()
 *     .provider("aws")                          // default: the name of the file's folder
 *     .priceDate(LocalDate.of(2025, 1, 6))      // default: the file's last-modified date (UTC)
 *     .strict()                                 // default: rows of accelerators the catalog does not model
 *     .build();                                 //   are left out and listed in the load report
 * Catalog aws = Catalog.loadSkyPilot(Path.of("catalogs/v8/aws/vms.csv"), options);
 * }</pre>
 *
 * <p>By default a row whose accelerator the catalog does not model (AWS Trainium and Inferentia, Intel Gaudi, a GPU
 * missing from the catalog) is left out and listed in {@link Catalog#loadReport()} as
 * {@link LoadReport.Reason#UNKNOWN_ACCELERATOR}, so that every current SkyPilot catalog loads; {@link
 * Builder#strict()} makes such a row fail the load instead, with the closest known names.
 */
public final class SkyPilotOptions {
  private static final SkyPilotOptions DEFAULTS = new Builder().build();

  private final String provider;
  private final LocalDate priceDate;
  private final boolean strict;
  private final BillingMode billing;

  private SkyPilotOptions(Builder b) {
    this.provider = b.provider;
    this.priceDate = b.priceDate;
    this.strict = b.strict;
    this.billing = b.billing;
  }

  /**
   * Provider from the folder name, price date from the file, rows of unknown accelerators left out and reported,
   * billing by provider.
   */
  public static SkyPilotOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The provider to record; empty means the name of the folder the file is in ({@code aws} for {@code aws/vms.csv}). */
  public Optional<String> provider() {
    return Optional.ofNullable(provider);
  }

  /** The date the prices were read; empty means the file's last-modified date in UTC. */
  public Optional<LocalDate> priceDate() {
    return Optional.ofNullable(priceDate);
  }

  /** Whether a row with an accelerator the catalog does not model fails the load (it is reported otherwise). */
  public boolean strict() {
    return strict;
  }

  /**
   * Whether rows with an accelerator the catalog does not model go to the load report instead of failing the load:
   * {@code !strict()}.
   */
  public boolean skipUnknownAccelerators() {
    return !strict;
  }

  /**
   * How used time is billed; empty means per second for {@code aws} and {@code gcp} (both bill per second) and per
   * hour, the dearest rounding, for any provider whose rounding the library does not know.
   */
  public Optional<BillingMode> billing() {
    return Optional.ofNullable(billing);
  }

  @Override
  public String toString() {
    return "SkyPilotOptions{provider=" + provider + ", priceDate=" + priceDate + ", strict=" + strict
        + ", billing=" + billing + "}";
  }

  /** Each setting may be given once; {@link #build()} may be called again. */
  public static final class Builder {
    private String provider;
    private LocalDate priceDate;
    private boolean strict;
    private boolean skipUnknownAccelerators;
    private BillingMode billing;

    private Builder() {}

    /**
     * @throws IllegalArgumentException if blank
     * @throws IllegalStateException if already set
     */
    public Builder provider(String provider) {
      checkNotNull(provider, "provider");
      checkArgument(!provider.isBlank(), "provider must not be blank");
      checkState(this.provider == null, "provider was already set to %s", this.provider);
      this.provider = provider.strip();
      return this;
    }

    /** @throws IllegalStateException if already set */
    public Builder priceDate(LocalDate priceDate) {
      checkNotNull(priceDate, "priceDate");
      checkState(this.priceDate == null, "price date was already set to %s", this.priceDate);
      this.priceDate = priceDate;
      return this;
    }

    /**
     * A row whose accelerator the catalog does not model fails the load with its line and the closest known names,
     * instead of going to the load report.
     *
     * @throws IllegalStateException if already set, or if {@link #skipUnknownAccelerators()} was set
     */
    public Builder strict() {
      checkState(!strict, "strict was already set");
      checkState(!skipUnknownAccelerators, "strict contradicts skipUnknownAccelerators, which was already set");
      this.strict = true;
      return this;
    }

    /**
     * Rows whose accelerator the catalog does not model go to the load report instead of failing the load.
     *
     * @deprecated this is the default now; {@link #strict()} asks for the opposite
     * @throws IllegalStateException if already set, or if {@link #strict()} was set
     */
    @Deprecated
    public Builder skipUnknownAccelerators() {
      checkState(!skipUnknownAccelerators, "skipUnknownAccelerators was already set");
      checkState(!strict, "skipUnknownAccelerators contradicts strict, which was already set");
      this.skipUnknownAccelerators = true;
      return this;
    }

    /** @throws IllegalStateException if already set */
    public Builder billing(BillingMode billing) {
      checkNotNull(billing, "billing");
      checkState(this.billing == null, "billing was already set to %s", this.billing);
      this.billing = billing;
      return this;
    }

    public SkyPilotOptions build() {
      return new SkyPilotOptions(this);
    }
  }
}
