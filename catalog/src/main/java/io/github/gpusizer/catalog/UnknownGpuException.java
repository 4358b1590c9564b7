package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import java.text.Normalizer;

/**
 * Thrown when a GPU name, id or alias is not in the catalog; it carries the closest names the catalog knows.
 *
 * <pre>{@code
 * try {
 *   catalog.gpu("A10O");
 * } catch (UnknownGpuException e) {
 *   // "unknown GPU 'A10O'; did you mean: a10, a100-sxm4-40gb?"
 *   List<String> ids = e.suggestions();
 * }
 * }</pre>
 */
public final class UnknownGpuException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final ImmutableList<String> suggestions;

  UnknownGpuException(String name, ImmutableList<String> suggestions, int catalogSize) {
    super(message(checkNotNull(name, "name"), checkNotNull(suggestions, "suggestions"), catalogSize));
    this.name = name;
    this.suggestions = suggestions;
  }

  private static String message(String name, ImmutableList<String> suggestions, int catalogSize) {
    String unknown = "unknown GPU '" + name + "'" + lookAlikeHint(name);
    if (suggestions.isEmpty()) {
      return String.format("%s; no similar name among the catalog's %d GPUs", unknown, catalogSize);
    }
    return String.format("%s; did you mean: %s?", unknown, String.join(", ", suggestions));
  }

  /**
   * Names the first letter or digit outside ASCII (after folding full-width forms): GPU names are ASCII, and a
   * Cyrillic 'А' looks like a Latin 'A' in the message.
   */
  private static String lookAlikeHint(String name) {
    String folded = Normalizer.normalize(name, Normalizer.Form.NFKC);
    return folded.codePoints()
        .filter(c -> c > 0x7F && Character.isLetterOrDigit(c))
        .mapToObj(c -> String.format(" (its '%s' is U+%04X %s, not an ASCII character)", Character.toString(c), c,
            Character.getName(c)))
        .findFirst()
        .orElse("");
  }

  /** The name as the caller spelt it. */
  public String name() {
    return name;
  }

  /** Ids of the catalog's GPUs closest to the name, best first; empty if none is close. */
  public ImmutableList<String> suggestions() {
    return suggestions;
  }
}
