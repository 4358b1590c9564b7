package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkElementIndex;

import io.github.gpusizer.core.cost.PricingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Orders candidates under an objective, with a total order of tie-breakers (cost, time, provider, instance type,
 * region, catalog position, pricing mode, instances, GPUs per run) so the same inputs always give the same order,
 * and finds the cost-versus-time Pareto front.
 */
final class Ranking {
  private static final Comparator<Candidate> BY_COST = Candidate::compareCost;
  private static final Comparator<Candidate> BY_TIME = Comparator.comparing(Candidate::wall);
  private static final Comparator<Candidate> TIES = Ranking::compareTies;
  /*
   * The orders that sort whole catalogs are written out as methods rather than chained with thenComparing: a
   * chain is a lambda per key calling a key extractor per side, which the command-line tool's C1 compiler does not
   * inline, and ranking a 100,000-row SkyPilot file compares about a million pairs, most of them cost ties
   * (one instance type at one price in many regions) decided by these tie-breakers.
   */
  private static final Comparator<Candidate> COST_TIME_TIES = Ranking::compareCostTimeTies;
  private static final Comparator<Candidate> TIME_COST_TIES = Ranking::compareTimeCostTies;

  /** A cost tie's order within a {@link TieRule#TIME_TIE time tie}: fewer nodes, then the shorter time. */
  private static final Comparator<Candidate> FEWER_NODES = (a, b) -> {
    int c = Integer.compare(a.instances(), b.instances());
    if (c == 0) {
      c = a.wall().compareTo(b.wall());
    }
    return c != 0 ? c : compareTies(a, b);
  };
  /** FASTEST's order within its {@link TieRule#TIME_TIE}: fewer nodes, then the lower cost (the times count equal). */
  private static final Comparator<Candidate> FEWER_NODES_THEN_COST = (a, b) -> {
    int c = Integer.compare(a.instances(), b.instances());
    return c != 0 ? c : compareCostTimeTies(a, b);
  };
  private static final java.util.function.ToLongFunction<Candidate> WALL_NANOS = c -> c.wall().toNanos();

  private Ranking() {}

  /** Provider, instance type, region, catalog position, pricing mode, instances, GPUs per run. */
  private static int compareTies(Candidate a, Candidate b) {
    int c = 0;
    if (a.offering() != b.offering()) {
      c = a.offering().provider().compareTo(b.offering().provider());
      if (c == 0) {
        c = a.offering().instanceType().compareTo(b.offering().instanceType());
      }
      if (c == 0) {
        c = a.offering().region().compareTo(b.offering().region());
      }
    }
    if (c == 0) {
      c = Integer.compare(a.index(), b.index());
    }
    if (c == 0) {
      c = a.mode().compareTo(b.mode());
    }
    if (c == 0) {
      c = Integer.compare(a.instances(), b.instances());
    }
    return c != 0 ? c : Integer.compare(a.runGpus(), b.runGpus());
  }

  private static int compareCostTimeTies(Candidate a, Candidate b) {
    int c = Candidate.compareCost(a, b);
    if (c == 0) {
      c = a.wall().compareTo(b.wall());
    }
    return c != 0 ? c : compareTies(a, b);
  }

  private static int compareTimeCostTies(Candidate a, Candidate b) {
    int c = a.wall().compareTo(b.wall());
    if (c == 0) {
      c = Candidate.compareCost(a, b);
    }
    return c != 0 ? c : compareTies(a, b);
  }

  /**
   * Whether the objective ranks by cost with {@link TieRule#COST_TIE}: CHEAPEST, and BEST_VALUE within and beyond its
   * window. FASTEST ranks by time with {@link TieRule#TIME_TIE}.
   */
  static boolean tiesOnCost(Objective objective) {
    return objective != Objective.FASTEST;
  }

  /**
   * How {@link TieRule} orders the candidates of one time tie: fewer nodes, then the shorter time (FASTEST: the
   * lower cost).
   */
  private static Comparator<Candidate> withinTie(Objective objective) {
    return tiesOnCost(objective) ? FEWER_NODES : FEWER_NODES_THEN_COST;
  }

  /**
   * Whether {@code c} ties with {@code anchor}, the first of its objective's order: in cost ({@link
   * TieRule#costTies}, on the same side of BEST_VALUE's window), or for FASTEST in wall time ({@link
   * TieRule#timeTies}).
   */
  private static boolean tied(Objective objective, Comparator<Candidate> order, Candidate anchor, Candidate c) {
    return tiesOnCost(objective) ? sameWindow(order, anchor, c) && TieRule.costTies(c.costKey(), anchor.costKey())
        : TieRule.timeTies(c.wall().toNanos(), anchor.wall().toNanos());
  }

  /**
   * The candidates ranked by {@code order}, in groups of ties (each from the first left to the candidates that tie
   * with it: in cost, BEST_VALUE's window first, or for FASTEST in time), each group in {@link TieRule#order}: the
   * faster first, and of those that tie in time the fewer nodes.
   */
  static List<Candidate> rank(List<Candidate> candidates, Objective objective, Comparator<Candidate> order) {
    List<Candidate> sorted = new ArrayList<>(candidates);
    sorted.sort(order);
    return inGroupsOfTies(sorted, objective, order, false);
  }

  /**
   * {@code sorted} (by {@code order}) in groups of ties as {@link #rank} has them; if {@code lastMayGoOn} (they are
   * the first of more candidates), without the last group, whose ties may go on among the others.
   */
  private static List<Candidate> inGroupsOfTies(List<Candidate> sorted, Objective objective,
      Comparator<Candidate> order, boolean lastMayGoOn) {
    List<Candidate> out = new ArrayList<>(sorted.size());
    int i = 0;
    while (i < sorted.size()) {
      Candidate anchor = sorted.get(i);
      int j = i + 1;
      while (j < sorted.size() && tied(objective, order, anchor, sorted.get(j))) {
        j++;
      }
      if (lastMayGoOn && j == sorted.size()) {
        break;
      }
      out.addAll(TieRule.order(sorted.subList(i, j), WALL_NANOS, withinTie(objective)));
      i = j;
    }
    return out;
  }

  /**
   * {@link #rank} worked out as far as it is read: {@link Lazy#get} of one of the first positions selects only
   * the candidates that can stand there (a report of 100,000 options shows ten), {@link Lazy#all} ranks them all.
   */
  static Lazy lazily(List<Candidate> candidates, Objective objective, Comparator<Candidate> order) {
    return new Lazy(List.copyOf(candidates), objective, order);
  }

  /** {@link #rank} as a {@link Lazy} that ranks them all at once (the reference path). */
  static Lazy eagerly(List<Candidate> candidates, Objective objective, Comparator<Candidate> order) {
    Lazy ranked = lazily(candidates, objective, order);
    ranked.all();
    return ranked;
  }

  /** The ranking of {@link #lazily}: as far as it was read. Thread-safe. */
  static final class Lazy {
    private final List<Candidate> candidates;
    private final Objective objective;
    private final Comparator<Candidate> order;
    /** The first positions of {@link #rank}, as many as worked out so far. */
    private List<Candidate> settled = List.of();

    private Lazy(List<Candidate> candidates, Objective objective, Comparator<Candidate> order) {
      this.candidates = candidates;
      this.objective = objective;
      this.order = order;
    }

    int size() {
      return candidates.size();
    }

    /** The candidate at {@code index} of {@link #rank}. */
    synchronized Candidate get(int index) {
      checkElementIndex(index, size()); // an empty ranking would otherwise grow its prefix for ever
      // the first k by the order, grown 4-fold until the ties of the position are inside them
      for (int k = Math.max(16, 2 * (index + 1)); settled.size() <= index; k = (int) Math.min(4L * k, size())) {
        settled = prefix(k);
      }
      return settled.get(index);
    }

    /**
     * The position in {@link #rank} of the candidate of this offering, pricing mode and instances; -1 if none of them
     * is that. Ranks only as far as that candidate: a report asks where each Pareto front member stands, and most
     * members are either no ranked candidate at all or near the top (a 40,000-option ranking for ten answers was a
     * third of a recommendation's lists over a 100,000-row SkyPilot file).
     */
    synchronized int indexOf(int offering, PricingMode mode, int instances) {
      Candidate wanted = null;
      for (Candidate c : candidates) {
        if (c.index() == offering && c.mode() == mode && c.instances() == instances) {
          wanted = c;
          break;
        }
      }
      if (wanted == null) {
        return -1;
      }
      // its place in the order: the groups of ties that end there hold it once settled (the order is total)
      int before = 0;
      for (Candidate c : candidates) {
        if (order.compare(c, wanted) < 0) {
          before++;
        }
      }
      get(before);
      for (int i = 0; i < settled.size(); i++) {
        if (settled.get(i) == wanted) {
          return i;
        }
      }
      throw new AssertionError("a settled prefix lacks the candidate it covers: " + wanted);
    }

    /** The whole of {@link #rank}. */
    synchronized List<Candidate> all() {
      if (settled.size() < size()) {
        settled = rank(candidates, objective, order);
      }
      return settled;
    }

    /**
     * The first positions of {@link #rank} that the {@code k} first candidates by the order decide: every group of
     * ties but the last, which may go on past them (all of them once {@code k} covers every candidate).
     */
    private List<Candidate> prefix(int k) {
      if (k >= size()) {
        return rank(candidates, objective, order);
      }
      // a heap of the k first seen so far, the last of them on top
      PriorityQueue<Candidate> first = new PriorityQueue<>(k + 1, order.reversed());
      for (Candidate c : candidates) {
        if (first.size() < k) {
          first.add(c);
        } else if (order.compare(c, first.peek()) < 0) {
          first.poll();
          first.add(c);
        }
      }
      List<Candidate> sorted = new ArrayList<>(first);
      sorted.sort(order);
      return inGroupsOfTies(sorted, objective, order, true);
    }
  }

  /** The first of {@link #rank}, found in linear time. */
  static Candidate first(List<Candidate> candidates, Objective objective, Comparator<Candidate> order) {
    Candidate anchor = candidates.get(0);
    for (Candidate c : candidates) {
      if (order.compare(c, anchor) < 0) {
        anchor = c;
      }
    }
    List<Candidate> tie = new ArrayList<>();
    for (Candidate c : candidates) {
      if (tied(objective, order, anchor, c)) {
        tie.add(c);
      }
    }
    return TieRule.first(tie, WALL_NANOS, withinTie(objective));
  }

  /** Whether BEST_VALUE's window (its order's first key) puts both candidates on the same side. */
  private static boolean sameWindow(Comparator<Candidate> order, Candidate a, Candidate b) {
    return !(order instanceof WindowOrder w) || w.inWindow(a) == w.inWindow(b);
  }

  /** BEST_VALUE's order, which knows its window. */
  private record WindowOrder(double window, Comparator<Candidate> order) implements Comparator<Candidate> {
    boolean inWindow(Candidate c) {
      return c.wall().toNanos() <= window;
    }

    @Override
    public int compare(Candidate a, Candidate b) {
      return order.compare(a, b);
    }
  }

  /**
   * The order of an objective. For {@link Objective#BEST_VALUE}, candidates within {@code factor × fastest} come
   * first, cheapest first; the rest follow, cheapest first.
   *
   * @param fastest the shortest wall time of all feasible candidates
   */
  static Comparator<Candidate> order(Objective objective, Duration fastest, double factor) {
    switch (objective) {
      case CHEAPEST:
        return COST_TIME_TIES;
      case FASTEST:
        return TIME_COST_TIES;
      case BEST_VALUE:
        double window = fastest.toNanos() * factor;
        Comparator<Candidate> inWindowFirst =
            Comparator.comparing((Candidate c) -> c.wall().toNanos() > window);
        return new WindowOrder(window, inWindowFirst.thenComparing(COST_TIME_TIES));
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

  /**
   * The front's meaningful trade-offs: walking from its cheapest point to its fastest, each point stays only if it
   * is faster than the last one kept by more than {@link TieRule#TIME_TIE} (the dearer, a hair faster, is no
   * trade-off a planner can act on), or is in {@code keep} (the best option of some objective, which must stand on
   * the front). The README's LoRA front had nine points of 5.0–5.4 min costing
   * 21–37 USD; one of them says as much.
   *
   * @param front a Pareto front, fastest first (each point cheaper than the one before)
   * @param keep candidates that stay (compared by identity)
   */
  static List<Candidate> meaningful(List<Candidate> front, Collection<Candidate> keep) {
    Set<Candidate> stay = Collections.newSetFromMap(new IdentityHashMap<>());
    stay.addAll(keep);
    List<Candidate> out = new ArrayList<>(front.size());
    Candidate last = null;
    for (int i = front.size() - 1; i >= 0; i--) {
      Candidate c = front.get(i);
      if (last == null || stay.contains(c)
          || c.wall().toNanos() < last.wall().toNanos() * (1 - TieRule.TIME_TIE)) {
        out.add(c);
        last = c;
      }
    }
    Collections.reverse(out);
    return out;
  }

  /**
   * The candidates a planner's Pareto front is drawn from: of one offering and pricing mode, counts fewer than two
   * or less than a {@link InstanceCounts#STEP ladder step} apart are one trade-off (issue #10: the front shows no
   * runs of consecutive counts of one offering), so of such counts only the first kept one stays. Kept first, each
   * offering and mode's fastest and cheapest candidate and the {@code chosen} ones (its choice under every
   * objective); then the rest from the most instances down, each if apart from every count kept so far. The front
   * of what stays is a true Pareto front of it, holding every chosen candidate no other beats.
   *
   * @param groups the feasible candidates in groups of one offering and pricing mode (each group is reordered)
   * @param chosen candidates that stay whatever their count (compared by identity)
   */
  static List<Candidate> distinctCounts(List<List<Candidate>> groups, Collection<Candidate> chosen) {
    Set<Candidate> stay = Collections.newSetFromMap(new IdentityHashMap<>());
    stay.addAll(chosen);
    Comparator<Candidate> byTimeThenTies = BY_TIME.thenComparing(TIES);
    Comparator<Candidate> byCostThenTies = BY_COST.thenComparing(TIES);
    for (List<Candidate> group : groups) {
      stay.add(Collections.min(group, byTimeThenTies));
      stay.add(Collections.min(group, byCostThenTies));
    }
    List<Candidate> out = new ArrayList<>();
    for (List<Candidate> group : groups) {
      List<Candidate> kept = new ArrayList<>(4);
      for (Candidate c : group) {
        if (stay.contains(c)) {
          kept.add(c);
        }
      }
      group.sort(Comparator.comparingInt(Candidate::instances).reversed().thenComparing(TIES));
      for (Candidate c : group) {
        if (!stay.contains(c) && kept.stream().allMatch(k -> apart(k, c))) {
          kept.add(c);
        }
      }
      out.addAll(kept);
    }
    return out;
  }

  /** Whether two counts of one offering are distinct trade-offs: at least two and a ladder step apart. */
  private static boolean apart(Candidate a, Candidate b) {
    int more = Math.max(a.instances(), b.instances());
    int fewer = Math.min(a.instances(), b.instances());
    return more - fewer >= 2 && more >= fewer * InstanceCounts.STEP;
  }

  /** {@link #paretoFront} the straightforward way, by a full sort: the reference the fast scan is tested against. */
  static List<Candidate> paretoFrontBySorting(List<Candidate> candidates) {
    List<Candidate> sorted = new ArrayList<>(candidates);
    sorted.sort(TIME_COST_TIES);
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
