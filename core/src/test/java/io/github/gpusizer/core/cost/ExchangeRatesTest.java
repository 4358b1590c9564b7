package io.github.gpusizer.core.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.catalog.Money;
import java.io.StringReader;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Currency;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExchangeRatesTest {

  private static final Currency EUR = Money.currency("EUR");
  private static final Currency USD = Money.currency("USD");
  private static final Currency CNY = Money.currency("CNY");
  private static final Currency BRL = Money.currency("BRL");
  private static final BigDecimal ULP = new BigDecimal("1e-30");

  private final ExchangeRates bundled = ExchangeRates.bundled();

  @Test
  void bundled_rates_are_the_ecb_reference_rates_of_a_stated_day() {
    ExchangeRate eurCny = bundled.rate(EUR, CNY);

    assertThat(eurCny.rate()).isEqualByComparingTo("8.1838");
    assertThat(eurCny.date()).contains(LocalDate.of(2026, 2, 6));
    assertThat(eurCny.source()).contains("ECB");
    assertThat(bundled.rate(EUR, USD).rate()).isEqualByComparingTo("1.1794");
    assertThat(bundled.currencies()).extracting(Currency::getCurrencyCode)
        .contains("EUR", "USD", "CNY", "JPY", "GBP", "HKD", "SGD", "INR");
    assertThat(bundled.rates()).allSatisfy(r -> assertThat(r.from()).isEqualTo(EUR));
  }

  @Test
  void inverse_rates_are_derived() {
    ExchangeRate cnyEur = bundled.rate(CNY, EUR);

    assertThat(cnyEur.rate().multiply(new BigDecimal("8.1838")).subtract(BigDecimal.ONE).abs()).isLessThan(ULP);
    assertThat(cnyEur.source()).startsWith("inverse of EUR->CNY 8.1838");
    assertThat(cnyEur.date()).contains(LocalDate.of(2026, 2, 6));
  }

  @Test
  void cross_rates_go_through_the_euro() {
    ExchangeRate usdCny = bundled.rate(USD, CNY);

    BigDecimal expected = new BigDecimal("8.1838").divide(new BigDecimal("1.1794"), Decimals.MATH);
    assertThat(usdCny.rate().subtract(expected).abs()).isLessThan(ULP);
    assertThat(usdCny.source()).startsWith("cross through EUR");
    assertThat(usdCny.date()).contains(LocalDate.of(2026, 2, 6));
  }

  @Test
  void unknown_pair_names_the_pair_and_the_known_currencies() {
    assertThatThrownBy(() -> bundled.rate(USD, BRL))
        .isInstanceOfSatisfying(UnknownExchangeRateException.class, e -> {
          assertThat(e.from()).isEqualTo(USD);
          assertThat(e.to()).isEqualTo(BRL);
          assertThat(e.knownCurrencies()).contains("CNY", "EUR", "USD").doesNotContain("BRL");
        })
        .hasMessageContaining("USD->BRL").hasMessageContaining("known currencies: AUD, CAD");
    assertThatThrownBy(() -> ExchangeRates.empty().convert(Money.of("1", "USD"), CNY))
        .isInstanceOf(UnknownExchangeRateException.class).hasMessageContaining("known currencies: none");
  }

  @Test
  void caller_rates_replace_bundled_ones_in_one_call() {
    ExchangeRates mine = bundled.with("CNY", "EUR", "0.125");

    assertThat(mine.rate(EUR, CNY).rate()).isEqualByComparingTo("8");   // the old EUR->CNY is gone
    assertThat(mine.rate(EUR, CNY).source()).startsWith("inverse of CNY->EUR 0.125");
    assertThat(bundled.rate(EUR, CNY).rate()).as("bundled unchanged").isEqualByComparingTo("8.1838");
  }

  @Test
  void rates_against_one_base_come_from_a_map() {
    ExchangeRates rates = ExchangeRates.of(USD, Map.of(CNY, new BigDecimal("7.10"), EUR, new BigDecimal("0.86")));

    assertThat(rates.rate(USD, CNY).rate()).isEqualByComparingTo("7.10");
    assertThat(rates.rate(USD, CNY).date()).isEmpty();
    assertThat(rates.rate(EUR, CNY).source()).startsWith("cross through USD");
  }

  @Test
  void a_converted_amount_is_marked_and_an_unconverted_one_is_not() {
    PriceQuote usd = bundled.convert(Money.of("16.72", "CNY"), USD);
    PriceQuote same = bundled.convert(Money.of("16.72", "CNY"), CNY);

    assertThat(usd.converted()).isTrue();
    assertThat(usd.original().isEqualTo(Money.of("16.72", "CNY"))).isTrue();
    assertThat(usd.amount().currency()).isEqualTo(USD);
    assertThat(usd.amount().amount().doubleValue()).isBetween(2.40, 2.42);   // 16.72 × 1.1794 / 8.1838
    assertThat(usd.toString()).contains("converted from 16.72 CNY").contains("2026-02-06");
    assertThat(same.converted()).isFalse();
    assertThat(same.rate()).isEmpty();
  }

  @Test
  void rejects_non_positive_rates_and_a_currency_against_itself() {
    assertThatThrownBy(() -> bundled.with("USD", "CNY", "0")).hasMessageContaining("must be > 0, was 0");
    assertThatThrownBy(() -> bundled.with("USD", "CNY", "seven")).hasMessageContaining("'seven'");
    assertThatThrownBy(() -> bundled.with("USD", "USD", "1")).hasMessageContaining("two different currencies");
    assertThatThrownBy(() -> bundled.rate(USD, USD)).hasMessageContaining("itself");
  }

  @Test
  void csv_tables_are_read_strictly_with_line_numbers() {
    String header = "# comment\nfrom,to,rate,date,source\n";

    assertThat(csv(header + "EUR,USD,1.1,2026-01-02,test\n").rate(EUR, USD).rate()).isEqualByComparingTo("1.1");
    assertThatThrownBy(() -> csv("from,to,rate\n")).hasMessageContaining("t.csv line 1: header must be");
    assertThatThrownBy(() -> csv(header + "EUR,USD,1.1,2026-01-02\n"))
        .hasMessageContaining("t.csv line 3: expected 5 fields").hasMessageContaining("found 4");
    assertThatThrownBy(() -> csv(header + "EUR,QQQ,1.1,2026-01-02,test\n"))
        .hasMessageContaining("t.csv line 3: currency must be an ISO 4217 code").hasMessageContaining("'QQQ'");
    assertThatThrownBy(() -> csv(header + "EUR,USD,-1,2026-01-02,test\n"))
        .hasMessageContaining("t.csv line 3: exchange rate EUR->USD must be > 0, was -1");
    assertThatThrownBy(() -> csv(header + "EUR,USD,1.1,02/01/2026,test\n"))
        .hasMessageContaining("t.csv line 3: date must be yyyy-mm-dd, was '02/01/2026'");
    assertThatThrownBy(() -> csv(header + "EUR,USD,1.1,2026-01-02, \n"))
        .hasMessageContaining("t.csv line 3: exchange rate EUR->USD needs a source");
    assertThatThrownBy(() -> csv(header + "EUR,USD,1.1,2026-01-02,a\nUSD,EUR,0.9,2026-01-02,b\n"))
        .hasMessageContaining("t.csv line 4: USD->EUR is given twice");
    assertThatThrownBy(() -> csv("# only a comment\n")).hasMessageContaining("t.csv: empty table");
  }

  private static ExchangeRates csv(String text) {
    return ExchangeRates.fromCsv(new StringReader(text), "t.csv");
  }
}
