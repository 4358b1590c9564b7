package io.github.gpusizer.core.sizing;

import io.github.gpusizer.core.Objective;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Orders candidates under an objective, with a total order of tie-breakers (cost, time, provider, instance type,
 * region, catalog position, pricing mode, instances, GPUs per run) so the same inputs always give the same order,
 * and finds the cost-versus-time Pareto front.
 */
final class Ranking {
  private static final Comparator<Candidate> BY_COST = Candidate::compareCost;
  private static final Comparator<Candidate> BY_TIME = Comparator.comparing(Candidate::wall);
  private static final Comparator<Candidate> TIES = Comparator
      .comparing((Candidate c) -> c.offering().provider())
      .thenComparing(c -> c.offering().instanceType())
      .thenComparing(c -> c.offering().region())
      .thenComparingInt(Candidate::index)
      .thenComparing(Candidate::mode)
      .thenComparingInt(Candidate::instances)
      .thenComparingInt(Candidate::runGpus);

  private Ranking() {}

  /**
   * The order of an objective. For {@link Objective#BEST_VALUE}, candidates within {@code factor × fastest} come
   * first, cheapest first; the rest follow, cheapest first.
   *
   * @param fastest the shortest wall time of all feasible candidates
   */
  static Comparator<Candidate> order(Objective objective, Duration fastest, double factor) {
    switch (objective) {
      case CHEAPEST:
        return BY_COST.thenComparing(BY_TIME).thenComparing(TIES);
      case FASTEST:
        return BY_TIME.thenComparing(BY_COST).thenComparing(TIES);
      case BEST_VALUE:
        double window = fastest.toNanos() * factor;
        Comparator<Candidate> inWindowFirst =
            Comparator.comparing((Candidate c) -> c.wall().toNanos() > window);
        return inWindowFirst.thenComparing(BY_COST).thenComparing(BY_TIME).thenComparing(TIES);
      default:
        throw new AssertionError(objective);
    }
  }

  /**
   * The candidates no other beats on both cost and wall time (at least as good on both and better on one),
   * fastest first. Of candidates with equal cost and time (one instance type sold in many regions at one price)
   * only the first by the tie-breakers is kept, which is the one every objective would rank first.
   */
  static List<Candidate> paretoFront(List<Candidate> candidates) {
    // Sorted by time alone: the best of each group of equal times is found by a scan, so the sort never compares
    // costs or tie-breakers (the cost of a large catalog's front was mostly those comparisons).
    List<Candidate> sorted = new ArrayList<>(candidates);
    sorted.sort(BY_TIME);
    Comparator<Candidate> byCostThenTies = BY_COST.thenComparing(TIES);
    List<Candidate> front = new ArrayList<>();
    Candidate cheapestSoFar = null; // over all strictly faster groups
    int i = 0;
    while (i < sorted.size()) {
      Candidate groupBest = sorted.get(i); // the first of its group by cost, then the tie-breakers
      int j = i + 1;
      while (j < sorted.size() && sorted.get(j).wall().equals(sorted.get(i).wall())) {
        if (byCostThenTies.compare(sorted.get(j), groupBest) < 0) {
          groupBest = sorted.get(j);
        }
        j++;
      }
      if (cheapestSoFar == null || Candidate.compareCost(groupBest, cheapestSoFar) < 0) {
        front.add(groupBest);
        cheapestSoFar = groupBest;
      }
      i = j;
    }
    return front;
  }

  /** {@link #paretoFront} the straightforward way, by a full sort: the reference the fast scan is tested against. */
  static List<Candidate> paretoFrontBySorting(List<Candidate> candidates) {
    List<Candidate> sorted = new ArrayList<>(candidates);
    sorted.sort(BY_TIME.thenComparing(BY_COST).thenComparing(TIES));
    List<Candidate> front = new ArrayList<>();
    Candidate cheapestSoFar = null;
    int i = 0;
    while (i < sorted.size()) {
      int j = i;
      while (j < sorted.size() && sorted.get(j).wall().equals(sorted.get(i).wall())) {
        j++;
      }
      Candidate groupBest = sorted.get(i);
      if (cheapestSoFar == null || Candidate.compareCost(groupBest, cheapestSoFar) < 0) {
        front.add(groupBest);
        cheapestSoFar = groupBest;
      }
      i = j;
    }
    return front;
  }
}
