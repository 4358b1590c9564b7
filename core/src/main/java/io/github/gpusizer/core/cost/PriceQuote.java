package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.Money;
import java.util.Optional;

/**
 * An amount of money with its provenance: either as listed, or converted from another currency at a stated rate.
 *
 * <pre>{@code
 * PriceQuote q = ExchangeRates.bundled().convert(Money.of("16.72", "CNY"), Money.currency("USD"));
 * q.amount();     // about 2.41 USD
 * q.converted();  // true
 * q.rate();       // Optional[CNY->USD ... cross through EUR ...]
 * }</pre>
 *
 * @param amount the amount in the currency asked for
 * @param original the amount as listed, before any conversion; equal to {@code amount} when not converted
 * @param rate the rate used, if the amount was converted
 */
public record PriceQuote(Money amount, Money original, Optional<ExchangeRate> rate) {

  public PriceQuote {
    checkNotNull(amount, "amount");
    checkNotNull(original, "original");
    checkNotNull(rate, "rate");
    if (rate.isEmpty()) {
      checkArgument(amount.isEqualTo(original), "an unconverted quote must equal its original, was %s vs %s",
          amount, original);
    } else {
      checkArgument(rate.get().from().equals(original.currency()) && rate.get().to().equals(amount.currency()),
          "rate %s does not convert %s into %s", rate.get(), original.currency(), amount.currency());
    }
  }

  /** An amount as listed, not converted. */
  public static PriceQuote of(Money amount) {
    return new PriceQuote(amount, amount, Optional.empty());
  }

  /** Whether the amount was converted from another currency. */
  public boolean converted() {
    return rate.isPresent();
  }

  /** {@code "2.41 USD (converted from 16.72 CNY at 0.1441...)"}, or just the amount when not converted. */
  @Override
  public String toString() {
    return rate.map(r -> amount.rounded() + " (converted from " + original + " at " + r.rate().toPlainString()
            + r.date().map(d -> " of " + d).orElse("") + ")")
        .orElse(amount.toString());
  }
}
