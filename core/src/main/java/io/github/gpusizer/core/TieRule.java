package io.github.gpusizer.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * When two plans are a tie, and which of a tie comes first: the one rule that the ranking ({@link Ranking}) and the
 * screened fast path ({@link Screen}) both ask.
 *
 * <ul>
 *   <li>Costs within {@link #COST_TIE} of the cheapest are a tie (CHEAPEST, and BEST_VALUE on each side of its
 *       window); within it the faster plan wins.</li>
 *   <li>Wall times within {@link #TIME_TIE} of the fastest are a tie (FASTEST, and the plans of a cost tie as fast as
 *       its fastest); within it the fewer nodes win, then the shorter time (FASTEST: the lower cost).</li>
 * </ul>
 *
 * <p>So the best option is never beaten by another that is both cheaper and faster beyond the ties: a cheaper plan
 * is in the best's cost tie, and every plan of that tie is at most {@link #TIME_TIE} faster than the best.
 */
final class TieRule {
  /**
   * Costs within this fraction of each other are a tie: a difference inside it is far below the estimator's
   * accuracy (core/CALIBRATION.md), while finishing sooner for the same money is what a planner takes.
   */
  static final double COST_TIE = 0.01;

  /**
   * Wall times within this fraction of each other are a tie, broken by fewer nodes: every extra node is one more
   * machine to provision, join and lose. The same margin, for the same reason, as {@link
   * LayoutSearch#SIMPLER_LAYOUT_MARGIN}: far below the estimator's demonstrated accuracy (core/CALIBRATION.md).
   */
  static final double TIME_TIE = LayoutSearch.SIMPLER_LAYOUT_MARGIN;

  private TieRule() {}

  /** Whether a plan costing {@code cost} ties with the cheapest, of cost {@code cheapest} (in one unit). */
  static boolean costTies(double cost, double cheapest) {
    return cost <= cheapest * (1 + COST_TIE);
  }

  /** Whether a plan of wall time {@code wallNanos} ties with the fastest, of {@code fastestNanos}. */
  static boolean timeTies(long wallNanos, long fastestNanos) {
    return wallNanos <= fastestNanos * (1 + TIME_TIE);
  }

  /**
   * The first plan of one tie: of the plans that {@link #timeTies tie in time} with its fastest, the first by
   * {@code fewerNodes} (fewer nodes, then the shorter time or, for FASTEST, the lower cost, then any total order).
   *
   * @param tie the plans of one tie, at least one
   */
  static <T> T first(Iterable<T> tie, ToLongFunction<? super T> wallNanos, Comparator<? super T> fewerNodes) {
    long fastest = Long.MAX_VALUE;
    for (T p : tie) {
      fastest = Math.min(fastest, wallNanos.applyAsLong(p));
    }
    T best = null;
    for (T p : tie) {
      if (timeTies(wallNanos.applyAsLong(p), fastest) && (best == null || fewerNodes.compare(p, best) < 0)) {
        best = p;
      }
    }
    if (best == null) {
      throw new IllegalArgumentException("a tie has at least one plan");
    }
    return best;
  }

  /**
   * The plans of one tie in the rule's order: in groups that tie in time, each from the fastest left, fastest group
   * first, each group by {@code fewerNodes}. Its first is {@link #first}.
   */
  static <T> List<T> order(List<T> tie, ToLongFunction<? super T> wallNanos, Comparator<? super T> fewerNodes) {
    List<T> byTime = new ArrayList<>(tie);
    byTime.sort(Comparator.<T>comparingLong(wallNanos).thenComparing(fewerNodes));
    List<T> out = new ArrayList<>(byTime.size());
    int i = 0;
    while (i < byTime.size()) {
      long anchor = wallNanos.applyAsLong(byTime.get(i));
      int j = i + 1;
      while (j < byTime.size() && timeTies(wallNanos.applyAsLong(byTime.get(j)), anchor)) {
        j++;
      }
      List<T> group = new ArrayList<>(byTime.subList(i, j));
      group.sort(fewerNodes);
      out.addAll(group);
      i = j;
    }
    return out;
  }
}
