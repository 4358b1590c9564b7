package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkNotNull;

import java.util.Currency;

/**
 * Thrown when an operation combines two {@link Money} amounts in different currencies. Convert one first with
 * {@link Money#convertTo(Currency, java.math.BigDecimal)}.
 */
public final class CurrencyMismatchException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final Currency first;
  private final Currency second;

  public CurrencyMismatchException(Currency first, Currency second) {
    super(String.format("cannot combine %s with %s: convert one with an explicit exchange rate first",
        checkNotNull(first).getCurrencyCode(), checkNotNull(second).getCurrencyCode()));
    this.first = first;
    this.second = second;
  }

  public Currency first() {
    return first;
  }

  public Currency second() {
    return second;
  }
}
