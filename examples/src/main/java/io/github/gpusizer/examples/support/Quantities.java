package io.github.gpusizer.examples.support;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.gpusizer.catalog.Money;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Currency;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the quantities people type on a command line: counts with SI suffixes ({@code 7B}, {@code 1.5T},
 * {@code 50M}, {@code 2k}), durations ({@code 24h}, {@code 1d12h}, {@code PT36H}), money ({@code 2000CNY}) and
 * exchange rates ({@code CNY:USD=0.14}).
 *
 * <pre>{@code
 * double tokens = Quantities.number("--tokens", "50M");          // 5.0E7
 * long params = Quantities.count("--params", "7B");              // 7_000_000_000
 * Duration deadline = Quantities.duration("--deadline", "24h");  // PT24H
 * }</pre>
 *
 * <p>Suffixes are decimal: k = 10^3, M = 10^6, B or G = 10^9, T = 10^12 (case-insensitive); Ki, Mi, Gi are binary
 * (2^10, 2^20, 2^30), so a 4096-token context is {@code 4Ki} or {@code 4096}, while {@code 4k} is 4000.
 * Underscores may group digits ({@code 6_738_415_616}).
 */
public final class Quantities {
  private static final Pattern NUMBER =
      Pattern.compile("([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?)\\s*([a-zA-Z]{0,2})");
  private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(w|d|h|min|m|s)");
  private static final Pattern MONEY_SUFFIX = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([A-Za-z]{3})?");
  private static final Pattern MONEY_PREFIX = Pattern.compile("([A-Za-z]{3})\\s*(\\d+(?:\\.\\d+)?)");
  private static final Pattern RATE =
      Pattern.compile("([A-Za-z]{3})\\s*[:/]\\s*([A-Za-z]{3})\\s*=\\s*(\\d{1,40}(?:\\.\\d{1,40})?(?:[eE][+-]?\\d{1,9})?)");

  public static final String NUMBER_FORMS = "a number such as 7e9, 7B, 1.5T, 50M, 2k or 4Ki";
  public static final String DURATION_FORMS = "a duration such as 24h, 90m, 2d, 1d12h, 3600s or PT24H";
  public static final String MONEY_FORMS = "an amount with an ISO 4217 currency such as 2000CNY, 300 USD or 2000 (in --currency)";
  public static final String RATE_FORMS = "a rate FROM:TO=RATE such as CNY:USD=0.14 (1 CNY buys 0.14 USD)";

  private Quantities() {}

  /**
   * A non-negative number with an optional SI or binary suffix.
   *
   * @param field the option or field the text is for, named in the error message
   * @throws IllegalArgumentException if the text is not such a number or is negative
   */
  public static double number(String field, String text) {
    String clean = text == null ? "" : text.strip().replace("_", "");
    Matcher m = NUMBER.matcher(clean);
    checkArgument(m.matches(), "%s must be %s, was '%s'", field, NUMBER_FORMS, text);
    double value = Double.parseDouble(m.group(1)) * multiplier(field, m.group(2), text);
    checkArgument(Double.isFinite(value) && value >= 0, "%s must be a finite number >= 0, was '%s'", field, text);
    return value;
  }

  /**
   * A whole, non-negative number with an optional suffix ({@code 7B} = 7,000,000,000).
   *
   * @throws IllegalArgumentException if the text is not a number, not whole, or beyond {@code long}
   */
  public static long count(String field, String text) {
    double value = number(field, text);
    checkArgument(value < 0x1p63, "%s must be below 2^63, was '%s'", field, text);
    checkArgument(value == Math.rint(value), "%s must be a whole number, was '%s' (= %s)", field, text, value);
    // Parse exactly where the text is a plain integer, so 6738415616 does not pass through a double's rounding.
    String plain = text.strip().replace("_", "");
    if (plain.matches("\\d{1,18}")) {
      return Long.parseLong(plain);
    }
    return (long) value;
  }

  /**
   * A whole number in {@code [min, Integer.MAX_VALUE]}.
   *
   * @throws IllegalArgumentException if the text is not a whole number or is below {@code min}
   */
  public static int integer(String field, String text, int min) {
    long value = count(field, text);
    checkArgument(value >= min && value <= Integer.MAX_VALUE, "%s must be a whole number in %s..%s, was '%s'",
        field, min, Integer.MAX_VALUE, text);
    return (int) value;
  }

  private static double multiplier(String field, String suffix, String text) {
    switch (suffix.toLowerCase(Locale.ROOT)) {
      case "":
        return 1;
      case "k":
        return 1e3;
      case "m":
        return 1e6;
      case "b":
      case "g":
        return 1e9;
      case "t":
        return 1e12;
      case "ki":
        return 1024;
      case "mi":
        return 1024.0 * 1024;
      case "gi":
        return 1024.0 * 1024 * 1024;
      default:
        throw new IllegalArgumentException(String.format(Locale.ROOT,
            "%s has an unknown suffix '%s' in '%s'; use k, M, B (or G), T, Ki, Mi or Gi", field, suffix, text));
    }
  }

  /**
   * A positive duration: {@code 24h}, {@code 90m}, {@code 1.5h}, {@code 2d}, {@code 1w}, {@code 1d12h},
   * {@code 3600s}, or ISO-8601 {@code PT24H}.
   *
   * @throws IllegalArgumentException if the text is none of these or not positive
   */
  /**
   * The longest duration an option takes: 100 years, beyond any job, and a third of what the engine's nanosecond
   * arithmetic carries (2^63 ns, 292 years), so that sums of a few such durations never overflow.
   */
  public static final Duration MAX_DURATION = Duration.ofDays(36_525);

  public static Duration duration(String field, String text) {
    String clean = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    Duration result;
    if (clean.startsWith("p")) {
      try {
        result = Duration.parse(clean.toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            String.format(Locale.ROOT, "%s must be %s, was '%s'", field, DURATION_FORMS, text), e);
      }
    } else {
      Matcher m = DURATION_PART.matcher(clean);
      double seconds = 0;
      int end = 0;
      while (m.find() && m.start() == end) {
        double amount = Double.parseDouble(m.group(1));
        seconds += amount * unitSeconds(m.group(2));
        end = m.end();
        while (end < clean.length() && clean.charAt(end) == ' ') {
          end++;
        }
      }
      checkArgument(end > 0 && end == clean.length(), "%s must be %s, was '%s'", field, DURATION_FORMS, text);
      checkArgument(seconds <= MAX_DURATION.getSeconds(), "%s must be at most 100 years (36525d), was '%s'", field,
          text);
      result = Duration.ofMillis(Math.round(seconds * 1000));
    }
    checkArgument(!result.isNegative() && !result.isZero(), "%s must be > 0, was '%s'", field, text);
    checkArgument(result.compareTo(MAX_DURATION) <= 0, "%s must be at most 100 years (36525d), was '%s'", field, text);
    return result;
  }

  /**
   * A duration as {@link #duration} reads it back, rounded up to the minute (to the second below 10 minutes):
   * {@code 53m}, {@code 1d2h5m}, {@code 45s}.
   */
  public static String format(Duration d) {
    long seconds = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
    if (seconds >= 600) {
      seconds = (seconds + 59) / 60 * 60;
    }
    StringBuilder s = new StringBuilder();
    long days = seconds / 86_400;
    long hours = seconds % 86_400 / 3600;
    long minutes = seconds % 3600 / 60;
    long secs = seconds % 60;
    if (days > 0) {
      s.append(days).append('d');
    }
    if (hours > 0) {
      s.append(hours).append('h');
    }
    if (minutes > 0) {
      s.append(minutes).append('m');
    }
    if (secs > 0 || s.length() == 0) {
      s.append(secs).append('s');
    }
    return s.toString();
  }

  private static double unitSeconds(String unit) {
    switch (unit) {
      case "w":
        return 7 * 86_400;
      case "d":
        return 86_400;
      case "h":
        return 3_600;
      case "m":
      case "min":
        return 60;
      default:
        return 1;
    }
  }

  /**
   * An amount of money, {@code 2000CNY}, {@code 2000 CNY}, {@code CNY2000}; a bare {@code 2000} is in
   * {@code defaultCurrency}.
   *
   * @throws IllegalArgumentException if the text is not an amount or the code is not an ISO 4217 currency
   */
  public static Money money(String field, String text, Currency defaultCurrency) {
    String clean = text == null ? "" : text.strip().replace("_", "");
    Matcher suffix = MONEY_SUFFIX.matcher(clean);
    Matcher prefix = MONEY_PREFIX.matcher(clean);
    String amount;
    Optional<String> code;
    if (suffix.matches()) {
      amount = suffix.group(1);
      code = Optional.ofNullable(suffix.group(2));
    } else if (prefix.matches()) {
      amount = prefix.group(2);
      code = Optional.of(prefix.group(1));
    } else {
      throw new IllegalArgumentException(
          String.format(Locale.ROOT, "%s must be %s, was '%s'", field, MONEY_FORMS, text));
    }
    Currency currency = code.isPresent() ? currency(field, code.get()) : defaultCurrency;
    return Money.of(new BigDecimal(amount), currency);
  }

  /**
   * An ISO 4217 currency code, case-insensitive.
   *
   * @throws IllegalArgumentException naming the field if the code is unknown
   */
  public static Currency currency(String field, String code) {
    try {
      return Money.currency(code);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "%s must use an ISO 4217 currency code such as USD, CNY or EUR, was '%s'", field, code), e);
    }
  }

  /** One exchange rate: one unit of {@code from} buys {@code rate} units of {@code to}. */
  public record Rate(Currency from, Currency to, BigDecimal rate) {
    /** The smallest rate accepted: one unit of the dearest currency buys about 1e5 of the cheapest. */
    public static final BigDecimal MIN = new BigDecimal("1e-9");
    /** The largest rate accepted. */
    public static final BigDecimal MAX = new BigDecimal("1e9");

    public Rate {
      checkArgument(rate.signum() > 0, "exchange rate %s:%s must be > 0, was %s", from, to, rate);
      checkArgument(rate.compareTo(MIN) >= 0 && rate.compareTo(MAX) <= 0,
          "exchange rate %s:%s must be between 1e-9 and 1e9 (one %s buys RATE %s), was %s", from, to, from, to,
          rate.round(MathContext.DECIMAL32));
      checkArgument(!from.equals(to), "exchange rate must be between two different currencies, was %s:%s", from, to);
    }

    @Override
    public String toString() {
      return from.getCurrencyCode() + ":" + to.getCurrencyCode() + "=" + rate.toPlainString();
    }
  }

  /**
   * Checks rates given together: a pair may be given once, and a pair and its reverse must agree (their product
   * within 2 % of 1, room for a bid-ask spread).
   *
   * @throws IllegalArgumentException naming both rates
   */
  public static void checkRates(String field, java.util.List<Rate> rates) {
    java.util.Map<String, Rate> seen = new java.util.HashMap<>();
    for (Rate r : rates) {
      String pair = r.from().getCurrencyCode() + ":" + r.to().getCurrencyCode();
      Rate before = seen.putIfAbsent(pair, r);
      checkArgument(before == null, "%s %s is given twice (%s and %s); give each pair once", field, pair,
          before == null ? "" : before.rate().toPlainString(), r.rate().toPlainString());
      Rate reverse = seen.get(r.to().getCurrencyCode() + ":" + r.from().getCurrencyCode());
      if (reverse != null) {
        BigDecimal product = r.rate().multiply(reverse.rate(), MathContext.DECIMAL64);
        checkArgument(product.compareTo(new BigDecimal("0.98")) >= 0 && product.compareTo(new BigDecimal("1.02")) <= 0,
            "%s %s and %s contradict each other: %s × %s = %s, not 1 (within 2%); give one direction",
            field, reverse, r, reverse.rate().toPlainString(), r.rate().toPlainString(),
            product.round(new MathContext(4)).stripTrailingZeros().toPlainString());
      }
    }
  }

  /**
   * An exchange rate {@code FROM:TO=RATE}, e.g. {@code CNY:USD=0.14}.
   *
   * @throws IllegalArgumentException if the text is not of that form, a code is unknown or the rate is not > 0
   */
  public static Rate rate(String field, String text) {
    // Digits and exponent are bounded by the pattern, and the value by Rate's range before anything prints it
    // (the plain form of 1e-999999999 is a billion digits).
    Matcher m = RATE.matcher(text == null ? "" : text.strip());
    checkArgument(m.matches(), "%s must be %s, was '%s'", field, RATE_FORMS, text);
    return new Rate(currency(field, m.group(1)), currency(field, m.group(2)), new BigDecimal(m.group(3)));
  }
}
