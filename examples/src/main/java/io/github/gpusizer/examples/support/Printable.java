package io.github.gpusizer.examples.support;

import java.util.Locale;

/**
 * Text that is safe to show on a terminal: characters a terminal would act on instead of printing are written as
 * {@code \}{@code uXXXX} escapes, so a file name, a catalog cell or an option value typed by someone else cannot
 * move the cursor, recolour the screen, retitle the window or reorder the line when an error or a table echoes it.
 *
 * <pre>{@code
 * Printable.line("gpu \u001b[2Jx");      // "gpu \\u001b[2Jx": the escape sequence shown, not run
 * Printable.text("a\tb\nc");              // "a\\u0009b\nc": line breaks kept, the tab shown
 * }</pre>
 *
 * <p>Escaped: the C0 controls (U+0000–U+001F) and DEL, the C1 controls (U+0080–U+009F, among them the 8-bit CSI),
 * the Unicode line and paragraph separators and the bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) that make text display in another order than it is read. Everything else, non-ASCII
 * letters and symbols included, is kept. The backslash is not escaped, so escaping twice changes nothing more.
 */
public final class Printable {
  private Printable() {}

  /** One line: every character above escaped, line breaks too. */
  public static String line(String text) {
    return escape(text, false);
  }

  /** Lines of text: every character above escaped but {@code \n}, which ends a line. */
  public static String text(String text) {
    return escape(text, true);
  }

  /** Whether a character is one a terminal may act on instead of printing. */
  public static boolean isUnsafe(int c) {
    return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029
        || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
  }

  private static String escape(String text, boolean keepNewlines) {
    if (text == null) {
      return "null";
    }
    int first = firstUnsafe(text, keepNewlines);
    if (first < 0) {
      return text;
    }
    StringBuilder s = new StringBuilder(text.length() + 16).append(text, 0, first);
    for (int i = first; i < text.length(); i++) {
      char c = text.charAt(i);
      if (isUnsafe(c) && !(keepNewlines && c == '\n')) {
        s.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        s.append(c);
      }
    }
    return s.toString();
  }

  private static int firstUnsafe(String text, boolean keepNewlines) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (isUnsafe(c) && !(keepNewlines && c == '\n')) {
        return i;
      }
    }
    return -1;
  }
}
