package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.time.LocalDate;

/**
 * What one card cost to buy, with when and where the figure was read.
 *
 * <pre>{@code
 * PurchasePrice p = new PurchasePrice(Money.of("1599", "USD"), LocalDate.of(2022, 10, 12), Kind.LAUNCH_MSRP,
 *     "NVIDIA GeForce RTX 4090 launch announcement");
 * }</pre>
 *
 * @param price the price of one card, > 0
 * @param date the date the price was announced or read
 * @param kind launch list price or a dated street price
 * @param source where the figure comes from
 */
public record PurchasePrice(Money price, LocalDate date, Kind kind, String source) {

  /** Whether the figure is the maker's launch list price or a later market price. */
  public enum Kind {
    LAUNCH_MSRP,
    STREET
  }

  public PurchasePrice {
    checkNotNull(price, "price");
    checkNotNull(date, "date");
    checkNotNull(kind, "kind");
    checkNotNull(source, "source");
    checkArgument(price.amount().signum() > 0, "purchase price must be > 0, was %s", price);
    checkArgument(!source.isBlank(), "purchase price needs a source");
  }
}
