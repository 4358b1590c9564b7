package io.github.gpusizer.core;

import com.google.common.base.Suppliers;
import io.github.gpusizer.core.cost.PricingMode;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What one pass over the catalog found, fixed once built ({@link Pass#run} or {@link Pass#screen}): the priced
 * candidates that fit, in catalog order, then instances, then pricing mode; per offering the closest attempt that
 * gave no fitting candidate; which offerings the caller's CUDA version alone ruled out; and, from a screened pass,
 * the fastest feasible wall time over every candidate and the candidates only the Pareto front can use, built on
 * first use (thread-safe).
 */
final class Found {
  private final List<Candidate> fitting;
  private final Attempt[] misses;
  private final boolean[] cudaBlocked;
  private final Duration fastest;
  private final Supplier<List<Candidate>> frontOnly;
  private final boolean complete;
  /**
   * By offering index × pricing modes + mode: whether the offering's candidates in that mode are some of its counts
   * only (a screened offering that is not the cheapest of its group); null if none is.
   */
  private final boolean[] partial;

  /**
   * Takes over the list and arrays given (the caller keeps no reference to change them).
   *
   * @param fastest the fastest feasible wall time over every candidate, deferred ones included; null if not known
   * @param frontOnly builds the candidates only the Pareto front can use, called at most once
   */
  Found(List<Candidate> fitting, Attempt[] misses, boolean[] cudaBlocked, Duration fastest,
      Supplier<List<Candidate>> frontOnly) {
    this(Collections.unmodifiableList(fitting), misses, cudaBlocked, fastest, Suppliers.memoize(frontOnly::get),
        true, null);
  }

  private Found(List<Candidate> fitting, Attempt[] misses, boolean[] cudaBlocked, Duration fastest,
      Supplier<List<Candidate>> frontOnly, boolean complete, boolean[] partial) {
    this.fitting = fitting;
    this.misses = misses;
    this.cudaBlocked = cudaBlocked;
    this.fastest = fastest;
    this.frontOnly = frontOnly;
    this.complete = complete;
    this.partial = partial;
  }

  /**
   * This result marked as covering only some offerings: those a bounded screen ({@link Screen}) could not pass over,
   * which hold CHEAPEST's best option but not the lists.
   */
  Found incomplete() {
    return new Found(fitting, misses, cudaBlocked, fastest, frontOnly, false, partial);
  }

  /** This result with the offerings and modes whose candidates are some of their counts only (see {@link #partial}). */
  Found withPartial(boolean[] partial) {
    return new Found(fitting, misses, cudaBlocked, fastest, frontOnly, complete, partial);
  }

  /**
   * Whether the candidate's offering has, in its mode, only the counts a screen's choices need: its group's cheapest
   * offering costs less at each of them (or ties and goes first), so none of its candidates is on the Pareto front.
   */
  boolean partial(Candidate c) {
    return partial != null && partial[c.index() * PricingMode.values().length + c.mode().ordinal()];
  }

  /** Whether every offering the pass could use was looked at (false after a bounded screen passed over some). */
  boolean complete() {
    return complete;
  }

  /** The priced candidates that fit in memory. */
  List<Candidate> fitting() {
    return fitting;
  }

  /** The closest attempt of offering {@code i} that gave no fitting candidate; null if none failed. */
  Attempt miss(int i) {
    return misses[i];
  }

  /** Whether some offering's closest miss is of {@code kind}. */
  boolean anyMiss(Rejection.Kind kind) {
    for (Attempt a : misses) {
      if (a != null && a.kind() == kind) {
        return true;
      }
    }
    return false;
  }

  /** Whether the caller's CUDA version alone ruled out offering {@code i}. */
  boolean cudaBlocked(int i) {
    return cudaBlocked[i];
  }

  /** Whether the caller's CUDA version alone ruled out some offering. */
  boolean anyCudaBlocked() {
    for (boolean b : cudaBlocked) {
      if (b) {
        return true;
      }
    }
    return false;
  }

  /** The fastest feasible wall time over every candidate, those only the front can use included (screened). */
  Optional<Duration> fastest() {
    return Optional.ofNullable(fastest);
  }

  /** Fitting candidates that are no offering's best choice and that only the Pareto front can use (screened). */
  List<Candidate> frontOnly() {
    return frontOnly.get();
  }
}
