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
  void text_table_aligns_numbers_right() {
    String table = new TextTable("GPU", ">MEM").row("h100", "80").row("t4-long", "16.5").render();
    assertThat(table).isEqualTo("GPU       MEM\n-------  ----\nh100       80\nt4-long  16.5\n");
  }
}
