package io.github.gpusizer.core.sizing;

import io.github.gpusizer.catalog.Money;
import java.util.Currency;
import java.util.Optional;

/** Converts an amount into the ranking currency, where a rate is known. */
public interface CurrencyConverter {

  /** The amount in {@code target}; empty if no rate from its currency is known. */
  Optional<Money> convert(Money amount, Currency target);

  /** Converts nothing: amounts already in the target pass, others have no rate. */
  static CurrencyConverter none() {
    return (amount, target) -> amount.currency().equals(target) ? Optional.of(amount) : Optional.empty();
  }
}
