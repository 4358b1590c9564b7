package io.github.gpusizer.catalog;

import static io.github.gpusizer.catalog.Fixtures.gpuHeader;
import static io.github.gpusizer.catalog.Fixtures.gpuRow;
import static io.github.gpusizer.catalog.Fixtures.offeringHeader;
import static io.github.gpusizer.catalog.Fixtures.offeringRow;
import static io.github.gpusizer.catalog.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every kind of bad catalog data fails the load with its own message, naming the file, line and column. */
class CatalogBadInputTest {
  @TempDir
  Path dir;

  private static CatalogException loadFails(Path... files) {
    return catchThrowableOfType(CatalogException.class, () -> Fixtures.load(files));
  }

  private Path offerings(String... rows) {
    String[] lines = new String[rows.length + 1];
    lines[0] = offeringHeader();
    System.arraycopy(rows, 0, lines, 1, rows.length);
    return write(dir, "offerings.csv", lines);
  }

  private Path gpus(String... rows) {
    String[] lines = new String[rows.length + 1];
    lines[0] = gpuHeader();
    System.arraycopy(rows, 0, lines, 1, rows.length);
    return write(dir, "gpus.csv", lines);
  }

  @Test
  void non_numeric_price_names_file_line_and_column() {
    // GIVEN an offering whose price is "abc" on line 3
    Path file = offerings(offeringRow("aws", "a", "us-east-1", "T4", "1.0"),
        offeringRow("aws", "b", "us-east-1", "T4", "abc"));

    // WHEN loaded  THEN the error names the file, the line, the column, the rule and the value
    CatalogException e = loadFails(file);
    assertThat(e).hasMessage(file + " line 3, column price_per_hour: must be a number >= 0, was 'abc'");
    assertThat(e.file()).isEqualTo(file.toString());
    assertThat(e.line()).hasValue(3);
    assertThat(e.column()).contains("price_per_hour");
    assertThat(e.columnIndex()).hasValue(9);
    assertThat(e.problem()).isEqualTo("must be a number >= 0, was 'abc'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-0.5", "NaN", "Infinity", "-Infinity", "0x10", "1,5"})
  void negative_or_non_finite_price_is_rejected(String price) {
    Path file = offerings(offeringRow("aws", "a", "us-east-1", "T4", "\"" + price + "\""));
    CatalogException e = loadFails(file);
    assertThat(e.problem()).isEqualTo("must be a number >= 0, was '" + price + "'");
    assertThat(e.line()).hasValue(2);
  }

  @Test
  void unknown_currency_is_rejected() {
    Path file = offerings(offeringRow("aws", "a", "us-east-1", "T4", "1").replace(",USD,", ",XYZ,"));
    CatalogException e = loadFails(file);
    assertThat(e.column()).contains("currency");
    assertThat(e.problem()).isEqualTo("must be an ISO 4217 currency code such as USD, CNY or EUR, was 'XYZ'");
  }

  @Test
  void unknown_enum_value_lists_the_allowed_values() {
    Path file = offerings(offeringRow("aws", "a", "us-east-1", "T4", "1").replace("PER_SECOND", "HOURLY"));
    CatalogException e = loadFails(file);
    assertThat(e.column()).contains("billing");
    assertThat(e.problem()).isEqualTo("must be one of PER_SECOND, PER_MINUTE, PER_HOUR, was 'HOURLY'");
  }

  @Test
  void unknown_vendor_lists_the_vendors() {
    Path file = gpus(gpuRow("my-card", "My Card", "").replace(",NVIDIA,", ",NVDIA,"));
    CatalogException e = loadFails(file);
    assertThat(e.column()).contains("vendor");
    assertThat(e.problem()).isEqualTo("must be one of NVIDIA, AMD, GOOGLE, INTEL, was 'NVDIA'");
  }

  @Test
  void unbalanced_quote_is_malformed_csv_at_the_line_it_opens() {
    Path file = write(dir, "offerings.csv", offeringHeader(),
        offeringRow("aws", "a", "us-east-1", "T4", "1"),
        offeringRow("aws", "\"b", "us-east-1", "T4", "1"),
        offeringRow("aws", "c", "us-east-1", "T4", "1"));
    CatalogException e = loadFails(file);
    assertThat(e.line()).hasValue(3);
    assertThat(e.problem()).isEqualTo(
        "malformed CSV: a quoted cell that starts on this line is never closed (unbalanced '\"')");
  }

  @Test
  void text_after_a_closing_quote_is_malformed_csv() {
    Path file = offerings(offeringRow("aws", "\"a\"b", "us-east-1", "T4", "1"));
    CatalogException e = loadFails(file);
    assertThat(e.line()).hasValue(2);
    assertThat(e.problem()).startsWith("malformed CSV: text follows a closing quote");
  }

  @Test
  void missing_columns_are_named_with_the_expected_header() {
    Path file = write(dir, "offerings.csv", offeringHeader().replace(",billing", ""));
    CatalogException e = loadFails(file);
    assertThat(e.line()).hasValue(1);
    assertThat(e.problem()).isEqualTo("the header lacks column billing; a offerings.csv header has the columns "
        + offeringHeader());
  }

  @Test
  void misspelt_extra_column_is_named() {
    Path file = write(dir, "offerings.csv", offeringHeader() + ",colour");
    CatalogException e = loadFails(file);
    assertThat(e.column()).contains("colour");
    assertThat(e.columnIndex()).hasValue(18);
    assertThat(e.problem()).startsWith("unknown column 'colour'; a offerings.csv header has the columns provider,");
  }

  @Test
  void unrecognisable_header_lists_the_three_formats() {
    Path file = write(dir, "prices.csv", "machine,price", "x,1");
    CatalogException e = loadFails(file);
    assertThat(e.line()).hasValue(1);
    assertThat(e.problem()).startsWith("cannot tell the format from the header machine,price; expected a gpus.csv "
        + "header (id,name,").contains("an offerings.csv header (provider,").contains("a SkyPilot vms.csv header");
  }

  @Test
  void duplicate_and_blank_header_names_are_rejected() {
    CatalogException twice = loadFails(write(dir, "a.csv", offeringHeader() + ",region"));
    assertThat(twice.problem()).isEqualTo("column 'region' appears twice in the header (columns 3 and 18)");
    CatalogException blank = loadFails(write(dir, "b.csv", "provider,,instance_type"));
    assertThat(blank.problem()).startsWith("column 2 of the header has no name");
  }

  @Test
  void wrong_number_of_cells_is_rejected() {
    Path file = offerings(offeringRow("aws", "a", "us-east-1", "T4", "1") + ",extra");
    CatalogException e = loadFails(file);
    assertThat(e.line()).hasValue(2);
    assertThat(e.problem()).startsWith("has 18 cells, but the header has 17 columns (provider,instance_type,");
  }

  @Test
  void duplicate_gpu_id_in_one_file_names_the_first_line() {
    Path file = gpus(gpuRow("my-card", "My Card", ""), gpuRow("my-card", "My Other Card", ""));
    CatalogException e = loadFails(file);
    assertThat(e.line()).hasValue(3);
    assertThat(e.column()).contains("id");
    assertThat(e.problem()).isEqualTo("duplicate GPU id 'my-card'; line 2 defines it already");
  }

  @Test
  void duplicate_gpu_id_across_files_names_the_other_file() {
    Path first = gpus(gpuRow("my-card", "My Card", ""));
    Path second = write(dir, "more/gpus.csv", gpuHeader(), gpuRow("my-card", "My Card Again", ""));
    CatalogException e = loadFails(first, second);
    assertThat(e.file()).isEqualTo(second.toString());
    assertThat(e.problem()).isEqualTo("duplicate GPU id 'my-card'; " + first + " line 2 defines it already");
  }

  @Test
  void duplicate_alias_in_one_file_is_rejected() {
    Path file = gpus(gpuRow("card-a", "Card A", "Fast Card"), gpuRow("card-b", "Card B", "fast-card"));
    CatalogException e = loadFails(file);
    assertThat(e.line()).hasValue(3);
    assertThat(e.column()).contains("aliases");
    assertThat(e.problem()).startsWith("GPU card-b: name 'fast-card' already names GPU card-a (as 'Fast Card')");
  }

  @Test
  void alias_that_names_a_known_gpu_is_rejected() {
    Path file = gpus(gpuRow("my-t4", "My T4", "Tesla T4"));
    CatalogException e = loadFails(file);
    assertThat(e.column()).contains("aliases");
    assertThat(e.problem()).startsWith("GPU my-t4: name 'Tesla T4' already names GPU t4");
  }

  @Test
  void alias_listed_twice_is_rejected() {
    CatalogException e = loadFails(gpus(gpuRow("my-card", "My Card", "Fast;fast")));
    assertThat(e.problem()).isEqualTo("lists alias 'fast' twice");
  }

  @Test
  void duplicate_offering_key_names_the_first_line() {
    Path file = offerings(offeringRow("aws", "g4dn.xlarge", "us-east-1", "T4", "0.5"),
        offeringRow("aws", "g4dn.xlarge", "us-east-1", "T4", "0.6"));
    CatalogException e = loadFails(file);
    assertThat(e.line()).hasValue(3);
    assertThat(e.problem()).isEqualTo("duplicate offering aws/g4dn.xlarge/us-east-1 (provider/instance_type/region, "
        + "case aside); " + file + " line 2 has it already as aws/g4dn.xlarge/us-east-1");
  }

  @Test
  void offering_keys_equal_but_for_case_are_one_offering() {
    Path file = offerings(offeringRow("myco", "x1", "r1", "T4", "0.5"), offeringRow("MyCo", "X1", "R1", "T4", "0.6"));
    CatalogException e = loadFails(file);
    assertThat(e.line()).hasValue(3);
    assertThat(e.problem()).isEqualTo("duplicate offering MyCo/X1/R1 (provider/instance_type/region, case aside); "
        + file + " line 2 has it already as myco/x1/r1");
  }

  @Test
  void offering_of_an_unknown_gpu_suggests_the_closest() {
    Path file = offerings(offeringRow("aws", "a", "us-east-1", "A10O", "1"));
    CatalogException e = loadFails(file);
    assertThat(e.column()).contains("gpu");
    assertThat(e.problem()).isEqualTo("unknown GPU 'A10O'; did you mean: a10, a100-sxm4-40gb?");
    assertThat(e).hasCauseInstanceOf(UnknownGpuException.class);
  }

  @Test
  void offering_may_use_a_gpu_defined_in_another_file_of_the_same_load() {
    Path gpuFile = gpus(gpuRow("my-card", "My Card", "MC-1"));
    Path offeringFile = offerings(offeringRow("lab", "box-1", "home", "mc 1", "0"));
    Catalog catalog = Fixtures.load(offeringFile, gpuFile);
    assertThat(catalog.offerings()).singleElement().satisfies(o -> assertThat(o.gpu().id()).isEqualTo("my-card"));
  }

  @Test
  void empty_file_is_rejected() throws IOException {
    Path file = Files.writeString(dir.resolve("empty.csv"), "");
    CatalogException e = loadFails(file);
    assertThat(e).hasMessage(file + ": file is empty; expected a header line and rows");
    assertThat(e.line()).isEmpty();
  }

  @Test
  void file_of_blank_and_comment_lines_is_empty() {
    CatalogException e = loadFails(write(dir, "c.csv", "# nothing here", "", "   "));
    assertThat(e.problem()).isEqualTo("file is empty; expected a header line and rows");
  }

  @Test
  void missing_file_is_rejected() {
    Path file = dir.resolve("nope.csv");
    CatalogException e = loadFails(file);
    assertThat(e.problem()).startsWith("no such file (looked for ");
  }

  @Test
  void directory_is_not_a_catalog_file() {
    assertThat(loadFails(dir).problem()).isEqualTo("not a regular file");
  }

  @Test
  void invalid_utf8_is_rejected() throws IOException {
    Path file = Files.write(dir.resolve("latin1.csv"), new byte[] {'i', 'd', ',', (byte) 0xE9, '\n'});
    assertThat(loadFails(file).problem()).isEqualTo("not valid UTF-8 text");
  }

  @Test
  void an_error_in_the_last_row_of_the_last_file_fails_the_whole_load() {
    // GIVEN a good GPU file and an offering file whose last row is bad
    Path gpuFile = gpus(gpuRow("my-card", "My Card", ""));
    Path offeringFile = offerings(offeringRow("lab", "a", "home", "my-card", "1"),
        offeringRow("lab", "b", "home", "my-card", "-1"));

    // WHEN loaded  THEN nothing comes back but the error
    CatalogException e = loadFails(gpuFile, offeringFile);
    assertThat(e.line()).hasValue(3);
  }

  @Test
  void line_numbers_count_comments_blank_lines_and_multi_line_cells() {
    // GIVEN a comment before the header, a blank line, and a source cell spanning three lines
    Path file = write(dir, "offerings.csv",
        "# my prices",
        offeringHeader(),
        "",
        offeringRow("lab", "a", "home", "T4", "1").replace(",test", ",\"first line\nsecond line\nthird\""),
        "# a note",
        offeringRow("lab", "b", "home", "T4", "oops"));

    // WHEN loaded  THEN the bad row is reported on its own line, 8
    CatalogException e = loadFails(file);
    assertThat(e.line()).hasValue(8);
    assertThat(e.problem()).isEqualTo("must be a number >= 0, was 'oops'");
  }

  @Test
  void partial_purchase_price_names_the_missing_cell() {
    Path file = gpus(gpuRow("my-card", "My Card", "").replace(",,,,,,test datasheet,", ",999,USD,,,,test datasheet,"));
    CatalogException e = loadFails(file);
    assertThat(e.column()).contains("price_date");
    assertThat(e.problem()).startsWith("must not be empty when price_amount, price_currency are given");
  }

  @Test
  void bad_boolean_date_and_version_cells_are_rejected() {
    assertThat(loadFails(gpus(gpuRow("c", "C", "").replace(",true,", ",yes,"))).problem())
        .isEqualTo("must be true or false, was 'yes'");
    assertThat(loadFails(offerings(offeringRow("lab", "a", "home", "T4", "1").replace("2025-01-06", "06/01/2025")))
        .problem()).isEqualTo("must be a date written yyyy-mm-dd, was '06/01/2025'");
    assertThat(loadFails(gpus(gpuRow("c", "C", "").replace(",8.6,", ",8,"))).problem())
        .isEqualTo("compute capability must look like 8.0, was '8'");
  }

  @Test
  void whole_number_columns_reject_fractions() {
    CatalogException e = loadFails(offerings(offeringRow("lab", "a", "home", "T4", "1").replace(",1,8,", ",1.5,8,")));
    assertThat(e.column()).contains("gpu_count");
    assertThat(e.problem()).isEqualTo("must be a whole number >= 1, was '1.5'");
  }

  @Test
  void unconfirmed_must_name_known_fields() {
    CatalogException e = loadFails(gpus(gpuRow("c", "C", "") + "tdp;fp32_tflops"));
    assertThat(e.column()).contains("unconfirmed");
    assertThat(e.problem()).startsWith("names unknown field 'tdp'");
  }

  @Test
  void rule_of_the_gpu_record_is_reported_at_its_line() {
    // A GPU without an FP32 figure breaks a rule of Gpu itself, not of one cell.
    CatalogException e = loadFails(gpus(gpuRow("c", "C", "").replace(",31.2,", ",,")));
    assertThat(e.line()).hasValue(2);
    assertThat(e.column()).isEmpty();
    assertThat(e.problem()).isEqualTo("GPU c needs a dense FP32 figure");
  }
}
