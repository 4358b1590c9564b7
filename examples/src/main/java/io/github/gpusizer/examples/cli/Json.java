package io.github.gpusizer.examples.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.examples.support.Version;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/** Small helpers for building the CLI's JSON documents with Jackson's tree model. */
final class Json {
  static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
  /**
   * The version of the JSON documents' layout, first in each: raised when a field is renamed, removed or changes
   * meaning (added fields keep it), so scripts can refuse a layout they do not know.
   */
  static final int SCHEMA_VERSION = 1;

  private Json() {}

  static ObjectNode object() {
    return NODES.objectNode();
  }

  static ArrayNode array() {
    return NODES.arrayNode();
  }

  /** {@code {"amount": 12.34, "currency": "USD"}}; the amount keeps the scale it has (no exponent). */
  static ObjectNode money(Money money) {
    ObjectNode node = object();
    BigDecimal amount = money.amount();
    if (amount.scale() < 0) {
      amount = amount.setScale(0);
    }
    node.put("amount", amount);
    node.put("currency", money.currency().getCurrencyCode());
    return node;
  }

  static void put(ObjectNode node, String field, Optional<?> value) {
    if (value.isPresent()) {
      Object v = value.get();
      if (v instanceof Money m) {
        node.set(field, money(m));
      } else if (v instanceof JsonNode j) {
        node.set(field, j);
      } else {
        node.put(field, v.toString());
      }
    } else {
      node.putNull(field);
    }
  }

  static void put(ObjectNode node, String field, OptionalDouble value) {
    if (value.isPresent()) {
      node.put(field, value.getAsDouble());
    } else {
      node.putNull(field);
    }
  }

  static void put(ObjectNode node, String field, OptionalInt value) {
    if (value.isPresent()) {
      node.put(field, value.getAsInt());
    } else {
      node.putNull(field);
    }
  }

  /** A finite double rounded to {@code digits} significant decimals for stable, readable output; NaN → null. */
  static void putRounded(ObjectNode node, String field, double value, int digits) {
    if (!Double.isFinite(value)) {
      node.putNull(field);
      return;
    }
    node.put(field, Double.parseDouble(String.format(Locale.ROOT, "%." + digits + "g", value)));
  }

  /**
   * A document the tool prints. An object starts with what a script checks before it reads on: the version of the
   * layout ({@code schemaVersion}), the library's version ({@code gpusizerVersion}) and the price dates of the
   * catalog the answer was computed from ({@code catalogPrices: {offerings, oldest, newest}}, dates
   * {@code null} when the catalog has no offerings). An array ({@code gpus}, {@code offers}) is printed as it is:
   * each offering row carries its own {@code priceDate}.
   */
  static String pretty(JsonNode node, Catalog catalog) {
    JsonNode document = node.isObject() ? document((ObjectNode) node, catalog) : node;
    return document.toPrettyString() + System.lineSeparator();
  }

  /** {@code body} after the header {@link #pretty} describes: schemaVersion, gpusizerVersion, catalogPrices. */
  static ObjectNode document(ObjectNode body, Catalog catalog) {
    ObjectNode document = object();
    document.put("schemaVersion", SCHEMA_VERSION);
    document.put("gpusizerVersion", Version.library());
    document.set("catalogPrices", catalogPrices(catalog));
    document.setAll(body);
    return document;
  }

  /** {@code {offerings, oldest, newest}}: how many offerings the catalog has and their oldest and newest price date. */
  static ObjectNode catalogPrices(Catalog catalog) {
    ObjectNode prices = object();
    prices.put("offerings", catalog.offerings().size());
    Optional<LocalDate> oldest = catalog.offerings().stream().map(Offering::priceDate).min(LocalDate::compareTo);
    Optional<LocalDate> newest = catalog.offerings().stream().map(Offering::priceDate).max(LocalDate::compareTo);
    put(prices, "oldest", oldest);
    put(prices, "newest", newest);
    return prices;
  }
}
