package io.github.gpusizer.core;

import com.google.common.collect.ImmutableList;
import java.util.Optional;

/**
 * Thrown by {@link Recommendation#bestOrThrow()} when no option meets the constraints. Its message is the
 * suggestion's advice; the suggestion and the rejections are available as fields.
 *
 * <pre>{@code
 * try {
 *   Option best = rec.bestOrThrow();
 * } catch (NoFeasibleOptionException e) {
 *   e.suggestion().flatMap(Suggestion::deadline).ifPresent(d -> System.out.println("try a deadline of " + d));
 * }
 * }</pre>
 */
public final class NoFeasibleOptionException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final transient Optional<Suggestion> suggestion;
  private final transient ImmutableList<Rejection> rejected;

  public NoFeasibleOptionException(Optional<Suggestion> suggestion, ImmutableList<Rejection> rejected) {
    super("no option meets the constraints"
        + suggestion.map(s -> ": " + s.advice()).orElse(" (" + rejected.size() + " offerings rejected)"));
    this.suggestion = suggestion;
    this.rejected = ImmutableList.copyOf(rejected);
  }

  /** What would make the request feasible, where the sizer could compute it. */
  public Optional<Suggestion> suggestion() {
    return suggestion;
  }

  /** Every offering left out, with its reason. */
  public ImmutableList<Rejection> rejected() {
    return rejected;
  }
}
