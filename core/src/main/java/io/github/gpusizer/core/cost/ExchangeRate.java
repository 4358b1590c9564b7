package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Currency;
import java.util.Optional;

/**
 * One unit of {@code from} buys {@code rate} units of {@code to}, as published on {@code date} by {@code source}.
 *
 * <pre>{@code
 * ExchangeRate eurCny = ExchangeRates.bundled().rate(Money.currency("EUR"), Money.currency("CNY"));
 * eurCny.rate();    // 8.1838
 * eurCny.date();    // Optional[2026-02-06]
 * eurCny.source();  // "ECB euro foreign exchange reference rates ..."
 * }</pre>
 *
 * @param from the currency converted from
 * @param to the currency converted to
 * @param rate units of {@code to} per unit of {@code from}, > 0
 * @param date the day the rate was published; empty for rates a caller gave without a date
 * @param source who published it, or how it was derived ("inverse of ...", "cross through EUR: ...")
 */
public record ExchangeRate(Currency from, Currency to, BigDecimal rate, Optional<LocalDate> date, String source) {

  public ExchangeRate {
    checkNotNull(from, "from");
    checkNotNull(to, "to");
    checkNotNull(rate, "rate");
    checkNotNull(date, "date");
    checkNotNull(source, "source");
    checkArgument(!from.equals(to), "exchange rate needs two different currencies, was %s->%s", from, to);
    checkArgument(rate.signum() > 0, "exchange rate %s->%s must be > 0, was %s", from, to, rate);
    checkArgument(!source.isBlank(), "exchange rate %s->%s needs a source", from, to);
  }

  /** The opposite direction: {@code 1 / rate}, rounded once to 34 significant digits, same date. */
  public ExchangeRate inverse() {
    return new ExchangeRate(to, from, BigDecimal.ONE.divide(rate, Decimals.MATH), date, "inverse of " + this);
  }

  /**
   * {@code from -> to -> next.to}: the product of the two rates, dated by the older of the two dates.
   *
   * @throws IllegalArgumentException if {@code next} does not start where this ends, or ends where this starts
   */
  ExchangeRate then(ExchangeRate next) {
    checkArgument(next.from.equals(to), "cannot chain %s with %s", this, next);
    Optional<LocalDate> older = date.isPresent() && next.date.isPresent()
        ? Optional.of(date.get().isBefore(next.date.get()) ? date.get() : next.date.get())
        : Optional.empty();
    return new ExchangeRate(from, next.to, rate.multiply(next.rate, Decimals.MATH), older,
        "cross through " + to.getCurrencyCode() + ": " + this + "; " + next);
  }

  /** {@code "EUR->CNY 8.1838 (2026-02-06, ECB ...)"}. */
  @Override
  public String toString() {
    return from.getCurrencyCode() + "->" + to.getCurrencyCode() + " " + rate.toPlainString()
        + " (" + date.map(d -> d + ", ").orElse("") + source + ")";
  }
}
