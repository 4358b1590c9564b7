package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTest {
  @Test
  void flattens_nested_fields_to_dotted_columns_and_quotes_commas() {
    ObjectNode a = JsonNodeFactory.instance.objectNode();
    a.put("id", "a100");
    a.putObject("memory").put("perGpuBytes", 42L);
    a.putArray("warnings").add("x, y").add("z");
    ObjectNode b = JsonNodeFactory.instance.objectNode();
    b.put("id", "t4");
    b.put("extra", true);
    assertThat(Csv.write(List.of(a, b))).isEqualTo(
        "id,memory.perGpuBytes,warnings,extra\n"
            + "a100,42,\"x, y; z\",\n"
            + "t4,,,true\n");
  }

  @Test
  void text_that_a_spreadsheet_would_run_as_a_formula_is_written_inert_and_numbers_keep_their_sign() {
    // GIVEN cells a user's catalog could carry: a formula, a command, an at-sign, a tab, and a negative number
    ObjectNode row = JsonNodeFactory.instance.objectNode();
    row.put("a", "=HYPERLINK(\"http://x\")");
    row.put("b", "+cmd|' /C calc'!A0");
    row.put("c", "@SUM(1)");
    row.put("d", "\tx");
    row.put("e", "-2+3");
    row.put("f", -1.5);
    row.put("g", "plain");
    row.putArray("h").add("=1").add("two");

    // THEN each text cell that starts a formula gets a leading quote; the number and plain text are untouched
    String csv = Csv.write(List.of(row));
    assertThat(csv.lines().skip(1).findFirst().orElseThrow()).isEqualTo(
        "\"'=HYPERLINK(\"\"http://x\"\")\",'+cmd|' /C calc'!A0,'@SUM(1),'\tx,'-2+3,-1.5,plain,'=1; two");
  }

  @Test
  void a_field_null_in_some_rows_and_an_object_in_others_is_the_objects_columns() {
    // GIVEN two offerings, one with a spot price and one without
    ObjectNode withSpot = JsonNodeFactory.instance.objectNode();
    withSpot.put("id", "a");
    withSpot.putObject("spotPerHour").put("amount", 1.5).put("currency", "USD");
    ObjectNode without = JsonNodeFactory.instance.objectNode();
    without.put("id", "b");
    without.putNull("spotPerHour");

    // THEN the header is the object's columns whatever the order of the rows, empty cells for the null
    assertThat(Csv.write(List.of(without, withSpot)))
        .isEqualTo("id,spotPerHour.amount,spotPerHour.currency\nb,,\na,1.5,USD\n");
  }

  @Test
  void text_table_aligns_numbers_right() {
    String table = new TextTable("GPU", ">MEM").row("h100", "80").row("t4-long", "16.5").render();
    assertThat(table).isEqualTo("GPU       MEM\n-------  ----\nh100       80\nt4-long  16.5\n");
  }
}
