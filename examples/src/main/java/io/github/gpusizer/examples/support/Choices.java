package io.github.gpusizer.examples.support;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.EditDistance;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A closed set of words an option or a request field accepts, mapped to values; the error lists them all.
 *
 * <pre>{@code
 * Objective o = Words.OBJECTIVES.get("value");                  // BEST_VALUE
 * Objective p = Words.OBJECTIVES.get("objective", "Fastest");   // a JSON field named in the error instead
 * }</pre>
 */
public final class Choices<T> {
  private final String option;
  private final ImmutableMap<String, T> values;

  private Choices(String option, ImmutableMap<String, T> values) {
    this.option = option;
    this.values = values;
  }

  public static <T> Choices<T> of(String option, ImmutableMap<String, T> values) {
    return new Choices<>(option, values);
  }

  /**
   * The value for a word (case-insensitive; '_' and '-' are the same).
   *
   * @throws IllegalArgumentException naming the option and the accepted words
   */
  public T get(String word) {
    return get(option, word);
  }

  /** {@link #get(String)}, naming {@code field} in the error instead of the option (a JSON request's field). */
  public T get(String field, String word) {
    String key = word.strip().toLowerCase(Locale.ROOT).replace('_', '-');
    T value = values.get(key);
    if (value == null) {
      List<String> close = closest(key);
      throw new IllegalArgumentException(String.format(Locale.ROOT, "%s must be one of %s, was '%s'%s", field,
          String.join(", ", values.keySet()), word,
          close.isEmpty() ? "" : "; did you mean: " + String.join(", ", close) + "?"));
    }
    return value;
  }

  /**
   * The accepted words closest to a word in edits, if within a third of its length (at least 2): {@code chunkd}
   * gives {@code chunked}, {@code pretrain} nothing.
   */
  private List<String> closest(String key) {
    int limit = Math.max(2, key.length() / 3);
    int best = values.keySet().stream().mapToInt(w -> EditDistance.between(key, w)).min().orElse(Integer.MAX_VALUE);
    return best > limit ? List.of()
        : values.keySet().stream().filter(w -> EditDistance.between(key, w) == best).collect(Collectors.toList());
  }

  /** The accepted words, in the order given. */
  public ImmutableSet<String> words() {
    return values.keySet();
  }
}
