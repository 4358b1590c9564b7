package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkNotNull;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * Bad catalog data: a file, a line and a column, and what is wrong there.
 *
 * <pre>{@code
 * try {
 *   Catalog.load(Path.of("offerings.csv"));
 * } catch (CatalogException e) {
 *   // "offerings.csv line 7, column price_per_hour: must be a number >= 0, was 'abc'"
 *   System.err.println(e.getMessage());
 *   int line = e.line().orElse(0);
 * }
 * }</pre>
 *
 * <p>A load that throws it returns nothing: there is no half-loaded catalog.
 */
public final class CatalogException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final String column;
  private final int columnIndex;
  private final String problem;

  CatalogException(String file, int line, String column, int columnIndex, String problem, Throwable cause) {
    super(format(checkNotNull(file, "file"), line, column, checkNotNull(problem, "problem")), cause);
    this.file = file;
    this.line = line;
    this.column = column;
    this.columnIndex = columnIndex;
    this.problem = problem;
  }

  /** An error about a whole file (missing, empty, unreadable). */
  static CatalogException ofFile(String file, String problem) {
    return new CatalogException(file, 0, null, 0, problem, null);
  }

  /** An error about one line that no single column explains. */
  static CatalogException ofLine(String file, int line, String problem, Throwable cause) {
    return new CatalogException(file, line, null, 0, problem, cause);
  }

  private static String format(String file, int line, String column, String problem) {
    StringBuilder s = new StringBuilder(file);
    if (line > 0) {
      s.append(" line ").append(line);
    }
    if (column != null) {
      s.append(line > 0 ? ", column " : " column ").append(column);
    }
    return s.append(": ").append(problem).toString();
  }

  /** The file as the caller named it, or the class-path resource of the bundled data. */
  public String file() {
    return file;
  }

  /** The 1-based line the problem is on; empty for problems with the whole file. */
  public OptionalInt line() {
    return line > 0 ? OptionalInt.of(line) : OptionalInt.empty();
  }

  /** The header name of the column the problem is in, where one column is to blame. */
  public Optional<String> column() {
    return Optional.ofNullable(column);
  }

  /** The 1-based position of that column in the file's header, where one column is to blame. */
  public OptionalInt columnIndex() {
    return columnIndex > 0 ? OptionalInt.of(columnIndex) : OptionalInt.empty();
  }

  /** What is wrong, without the location: {@code "must be a number >= 0, was 'abc'"}. */
  public String problem() {
    return problem;
  }
}
