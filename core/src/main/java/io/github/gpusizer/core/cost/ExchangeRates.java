package io.github.gpusizer.core.cost;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedSet;
import io.github.gpusizer.catalog.Money;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Exchange rates for ranking options priced in different currencies in one currency. Immutable; every conversion
 * is explicit and its result says which rate was used.
 *
 * <pre>{@code
 * ExchangeRates rates = ExchangeRates.bundled()                         // ECB reference rates of a stated day
 *     .with(Money.currency("USD"), Money.currency("CNY"), new BigDecimal("7.10"));   // or today's rate
 * PriceQuote usd = rates.convert(Money.of("16.72", "CNY"), Money.currency("USD"));
 * usd.converted();  // true
 * }</pre>
 *
 * <p>Finding a rate from {@code A} to {@code B}: a rate given for {@code A->B} wins; else the inverse of a rate
 * given for {@code B->A}; else a cross rate through one pivot currency {@code P} ({@code A->P->B}, each leg given
 * or inverted), trying pivots in alphabetical order of their ISO codes. The bundled table quotes everything
 * against the euro, so its cross rates go through EUR. Inverse and cross rates are computed to 34 significant
 * digits ({@link java.math.MathContext#DECIMAL128}) and dated by their oldest leg.
 */
public final class ExchangeRates {

  private static final String RESOURCE = "exchange-rates.csv";
  private static final String HEADER = "from,to,rate,date,source";

  private record Pair(Currency from, Currency to) {}

  private final ImmutableMap<Pair, ExchangeRate> rates;

  private ExchangeRates(Map<Pair, ExchangeRate> rates) {
    this.rates = ImmutableMap.copyOf(rates);
  }

  /** No rates at all: every conversion between different currencies fails. */
  public static ExchangeRates empty() {
    return new ExchangeRates(ImmutableMap.of());
  }

  /**
   * The bundled reference rates ({@code exchange-rates.csv} next to this class): the European Central Bank's euro
   * foreign exchange reference rates of one stated day. Good for ranking; not for paying bills.
   */
  public static ExchangeRates bundled() {
    return Bundled.RATES;
  }

  /**
   * Rates the caller gives, all against one base currency, undated.
   *
   * <pre>{@code
   * ExchangeRates rates = ExchangeRates.of(Money.currency("USD"),
   *     Map.of(Money.currency("CNY"), new BigDecimal("7.10"), Money.currency("EUR"), new BigDecimal("0.86")));
   * }</pre>
   *
   * @param base the currency every rate is quoted against
   * @param unitsPerBase for each currency, how many of its units one unit of {@code base} buys
   * @throws IllegalArgumentException if a rate is not positive or quotes the base against itself
   */
  public static ExchangeRates of(Currency base, Map<Currency, BigDecimal> unitsPerBase) {
    checkNotNull(base, "base");
    ExchangeRates result = empty();
    for (Map.Entry<Currency, BigDecimal> e : unitsPerBase.entrySet()) {
      result = result.with(new ExchangeRate(base, e.getKey(), e.getValue(), Optional.empty(), "given by the caller"));
    }
    return result;
  }

  /**
   * Reads a table in the bundled format: a header {@code from,to,rate,date,source}, then one rate a line
   * ({@code EUR,USD,1.1794,2026-02-06,ECB reference rate}); lines starting with {@code #} are comments. Fields
   * may not contain commas. Parsing is strict: any malformed line fails the whole table.
   *
   * @param name the table's name for error messages, e.g. its file name
   * @throws IllegalArgumentException naming the line and the field, if a line is malformed, a currency unknown, a
   *     rate not positive, a date not ISO {@code yyyy-mm-dd}, a source blank, or a pair given twice
   * @throws UncheckedIOException if the reader fails
   */
  public static ExchangeRates fromCsv(Reader reader, String name) {
    checkNotNull(reader, "reader");
    checkNotNull(name, "name");
    Map<Pair, ExchangeRate> parsed = new LinkedHashMap<>();
    Splitter splitter = Splitter.on(',').trimResults();
    try (BufferedReader lines = new BufferedReader(reader)) {
      String line;
      int number = 0;
      boolean headerSeen = false;
      while ((line = lines.readLine()) != null) {
        number++;
        String stripped = line.strip();
        if (stripped.isEmpty() || stripped.startsWith("#")) {
          continue;
        }
        if (!headerSeen) {
          checkArgument(stripped.equals(HEADER), "%s line %s: header must be '%s', was '%s'",
              name, number, HEADER, stripped);
          headerSeen = true;
          continue;
        }
        List<String> fields = splitter.splitToList(stripped);
        checkArgument(fields.size() == 5, "%s line %s: expected 5 fields (%s), found %s in '%s'",
            name, number, HEADER, fields.size(), stripped);
        ExchangeRate rate = parseLine(fields, name, number);
        ExchangeRate earlier = parsed.put(new Pair(rate.from(), rate.to()), rate);
        checkArgument(earlier == null && !parsed.containsKey(new Pair(rate.to(), rate.from())),
            "%s line %s: %s->%s is given twice (or with its inverse)", name, number,
            rate.from().getCurrencyCode(), rate.to().getCurrencyCode());
      }
      checkArgument(headerSeen, "%s: empty table, expected the header '%s'", name, HEADER);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read exchange rates " + name, e);
    }
    return new ExchangeRates(parsed);
  }

  private static ExchangeRate parseLine(List<String> fields, String name, int number) {
    String where = name + " line " + number + ": ";
    Currency from;
    Currency to;
    BigDecimal rate;
    LocalDate date;
    try {
      from = Money.currency(fields.get(0));
      to = Money.currency(fields.get(1));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + e.getMessage(), e);
    }
    try {
      rate = new BigDecimal(fields.get(2));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(where + "rate must be a decimal number, was '" + fields.get(2) + "'", e);
    }
    try {
      date = LocalDate.parse(fields.get(3));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(where + "date must be yyyy-mm-dd, was '" + fields.get(3) + "'", e);
    }
    try {
      return new ExchangeRate(from, to, rate, Optional.of(date), fields.get(4));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + e.getMessage(), e);
    }
  }

  /**
   * A copy with {@code rate} for its pair; a rate given earlier for the same pair or its inverse is replaced.
   */
  public ExchangeRates with(ExchangeRate rate) {
    checkNotNull(rate, "rate");
    Map<Pair, ExchangeRate> copy = new LinkedHashMap<>(rates);
    copy.remove(new Pair(rate.to(), rate.from()));
    copy.remove(new Pair(rate.from(), rate.to()));
    copy.put(new Pair(rate.from(), rate.to()), rate);
    return new ExchangeRates(copy);
  }

  /**
   * A copy where one unit of {@code from} buys {@code rate} units of {@code to} (undated, "given by the caller").
   *
   * @throws IllegalArgumentException if the rate is not positive or the currencies are the same
   */
  public ExchangeRates with(Currency from, Currency to, BigDecimal rate) {
    return with(new ExchangeRate(from, to, rate, Optional.empty(), "given by the caller"));
  }

  /** As {@link #with(Currency, Currency, BigDecimal)} from ISO codes and a decimal string: {@code with("USD", "CNY", "7.10")}. */
  public ExchangeRates with(String from, String to, String rate) {
    checkNotNull(rate, "rate");
    try {
      return with(Money.currency(from), Money.currency(to), new BigDecimal(rate.strip()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("exchange rate must be a decimal number, was '" + rate + "'", e);
    }
  }

  /** The rates as given (not derived), in the order given. */
  public ImmutableList<ExchangeRate> rates() {
    return rates.values().asList();
  }

  /** Every currency some given rate mentions, sorted by ISO code. */
  public ImmutableSortedSet<Currency> currencies() {
    ImmutableSortedSet.Builder<Currency> all =
        ImmutableSortedSet.orderedBy(Comparator.comparing(Currency::getCurrencyCode));
    for (Pair p : rates.keySet()) {
      all.add(p.from()).add(p.to());
    }
    return all.build();
  }

  /**
   * The rate from one currency to another: given, inverted or crossed through one pivot (see the class comment).
   *
   * @throws IllegalArgumentException if the currencies are the same
   * @throws UnknownExchangeRateException if no rate connects them, naming the pair and the known currencies
   */
  public ExchangeRate rate(Currency from, Currency to) {
    checkNotNull(from, "from");
    checkNotNull(to, "to");
    checkArgument(!from.equals(to), "no exchange rate needed from %s to itself", from);
    Optional<ExchangeRate> direct = directOrInverse(from, to);
    if (direct.isPresent()) {
      return direct.get();
    }
    Set<Currency> known = currencies();
    for (Currency pivot : known) {
      if (pivot.equals(from) || pivot.equals(to)) {
        continue;
      }
      Optional<ExchangeRate> first = directOrInverse(from, pivot);
      Optional<ExchangeRate> second = directOrInverse(pivot, to);
      if (first.isPresent() && second.isPresent()) {
        return first.get().then(second.get());
      }
    }
    throw new UnknownExchangeRateException(from, to, known);
  }

  private Optional<ExchangeRate> directOrInverse(Currency from, Currency to) {
    ExchangeRate direct = rates.get(new Pair(from, to));
    if (direct != null) {
      return Optional.of(direct);
    }
    return Optional.ofNullable(rates.get(new Pair(to, from))).map(ExchangeRate::inverse);
  }

  /**
   * {@code money} in {@code target}: unchanged and not marked when already in {@code target}, otherwise multiplied
   * exactly by the rate {@link #rate} finds and marked as converted.
   *
   * @throws UnknownExchangeRateException if no rate connects the currencies
   */
  public PriceQuote convert(Money money, Currency target) {
    checkNotNull(money, "money");
    checkNotNull(target, "target");
    if (money.currency().equals(target)) {
      return PriceQuote.of(money);
    }
    ExchangeRate rate = rate(money.currency(), target);
    return new PriceQuote(money.convertTo(target, rate.rate()), money, Optional.of(rate));
  }

  @Override
  public String toString() {
    return "ExchangeRates" + rates.values();
  }

  /** Loads the bundled table once, on first use. */
  private static final class Bundled {
    static final ExchangeRates RATES = load();

    private static ExchangeRates load() {
      InputStream in = ExchangeRates.class.getResourceAsStream(RESOURCE);
      if (in == null) {
        throw new IllegalStateException("bundled exchange rates missing from the class path: "
            + ExchangeRates.class.getPackageName().replace('.', '/') + "/" + RESOURCE);
      }
      return fromCsv(new InputStreamReader(in, StandardCharsets.UTF_8), RESOURCE);
    }
  }
}
