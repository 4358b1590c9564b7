package io.github.gpusizer.catalog;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.common.base.Joiner;
import com.google.common.collect.AbstractIterator;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.Sets;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collection;
import java.util.Currency;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.csv.DuplicateHeaderMode;

/**
 * One CSV file read strictly with commons-csv (RFC 4180, a header line, {@code #} comment lines, blank lines
 * ignored), its rows (parsed as they are read) with their exact 1-based line numbers, and typed cell accessors whose
 * failures are {@link CatalogException}s naming the file, the line and the column.
 */
final class CsvTable {
  private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder()
      .setHeader()
      .setSkipHeaderRecord(true)
      .setIgnoreEmptyLines(true)
      .setCommentMarker('#')
      // Duplicate and blank header names are reported by this class, with the line and column.
      .setDuplicateHeaderMode(DuplicateHeaderMode.ALLOW_ALL)
      .setAllowMissingColumnNames(true)
      .get();
  /** The most header names a message repeats: a hostile header of a million names must not make a 7 MB message. */
  private static final int SHOWN_COLUMNS = 40;
  private static final Pattern LEXER_LINE = Pattern.compile("\\((?:start)?line:? (\\d+)\\)|at line: (\\d+)");

  /** Which values a number may take. */
  enum Sign {
    ANY(""),
    NON_NEGATIVE(" >= 0"),
    POSITIVE(" > 0");

    private final String rule;

    Sign(String rule) {
      this.rule = rule;
    }

    boolean admits(BigDecimal value) {
      return switch (this) {
        case ANY -> true;
        case NON_NEGATIVE -> value.signum() >= 0;
        case POSITIVE -> value.signum() > 0;
      };
    }
  }

  /**
   * The most bytes a catalog file may hold, counted while reading (so a file that reports size 0 is bounded too).
   * A design limit, far above the real catalogs read here (SkyPilot's v8 GCP vms.csv, the largest, is 2.2 MB); the
   * row limit below binds first for SkyPilot-shaped rows.
   */
  static final int MAX_FILE_BYTES = 32 << 20;
  /**
   * The most characters of one line, a design limit: the longest row of the real SkyPilot excerpts read here, with
   * its GpuInfo cell, is under 1 KB.
   */
  static final int MAX_LINE_CHARS = 64 << 10;
  /**
   * The most rows of one file, a design limit that keeps a load within a small machine's default heap: measured
   * here (2026-12-02, rows parsed as they are read), 240,000 SkyPilot-shaped rows without the {@code GpuInfo} column
   * (18.7 MB) load and print through {@code gpusizer offers} with a 256 MB heap (0.3 GB resident); with that column
   * the file's byte limit binds first, at about 170,000 rows.
   */
  static final int MAX_ROWS = 250_000;

  private final String file;
  private final String text;
  private final int[] lineStarts;
  private final ImmutableList<String> header;
  private final ImmutableMap<String, Integer> columns;
  private final int headerLine;

  private CsvTable(String file, String text) {
    this.file = file;
    this.text = text;
    this.lineStarts = lineStarts(text);
    for (int i = 0; i < lineStarts.length; i++) {
      int end = i + 1 < lineStarts.length ? lineStarts[i + 1] - 1 : text.length();
      if (end - lineStarts[i] > MAX_LINE_CHARS) {
        throw CatalogException.ofLine(file, i + 1, String.format(java.util.Locale.ROOT,
            "is %,d characters long, more than the %,d a catalog line may have", end - lineStarts[i],
            MAX_LINE_CHARS), null);
      }
    }
    this.headerLine = lineOf(0);
    try (CSVParser parser = parser()) {
      this.header = parser.getHeaderNames().stream().map(String::strip).collect(ImmutableList.toImmutableList());
      this.columns = indexHeader();
    } catch (IOException e) {
      // The reader is a string, so only the CSV syntax of the header can fail here.
      throw malformed(new UncheckedIOException(e), headerLine - 1);
    } catch (IllegalArgumentException e) {
      if (e instanceof CatalogException) {
        throw e;
      }
      throw CatalogException.ofLine(file, headerLine, "malformed header: " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw malformed(e, headerLine - 1);
    }
  }

  private CSVParser parser() throws IOException {
    return CSVParser.builder().setReader(new StringReader(text)).setFormat(FORMAT).get();
  }

  /**
   * Parses CSV text; {@code file} names it in error messages.
   *
   * @throws CatalogException if the text is empty, has a line past {@link #MAX_LINE_CHARS}, or a malformed header
   *     or one with a blank or duplicate column name; the rows are checked as {@link #rows()} parses them
   */
  static CsvTable parse(String file, String text) {
    String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
    boolean onlyComments = body.lines().allMatch(l -> l.isBlank() || l.startsWith("#"));
    if (onlyComments) {
      throw CatalogException.ofFile(file, "file is empty; expected a header line and rows");
    }
    return new CsvTable(file, body);
  }

  /**
   * Reads a UTF-8 file.
   *
   * @throws CatalogException if it does not exist, is not a regular file, holds more than {@link #MAX_FILE_BYTES} or
   *     is not valid UTF-8
   * @throws UncheckedIOException if reading it fails otherwise
   */
  static String readFile(Path path) {
    String name = path.toString();
    if (!Files.exists(path)) {
      throw CatalogException.ofFile(name, "no such file (looked for " + path.toAbsolutePath() + ")");
    }
    if (!Files.isRegularFile(path)) {
      throw CatalogException.ofFile(name, "not a regular file");
    }
    try (InputStream in = Files.newInputStream(path)) {
      byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
      if (bytes.length > MAX_FILE_BYTES) {
        throw CatalogException.ofFile(name, String.format(java.util.Locale.ROOT,
            "is more than %,d bytes (%d MiB), the most a catalog file may hold; split the file", MAX_FILE_BYTES,
            MAX_FILE_BYTES >> 20));
      }
      return decode(bytes, name);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }

  /**
   * Reads a UTF-8 class-path resource next to {@code anchor}.
   *
   * @throws IllegalStateException if the resource is missing
   */
  static String readResource(Class<?> anchor, String name, String display) {
    try (InputStream in = anchor.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("bundled catalog resource " + display
            + " is missing from the class path; the gpusizer-catalog jar is incomplete");
      }
      return decode(in.readAllBytes(), display);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + display, e);
    }
  }

  private static String decode(byte[] bytes, String name) {
    if (isAscii(bytes)) {
      // ASCII is valid UTF-8 that decodes byte for byte: no decoder and no char buffer needed (most catalogs).
      return new String(bytes, US_ASCII);
    }
    try {
      return UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw CatalogException.ofFile(name, "not valid UTF-8 text");
    }
  }

  private static boolean isAscii(byte[] bytes) {
    for (byte b : bytes) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a cell is a decimal number as catalogs write it, i.e. matches {@code
   * [+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,4})?} with ASCII digits: an optional sign, digits with an optional
   * fraction (or a fraction alone), and an optional exponent of one to four digits. Scanned by hand: a regular
   * expression matcher per cell cost more than the rest of a 100,000-row load together.
   */
  static boolean isNumber(String s) {
    int n = s.length();
    int i = 0;
    if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      i++;
    }
    int intDigits = 0;
    while (i < n && isDigit(s.charAt(i))) {
      i++;
      intDigits++;
    }
    int fractionDigits = 0;
    if (i < n && s.charAt(i) == '.') {
      i++;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
        fractionDigits++;
      }
    }
    if (intDigits == 0 && fractionDigits == 0) {
      return false;
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      int exponentDigits = 0;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
        exponentDigits++;
      }
      if (exponentDigits < 1 || exponentDigits > 4) {
        return false;
      }
    }
    return i == n;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private ImmutableMap<String, Integer> indexHeader() {
    Map<String, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < header.size(); i++) {
      String name = header.get(i);
      if (name.isEmpty()) {
        throw new CatalogException(file, headerLine, null, i + 1,
            String.format("column %d of the header has no name (header: %s)", i + 1, headerText()), null);
      }
      Integer earlier = index.putIfAbsent(name, i);
      if (earlier != null) {
        throw new CatalogException(file, headerLine, name, i + 1,
            String.format("column '%s' appears twice in the header (columns %d and %d)", name, earlier + 1, i + 1),
            null);
      }
    }
    return ImmutableMap.copyOf(index);
  }

  private CatalogException malformed(UncheckedIOException e, int lastGoodLine) {
    String detail = String.valueOf(e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
    Matcher m = LEXER_LINE.matcher(detail);
    int line = m.find() ? Integer.parseInt(m.group(1) != null ? m.group(1) : m.group(2)) : lastGoodLine + 1;
    String problem;
    if (detail.contains("EOF reached before encapsulated token finished")) {
      problem = "malformed CSV: a quoted cell that starts on this line is never closed (unbalanced '\"')";
    } else if (detail.contains("Invalid character between encapsulated token and delimiter")) {
      problem = "malformed CSV: text follows a closing quote; write \"\" for a quote inside a quoted cell";
    } else {
      problem = "malformed CSV: " + detail;
    }
    return CatalogException.ofLine(file, line, problem, e);
  }

  private static int[] lineStarts(String text) {
    int[] starts = new int[64];
    int count = 0;
    starts[count++] = 0;
    for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
      if (count == starts.length) {
        starts = Arrays.copyOf(starts, count * 2);
      }
      starts[count++] = i + 1;
    }
    return Arrays.copyOf(starts, count);
  }

  /** The 1-based line of the first data at or after a character position, past blank and comment lines. */
  private int lineOf(long position) {
    int pos = (int) position;
    while (pos < text.length()) {
      int end = text.indexOf('\n', pos);
      end = end < 0 ? text.length() : end;
      if (!isBlankOrComment(pos, end)) {
        break;
      }
      pos = end + 1;
    }
    int index = Arrays.binarySearch(lineStarts, Math.min(pos, text.length()));
    return (index >= 0 ? index : -index - 2) + 1;
  }

  /** Whether the text from {@code start} to {@code end} is a comment line or only white space (String.isBlank). */
  private boolean isBlankOrComment(int start, int end) {
    if (start < end && text.charAt(start) == '#') {
      return true;
    }
    for (int i = start; i < end; ) {
      int c = text.codePointAt(i);
      if (!Character.isWhitespace(c)) {
        return false;
      }
      i += Character.charCount(c);
    }
    return true;
  }

  String file() {
    return file;
  }

  ImmutableList<String> header() {
    return header;
  }

  /** The header for a message: its names joined with ',', the first {@value #SHOWN_COLUMNS} of a wider one. */
  String headerText() {
    if (header.size() <= SHOWN_COLUMNS) {
      return Joiner.on(',').join(header);
    }
    return Joiner.on(',').join(header.subList(0, SHOWN_COLUMNS)) + ",... (" + header.size() + " columns)";
  }

  int headerLine() {
    return headerLine;
  }

  /**
   * The data rows, parsed as they are iterated (each iteration parses the text again): a reader that keeps only
   * what it makes of each row holds no parsed copy of a 100,000-row file (SkyPilot's), which the collector would
   * otherwise copy from one generation to the next.
   *
   * @throws CatalogException while iterating, at the first malformed row, a row whose number of cells differs from
   *     the header's, or the first row past {@link #MAX_ROWS}
   */
  Iterable<Row> rows() {
    return RowIterator::new;
  }

  private final class RowIterator extends AbstractIterator<Row> {
    private final Iterator<CSVRecord> records;
    private int count;
    private int lastLine = headerLine;

    RowIterator() {
      try {
        records = parser().iterator();
      } catch (IOException e) {
        throw malformed(new UncheckedIOException(e), headerLine - 1); // the constructor read this header already
      }
    }

    @Override
    protected Row computeNext() {
      try {
        while (records.hasNext()) {
          CSVRecord record = records.next();
          if (record.size() == 1 && record.get(0).isBlank()) {
            continue; // a line of spaces: no data, like an empty line
          }
          int line = lineOf(record.getCharacterPosition());
          lastLine = line;
          if (record.size() != header.size()) {
            throw CatalogException.ofLine(file, line, String.format(
                "has %d cells, but the header has %d columns (%s)", record.size(), header.size(), headerText()),
                null);
          }
          if (count == MAX_ROWS) {
            throw CatalogException.ofLine(file, line, String.format(java.util.Locale.ROOT,
                "is past the %,d rows a catalog file may have; split the file", MAX_ROWS), null);
          }
          count++;
          return new Row(line, record);
        }
        return endOfData();
      } catch (UncheckedIOException e) {
        throw malformed(e, lastLine);
      }
    }
  }

  boolean has(String column) {
    return columns.containsKey(column);
  }

  /**
   * Checks the header names the columns of a format.
   *
   * @param required columns that must be present
   * @param optional columns that may be present
   * @param strict whether any other column is an error (a misspelt name) rather than ignored
   * @throws CatalogException naming the missing or unknown columns and the expected header
   */
  void requireColumns(String format, List<String> required, Collection<String> optional, boolean strict) {
    List<String> missing = required.stream().filter(c -> !columns.containsKey(c)).collect(Collectors.toList());
    if (!missing.isEmpty()) {
      throw CatalogException.ofLine(file, headerLine, String.format(
          "the header lacks column%s %s; a %s header has the columns %s",
          missing.size() == 1 ? "" : "s", Joiner.on(", ").join(missing), format, Joiner.on(',').join(required)),
          null);
    }
    if (strict) {
      Set<String> known = Sets.union(Set.copyOf(required), Set.copyOf(optional));
      for (String name : header) {
        if (!known.contains(name)) {
          throw new CatalogException(file, headerLine, name, columns.get(name) + 1, String.format(
              "unknown column '%s'; a %s header has the columns %s", name, format, Joiner.on(',').join(required)),
              null);
        }
      }
    }
  }

  /** One data row and typed, validated access to its cells. */
  final class Row {
    private final int line;
    private final CSVRecord record;

    private Row(int line, CSVRecord record) {
      this.line = line;
      this.record = record;
    }

    int line() {
      return line;
    }

    String file() {
      return file;
    }

    /** The cell, stripped of surrounding white space; empty if the column is absent from the file. */
    String raw(String column) {
      Integer index = columns.get(column);
      return index == null ? "" : record.get(index).strip();
    }

    CatalogException error(String column, String problem) {
      Integer index = columns.get(column);
      return new CatalogException(file, line, column, index == null ? 0 : index + 1, problem, null);
    }

    CatalogException error(String column, String problem, Throwable cause) {
      Integer index = columns.get(column);
      return new CatalogException(file, line, column, index == null ? 0 : index + 1, problem, cause);
    }

    CatalogException error(String problem, Throwable cause) {
      return CatalogException.ofLine(file, line, problem, cause);
    }

    boolean isBlank(String column) {
      return raw(column).isEmpty();
    }

    String text(String column) {
      String value = raw(column);
      if (value.isEmpty()) {
        throw error(column, "must not be empty");
      }
      return value;
    }

    Optional<String> optionalText(String column) {
      String value = raw(column);
      return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    BigDecimal number(String column, Sign sign) {
      String value = raw(column);
      if (!isNumber(value)) {
        throw error(column, String.format("must be a number%s, was '%s'", sign.rule, value));
      }
      BigDecimal number = new BigDecimal(value);
      if (!sign.admits(number)) {
        throw error(column, String.format("must be a number%s, was '%s'", sign.rule, value));
      }
      return number;
    }

    Optional<BigDecimal> optionalNumber(String column, Sign sign) {
      return isBlank(column) ? Optional.empty() : Optional.of(number(column, sign));
    }

    double decimal(String column, Sign sign) {
      double value = number(column, sign).doubleValue();
      if (!Double.isFinite(value)) {
        throw error(column, String.format("must be a number%s of ordinary size, was '%s'", sign.rule, raw(column)));
      }
      return value;
    }

    /** A whole number at least {@code min}; {@code 8} and {@code 8.0} are both 8. */
    int wholeNumber(String column, int min) {
      String value = raw(column);
      if (!isNumber(value)) {
        throw error(column, wholeNumberRule(min, value));
      }
      BigDecimal number = new BigDecimal(value);
      try {
        int whole = number.intValueExact();
        if (whole < min) {
          throw error(column, wholeNumberRule(min, value));
        }
        return whole;
      } catch (ArithmeticException e) {
        throw error(column, wholeNumberRule(min, value), e);
      }
    }

    private String wholeNumberRule(int min, String value) {
      return String.format("must be a whole number >= %d, was '%s'", min, value);
    }

    Optional<Integer> optionalWholeNumber(String column, int min) {
      return isBlank(column) ? Optional.empty() : Optional.of(wholeNumber(column, min));
    }

    <E extends Enum<E>> E enumValue(String column, Class<E> type) {
      String value = raw(column);
      for (E constant : type.getEnumConstants()) {
        if (constant.name().equalsIgnoreCase(value)) {
          return constant;
        }
      }
      throw error(column, String.format("must be one of %s, was '%s'",
          Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", ")), value));
    }

    boolean bool(String column) {
      String value = raw(column).toLowerCase(Locale.ROOT);
      return switch (value) {
        case "true" -> true;
        case "false" -> false;
        default -> throw error(column, String.format("must be true or false, was '%s'", raw(column)));
      };
    }

    LocalDate date(String column) {
      String value = raw(column);
      try {
        return LocalDate.parse(value);
      } catch (DateTimeParseException e) {
        throw error(column, String.format("must be a date written yyyy-mm-dd, was '%s'", value), e);
      }
    }

    Currency currency(String column) {
      String value = raw(column);
      if (value.length() == 3) {
        try {
          return Currency.getInstance(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
          // reported below
        }
      }
      throw error(column, String.format("must be an ISO 4217 currency code such as USD, CNY or EUR, was '%s'", value));
    }

    /** A {@code ;}-separated list; an empty cell is an empty list, an empty item between separators an error. */
    ImmutableList<String> list(String column) {
      String value = raw(column);
      if (value.isEmpty()) {
        return ImmutableList.of();
      }
      ImmutableList.Builder<String> items = ImmutableList.builder();
      for (String item : value.split(";", -1)) {
        String stripped = item.strip();
        if (stripped.isEmpty()) {
          throw error(column, String.format("must be a ';'-separated list without empty items, was '%s'", value));
        }
        items.add(stripped);
      }
      return items.build();
    }
  }
}
