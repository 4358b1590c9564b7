package io.github.gpusizer.catalog;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;

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
    if (suggestions.isEmpty()) {
      return String.format("unknown GPU '%s'; no similar name among the catalog's %d GPUs", name, catalogSize);
    }
    return String.format("unknown GPU '%s'; did you mean: %s?", name, String.join(", ", suggestions));
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
