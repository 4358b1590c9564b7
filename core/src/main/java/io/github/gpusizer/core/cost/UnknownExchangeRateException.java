package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableSortedSet;
import java.util.Comparator;
import java.util.Currency;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Thrown when no rate, inverse or one-pivot cross rate connects two currencies. Give one with
 * {@link ExchangeRates#with(Currency, Currency, java.math.BigDecimal)}.
 */
public final class UnknownExchangeRateException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final Currency from;
  private final Currency to;
  private final ImmutableSortedSet<String> known;

  UnknownExchangeRateException(Currency from, Currency to, Set<Currency> known) {
    super(message(checkNotNull(from), checkNotNull(to), codes(known)));
    this.from = from;
    this.to = to;
    this.known = codes(known);
  }

  private static ImmutableSortedSet<String> codes(Set<Currency> currencies) {
    return currencies.stream().map(Currency::getCurrencyCode)
        .collect(ImmutableSortedSet.toImmutableSortedSet(Comparator.naturalOrder()));
  }

  private static String message(Currency from, Currency to, Set<String> known) {
    return String.format("no exchange rate %s->%s: neither a rate, its inverse nor a cross rate through one pivot "
            + "currency is known; known currencies: %s; add one with ExchangeRates.with(%s, %s, rate)",
        from.getCurrencyCode(), to.getCurrencyCode(),
        known.isEmpty() ? "none" : known.stream().collect(Collectors.joining(", ")),
        from.getCurrencyCode(), to.getCurrencyCode());
  }

  public Currency from() {
    return from;
  }

  public Currency to() {
    return to;
  }

  /** ISO codes of the currencies the rates do know, sorted. */
  public ImmutableSortedSet<String> knownCurrencies() {
    return known;
  }
}
