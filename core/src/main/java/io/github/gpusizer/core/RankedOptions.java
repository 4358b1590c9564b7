package io.github.gpusizer.core;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * The ranked options of a recommendation, each built when first asked for: a large catalog ranks tens of thousands
 * of options, and a report shows a few. Thread-safe.
 */
interface RankedOptions {
  /** How many options there are. */
  int size();

  /** The option at {@code index} (0 is the best). */
  Option get(int index);

  /** The position of {@code option} among them, -1 if it is not one of them. */
  int indexOf(Option option);

  /** Options already built. */
  static RankedOptions of(List<Option> options) {
    ImmutableList<Option> list = ImmutableList.copyOf(options);
    return new RankedOptions() {
      @Override
      public int size() {
        return list.size();
      }

      @Override
      public Option get(int index) {
        return list.get(index);
      }

      @Override
      public int indexOf(Option option) {
        return list.indexOf(option);
      }
    };
  }
}
