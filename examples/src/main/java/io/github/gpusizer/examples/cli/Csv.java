package io.github.gpusizer.examples.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Writes JSON objects as CSV rows: nested objects become dotted column names ({@code memory.perGpuBytes}), arrays of
 * values are joined with {@code "; "}, and the columns are the union of all rows' fields in order of first
 * appearance. The column names are therefore exactly the JSON field paths. A text cell that a spreadsheet would
 * run as a formula (first character {@code = + - @}, tab or carriage return; OWASP, "CSV Injection") is written
 * with a leading {@code '}; numbers keep their sign.
 */
final class Csv {
  private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setRecordSeparator('\n').get();

  private Csv() {}

  /** The rows with the columns of their fields in order of first appearance (no declared header). */
  static String write(List<? extends JsonNode> rows) {
    return write(List.of(), rows);
  }

  /**
   * The rows under a header declared by the command: the columns are {@code declared}, in that order, whatever the
   * rows hold (a field null in every row still has its object's columns, e.g. {@code monthly.amount} and
   * {@code monthly.currency}); a field the declaration lacks is added at the end rather than lost (the commands'
   * tests check that none is).
   */
  static String write(List<String> declared, List<? extends JsonNode> rows) {
    List<Map<String, String>> flat = new ArrayList<>();
    Set<String> columns = new LinkedHashSet<>(declared);
    for (JsonNode row : rows) {
      Map<String, String> cells = new LinkedHashMap<>();
      flatten("", row, cells);
      columns.addAll(cells.keySet());
      flat.add(cells);
    }
    // a field null in some rows and an object in others is the object's columns (empty where null), so the header
    // does not change with which rows carry the object (offers' spotPerHour)
    columns.removeIf(c -> columns.stream().anyMatch(other -> other.startsWith(c + ".")));
    StringBuilder out = new StringBuilder();
    try (CSVPrinter printer = new CSVPrinter(out, FORMAT)) {
      printer.printRecord(columns);
      for (Map<String, String> cells : flat) {
        List<String> record = new ArrayList<>();
        for (String column : columns) {
          record.add(cells.getOrDefault(column, ""));
        }
        printer.printRecord(record);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringBuilder does not throw
    }
    return out.toString();
  }

  private static void flatten(String prefix, JsonNode node, Map<String, String> cells) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        flatten(prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(), field.getValue(), cells);
      }
    } else if (node.isArray()) {
      List<String> parts = new ArrayList<>();
      for (JsonNode element : node) {
        parts.add(element.isValueNode() ? element.asText() : element.toString());
      }
      cells.put(prefix, inert(String.join("; ", parts)));
    } else if (node.isNull()) {
      cells.put(prefix, "");
    } else {
      cells.put(prefix, node.isTextual() ? inert(node.asText()) : node.asText());
    }
  }

  /** Text a spreadsheet shows as text: a leading {@code '} before what would start a formula. */
  static String inert(String text) {
    if (text.isEmpty()) {
      return text;
    }
    char first = text.charAt(0);
    return first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r'
        ? "'" + text : text;
  }
}
