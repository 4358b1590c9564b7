package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Currency;

/**
 * An amount of money in one currency. Arithmetic never mixes currencies: {@link #convertTo} with a rate the
 * caller gives is the only way from one to another.
 *
 * <pre>{@code
 * Money hour = Money.of("2.09", "CNY");
 * Money day = hour.times(24);                                   // 50.16 CNY
 * Money usd = day.convertTo(Currency.getInstance("USD"), new BigDecimal("0.14"));
 * }</pre>
 *
 * <p>Amounts keep their full precision; {@link #rounded()} rounds half-even to the currency's minor unit for
 * display and billing.
 *
 * @param amount the amount, any sign, any scale
 * @param currency its currency
 */
public record Money(BigDecimal amount, Currency currency) implements Comparable<Money> {

  public Money {
    checkNotNull(amount, "amount");
    checkNotNull(currency, "currency");
  }

  /**
   * Parses a decimal amount and an ISO 4217 code.
   *
   * @throws IllegalArgumentException if the amount is not a decimal number or the code is not a known currency
   */
  public static Money of(String amount, String currencyCode) {
    checkNotNull(amount, "amount");
    checkNotNull(currencyCode, "currencyCode");
    BigDecimal value;
    try {
      value = new BigDecimal(amount.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("amount must be a decimal number such as 2.09, was '" + amount + "'", e);
    }
    return new Money(value, currency(currencyCode));
  }

  public static Money of(BigDecimal amount, Currency currency) {
    return new Money(amount, currency);
  }

  public static Money zero(Currency currency) {
    return new Money(BigDecimal.ZERO, currency);
  }

  /**
   * Looks up an ISO 4217 currency code, case-insensitively.
   *
   * @throws IllegalArgumentException if the code is not a known currency
   */
  public static Currency currency(String code) {
    checkNotNull(code, "currency code");
    try {
      return Currency.getInstance(code.strip().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "currency must be an ISO 4217 code such as USD, CNY or EUR, was '" + code + "'", e);
    }
  }

  public Money plus(Money other) {
    requireSameCurrency(other);
    return new Money(amount.add(other.amount), currency);
  }

  public Money minus(Money other) {
    requireSameCurrency(other);
    return new Money(amount.subtract(other.amount), currency);
  }

  public Money times(BigDecimal factor) {
    return new Money(amount.multiply(checkNotNull(factor, "factor")), currency);
  }

  public Money times(long factor) {
    return times(BigDecimal.valueOf(factor));
  }

  /** Divides, keeping {@code scale} decimal places, rounding half-even. */
  public Money dividedBy(BigDecimal divisor, int scale) {
    checkArgument(divisor.signum() != 0, "cannot divide %s by zero", this);
    return new Money(amount.divide(divisor, scale, RoundingMode.HALF_EVEN), currency);
  }

  /**
   * Converts with an explicit rate: one unit of this currency buys {@code rate} units of {@code target}.
   *
   * @throws IllegalArgumentException if the rate is not positive
   */
  public Money convertTo(Currency target, BigDecimal rate) {
    checkNotNull(target, "target");
    checkArgument(rate.signum() > 0, "exchange rate %s->%s must be > 0, was %s",
        currency.getCurrencyCode(), target.getCurrencyCode(), rate);
    return new Money(amount.multiply(rate), target);
  }

  /** Rounded half-even to the currency's minor unit (2 places for USD and CNY, 0 for JPY). */
  public Money rounded() {
    int digits = Math.max(currency.getDefaultFractionDigits(), 0);
    return new Money(amount.setScale(digits, RoundingMode.HALF_EVEN), currency);
  }

  public boolean isNegative() {
    return amount.signum() < 0;
  }

  public boolean isZero() {
    return amount.signum() == 0;
  }

  /**
   * Orders amounts of the same currency.
   *
   * @throws CurrencyMismatchException if the currencies differ
   */
  @Override
  public int compareTo(Money other) {
    requireSameCurrency(other);
    return amount.compareTo(other.amount);
  }

  /** True when both have the same currency and numerically equal amounts (2.0 CNY equals 2.00 CNY). */
  public boolean isEqualTo(Money other) {
    return currency.equals(other.currency) && amount.compareTo(other.amount) == 0;
  }

  private void requireSameCurrency(Money other) {
    checkNotNull(other, "other");
    if (!currency.equals(other.currency)) {
      throw new CurrencyMismatchException(currency, other.currency);
    }
  }

  /** {@code "2.09 CNY"}. */
  @Override
  public String toString() {
    return amount.toPlainString() + " " + currency.getCurrencyCode();
  }
}
