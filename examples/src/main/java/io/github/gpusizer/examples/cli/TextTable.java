package io.github.gpusizer.examples.cli;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.base.Strings;
import com.google.common.collect.ImmutableList;
import io.github.gpusizer.examples.support.Printable;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table with aligned columns, for terminals: numbers right-aligned, text left-aligned.
 *
 * <pre>{@code
 * String text = new TextTable("GPU", ">MEMORY").row("h100-sxm5-80gb", "80.0 GiB").render();
 * }</pre>
 *
 * <p>A header starting with {@code >} marks a right-aligned column (the {@code >} is not printed). Cells are
 * {@link Printable#line printable}: a control character from a file or an option shows as an escape.
 */
final class TextTable {
  private final ImmutableList<String> headers;
  private final boolean[] right;
  private final List<List<String>> rows = new ArrayList<>();

  TextTable(String... headers) {
    ImmutableList.Builder<String> names = ImmutableList.builder();
    right = new boolean[headers.length];
    for (int i = 0; i < headers.length; i++) {
      right[i] = headers[i].startsWith(">");
      names.add(right[i] ? headers[i].substring(1) : headers[i]);
    }
    this.headers = names.build();
  }

  TextTable row(Object... cells) {
    checkArgument(cells.length == headers.size(), "a row of this table needs %s cells, had %s", headers.size(),
        cells.length);
    List<String> row = new ArrayList<>();
    for (Object cell : cells) {
      row.add(Printable.line(String.valueOf(cell))); // a cell is one line, shown, never run by the terminal
    }
    rows.add(row);
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  String render() {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = headers.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    StringBuilder s = new StringBuilder();
    append(s, headers, widths);
    List<String> rules = new ArrayList<>();
    for (int width : widths) {
      rules.add(Strings.repeat("-", width));
    }
    append(s, rules, widths);
    for (List<String> row : rows) {
      append(s, row, widths);
    }
    return s.toString();
  }

  private void append(StringBuilder s, List<String> cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        line.append("  ");
      }
      String cell = cells.get(i);
      line.append(right[i] ? Strings.padStart(cell, widths[i], ' ') : Strings.padEnd(cell, widths[i], ' '));
    }
    s.append(line.toString().stripTrailing()).append('\n');
  }
}
