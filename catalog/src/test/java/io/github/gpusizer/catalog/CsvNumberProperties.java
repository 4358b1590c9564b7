package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The hand-written number scanner of {@link CsvTable} accepts exactly what its documented pattern does. */
class CsvNumberProperties {
  /** The pattern the loaders used before the scanner, as CsvTable.isNumber documents it. */
  private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d{1,4})?");
  /** Characters numbers are made of, and a few that are not. */
  private static final String ALPHABET = "0123456789+-.eE x,٣";

  private static String text(List<Integer> indexes) {
    return indexes.stream().map(i -> String.valueOf(ALPHABET.charAt(i))).collect(Collectors.joining());
  }

  @Test
  void scanner_accepts_exactly_what_the_pattern_matches() {
    qt().withExamples(20_000)
        .forAll(lists().of(integers().between(0, ALPHABET.length() - 1)).ofSizeBetween(0, 9))
        .check(indexes -> CsvTable.isNumber(text(indexes)) == NUMBER.matcher(text(indexes)).matches());
  }

  @Test
  void every_accepted_cell_parses_as_a_big_decimal() {
    // digits, sign, point and exponent only, so that a good share of the texts are numbers
    qt().withExamples(20_000)
        .forAll(lists().of(integers().between(0, 13)).ofSizeBetween(1, 7))
        .check(indexes -> !CsvTable.isNumber(text(indexes)) || new BigDecimal(text(indexes)).signum() >= -1);
  }

  @Test
  void typical_cells() {
    assertThat(List.of("0", "8", "8.0", "-1.5", "+2", ".5", "5.", "1e5", "2.09E-3", "1e1234"))
        .allMatch(CsvTable::isNumber);
    assertThat(List.of("", ".", "+", "-.", "e5", "1e", "1e+", "1e12345", "1.2.3", " 1", "1 ", "٣", "NaN",
        "Infinity", "0x10")).noneMatch(CsvTable::isNumber);
  }
}
