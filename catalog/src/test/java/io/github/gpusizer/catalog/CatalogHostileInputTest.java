package io.github.gpusizer.catalog;

import static io.github.gpusizer.catalog.Fixtures.offeringHeader;
import static io.github.gpusizer.catalog.Fixtures.offeringRow;
import static io.github.gpusizer.catalog.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile and confusing input to the public catalog API: look-alike characters, huge files, extreme numbers and
 * failed loads. Each fails with the documented exception and a message naming the place and the rule, quickly and
 * without touching any other catalog.
 */
class CatalogHostileInputTest {
  @TempDir
  Path dir;

  @Test
  void cyrillic_look_alike_in_a_gpu_name_is_unknown_and_the_letter_is_named() {
    // GIVEN "А100" whose first letter is CYRILLIC CAPITAL LETTER A (U+0410)
    // WHEN it is looked up  THEN it is unknown, the message names the letter and suggests the Latin spelling
    UnknownGpuException e = catchThrowableOfType(UnknownGpuException.class,
        () -> Catalog.bundled().gpu("\u0410100"));
    assertThat(e).hasMessageContaining("U+0410 CYRILLIC CAPITAL LETTER A, not an ASCII character");
    assertThat(e.suggestions()).contains("a100-sxm4-40gb");
  }

  @Test
  void a_look_alike_letter_is_not_dropped_into_another_gpus_name() {
    // GIVEN "A10О" with a CYRILLIC CAPITAL LETTER O: dropping it would leave "A10", another GPU
    Catalog catalog = Catalog.bundled();
    assertThat(catalog.findGpu("A10")).isPresent();

    // WHEN looked up  THEN nothing is found, rather than the A10
    assertThat(catalog.findGpu("A10\u041E")).isEmpty();
    assertThatThrownBy(() -> catalog.gpu("A10\u041E")).isInstanceOf(UnknownGpuException.class)
        .hasMessageContaining("U+041E CYRILLIC CAPITAL LETTER O");
  }

  @Test
  void full_width_characters_are_the_same_name() {
    // GIVEN "Ａ１００ ８０ＧＢ" typed in full-width forms (as a CJK input method does)
    // WHEN looked up  THEN it is the A100 80GB: full-width letters are compatibility forms of ASCII (NFKC)
    Catalog catalog = Catalog.bundled();
    assertThat(catalog.gpu("\uFF21\uFF11\uFF10\uFF10 \uFF18\uFF10\uFF27\uFF22")).isSameAs(catalog.gpu("A100 80GB"));
  }

  @Test
  void look_alike_gpu_in_an_offerings_file_names_line_column_and_letter() {
    // GIVEN an offering whose GPU is written "Т4" with a CYRILLIC CAPITAL LETTER TE
    Path file = write(dir, "offerings.csv", offeringHeader(), offeringRow("aws", "g4", "us-east-1", "\u04224", "1"));

    // WHEN loaded  THEN the load fails at line 2, column gpu, naming the letter
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> Catalog.load(file));
    assertThat(e.line()).hasValue(2);
    assertThat(e.column()).contains("gpu");
    assertThat(e).hasMessageContaining("U+0422 CYRILLIC CAPITAL LETTER TE");
  }

  @Test
  void a_million_columns_fail_fast_with_a_readable_message() throws IOException {
    // GIVEN a header of a million columns (about 7 MB)
    Path file = dir.resolve("wide.csv");
    Files.writeString(file, IntStream.range(0, 1_000_000).mapToObj(i -> "c" + i).collect(Collectors.joining(","))
        + "\n");

    // WHEN loaded  THEN it fails within seconds, and the message does not repeat the whole header
    CatalogException e = assertTimeout(Duration.ofSeconds(20),
        () -> catchThrowableOfType(CatalogException.class, () -> Catalog.load(file)));
    assertThat(e.line()).hasValue(1);
    assertThat(e.getMessage()).contains("characters long, more than the 65,536 a catalog line may have")
        .hasSizeLessThan(2000);
  }

  @Test
  void a_row_of_a_million_cells_is_refused_for_its_length() {
    // GIVEN an offerings file whose second line has a million cells
    Path file = write(dir, "offerings.csv", offeringHeader(), ",".repeat(999_999));

    // WHEN loaded  THEN the line is refused for its length before its million cells are split
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> Catalog.load(file));
    assertThat(e.line()).hasValue(2);
    assertThat(e.problem()).isEqualTo("is 999,999 characters long, more than the 65,536 a catalog line may have");
  }

  @Test
  void binary_file_is_not_text() throws IOException {
    Path file = dir.resolve("weights.bin");
    Files.write(file, new byte[] {0, 1, 2, (byte) 0xff, (byte) 0xfe, 0x7f});
    assertThatThrownBy(() -> Catalog.load(file)).isInstanceOf(CatalogException.class)
        .hasMessage(file + ": not valid UTF-8 text");
  }

  @Test
  void extreme_numbers_in_an_offering_are_rejected_with_the_line_and_rule() {
    // 10^12 GPUs in one machine, RAM beyond a long of bytes, and a price with an exponent beyond any currency
    assertThat(loadFails(offeringRow("aws", "x", "r", "T4", "1").replace(",1,8,", ",1e12,8,")))
        .hasMessageEndingWith("line 2, column gpu_count: must be a whole number >= 1, was '1e12'");
    assertThat(loadFails(offeringRow("aws", "x", "r", "T4", "1").replace(",32,100,", ",1e300,100,")))
        .hasMessageContaining("line 2: ").hasMessageContaining("size must be a finite number of bytes");
    assertThat(loadFails(offeringRow("aws", "x", "r", "T4", "1e99999")))
        .hasMessageEndingWith("line 2, column price_per_hour: must be a number >= 0, was '1e99999'");
  }

  private CatalogException loadFails(String row) {
    Path file = write(dir, "offerings.csv", offeringHeader(), row);
    return catchThrowableOfType(CatalogException.class, () -> Catalog.load(file));
  }

  @Test
  void a_failed_load_changes_no_catalog() {
    // GIVEN the bundled catalog and a catalog loaded from a good file
    Catalog bundled = Catalog.bundled();
    String before = bundled.gpus().toString() + bundled.offerings();
    Path good = write(dir, "good/offerings.csv", offeringHeader(), offeringRow("aws", "g4", "us-east-1", "T4", "1"));
    Catalog first = Catalog.load(good);

    // WHEN a load fails on the last row of its last file
    Path bad = write(dir, "bad/offerings.csv", offeringHeader(), offeringRow("aws", "g5", "us-east-1", "T4", "1"),
        offeringRow("aws", "g6", "us-east-1", "T4", "-1"));
    assertThatThrownBy(() -> Catalog.load(good, bad)).isInstanceOf(CatalogException.class);

    // THEN the bundled catalog is the same object with the same data, and loading again gives the same result
    assertThat(Catalog.bundled()).isSameAs(bundled);
    assertThat(bundled.gpus().toString() + bundled.offerings()).isEqualTo(before);
    Catalog again = Catalog.load(good);
    assertThat(again.gpus()).isEqualTo(first.gpus());
    assertThat(again.offerings()).isEqualTo(first.offerings());
  }

  @Test
  void hostile_money_text_fails_at_once_instead_of_exhausting_memory() {
    // "1e999999999" is a valid BigDecimal, but printing it would build a string of a billion digits
    assertThat(assertTimeout(Duration.ofSeconds(5), () -> catchThrowableOfType(IllegalArgumentException.class,
        () -> Money.of("1e999999999", "USD"))))
        .hasMessage("amount must have at most 1000 digits before and after the decimal point, was '1e999999999'");
    assertThatThrownBy(() -> Money.of("1e-999999999", "USD")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Money.of("NaN", "USD")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("amount must be a decimal number such as 2.09, was 'NaN'");
    assertThatThrownBy(() -> Money.of("1", "usd\u0000")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ISO 4217");
  }

  @Test
  void a_file_past_the_size_limit_is_refused_before_it_is_parsed() throws Exception {
    // GIVEN an offerings file one byte past 32 MiB (a comment line padding a valid header)
    Path file = dir.resolve("offerings.csv");
    StringBuilder big = new StringBuilder(offeringHeader()).append('\n');
    String pad = "#" + "x".repeat(1000) + "\n";
    while (big.length() <= CsvTable.MAX_FILE_BYTES) {
      big.append(pad);
    }
    java.nio.file.Files.writeString(file, big);
    // WHEN loaded  THEN it fails naming the file and the limit
    assertThatThrownBy(() -> Catalog.load(file)).isInstanceOf(CatalogException.class)
        .hasMessageContaining("is more than 33,554,432 bytes (32 MiB), the most a catalog file may hold");
  }

  @Test
  void a_line_past_the_length_limit_is_refused_naming_it() {
    // GIVEN a 200,000-character line on line 2
    String text = "a,b\n" + "x".repeat(200_000) + ",y\n";
    // WHEN parsed  THEN line 2 is named with its length
    CatalogException e = catchThrowableOfType(CatalogException.class, () -> CsvTable.parse("f.csv", text));
    assertThat(e.line()).hasValue(2);
    assertThat(e.problem()).isEqualTo("is 200,002 characters long, more than the 65,536 a catalog line may have");
  }

  @Test
  void rows_past_the_row_limit_are_refused_naming_the_first_line_over() {
    // GIVEN a header and one row more than the limit
    String text = "a,b\n" + "1,2\n".repeat(CsvTable.MAX_ROWS + 1);
    // WHEN its rows are read  THEN the first row over is named
    CatalogException e = catchThrowableOfType(CatalogException.class,
        () -> CsvTable.parse("f.csv", text).rows().forEach(row -> {}));
    assertThat(e.line()).hasValue(CsvTable.MAX_ROWS + 2);
    assertThat(e.problem()).isEqualTo("is past the 250,000 rows a catalog file may have; split the file");
  }
}
