package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableMap;
import java.util.Locale;

/** A closed set of words an option accepts, mapped to values; the error lists them all. */
final class Choices<T> {
  private final String option;
  private final ImmutableMap<String, T> values;

  private Choices(String option, ImmutableMap<String, T> values) {
    this.option = option;
    this.values = values;
  }

  static <T> Choices<T> of(String option, ImmutableMap<String, T> values) {
    return new Choices<>(option, values);
  }

  /**
   * The value for a word (case-insensitive; '_' and '-' are the same).
   *
   * @throws IllegalArgumentException naming the option and the accepted words
   */
  T get(String word) {
    return get(option, word);
  }

  /** {@link #get(String)}, naming {@code field} in the error instead of the option (a JSON request's field). */
  T get(String field, String word) {
    String key = word.strip().toLowerCase(Locale.ROOT).replace('_', '-');
    T value = values.get(key);
    if (value == null) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "%s must be one of %s, was '%s'", option,
          String.join(", ", values.keySet()), word));
    }
    return value;
  }
}
