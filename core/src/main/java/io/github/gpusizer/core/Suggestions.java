package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkState;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.CudaVersion;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What would make an infeasible request feasible, each computed by re-checking candidates with one constraint
 * relaxed and every other kept: the shortest deadline (the fastest candidate within budget), the smallest budget
 * (the cheapest candidate within the deadline), the fewest GPUs beyond the caller's limits, the oldest CUDA
 * version that works.
 */
final class Suggestions {
  /**
   * The largest cluster the GPU-count suggestion looks at: 16,384 GPUs, the size of Meta's Llama 3 405B training
   * cluster of H100s (Llama Team, "The Llama 3 Herd of Models", 2024, §3.3.1), so larger jobs say "beyond that".
   */
  static final int MAX_SUGGESTED_GPUS = 16_384;
  /**
   * Bits of an offering's index in a sort key of {@link #fewestGpusBeyondLimits}: 268 million offerings, far more
   * than a catalog holds (a catalog file has at most 250,000 rows, and each offering is an object of some hundred
   * bytes).
   */
  private static final int INDEX_BITS = 28;
  private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;

  private Suggestions() {}

  static Suggestion suggest(Settings s, LayoutSearch search, Pass pass, Found found,
      ImmutableList<Rejection> rejected) {
    List<String> advice = new ArrayList<>();
    Optional<Duration> deadline = Optional.empty();
    Optional<Money> budget = Optional.empty();
    OptionalInt gpus = OptionalInt.empty();
    Optional<CudaVersion> cuda = Optional.empty();

    // Deadline and budget, from the candidates that fit in memory.
    Comparator<Candidate> cheapest = Ranking.order(Objective.CHEAPEST, Duration.ZERO, 1);
    Comparator<Candidate> fastest = Ranking.order(Objective.FASTEST, Duration.ZERO, 1);
    Optional<Candidate> fastestInBudget =
        found.fitting().stream().filter(c -> SizingEngine.meetsBudget(s, c)).min(fastest);
    Optional<Candidate> cheapestInTime =
        found.fitting().stream().filter(c -> SizingEngine.meetsDeadline(s, c)).min(cheapest);
    if (fastestInBudget.isPresent()) {
      Candidate c = fastestInBudget.get();
      deadline = Optional.of(ceilMinutes(c.wall()));
      advice.add("nothing finishes within " + Texts.duration(s.deadline())
          + (s.budget().isPresent() ? " on the budget" : "") + "; the fastest option takes "
          + Texts.duration(c.wall()) + " (" + brief(c) + "): a deadline of " + Texts.hoursMinutes(deadline.get())
          + " would do");
    }
    if (cheapestInTime.isPresent()) {
      Candidate c = cheapestInTime.get();
      budget = Optional.of(ceilMoney(c.cost()));
      advice.add("nothing within the budget of " + Texts.money(s.budget().orElseThrow()) + " finishes within "
          + Texts.duration(s.deadline()) + "; the cheapest that does costs " + Texts.money(budget.get()) + " ("
          + brief(c) + "): a budget of " + Texts.money(budget.get()) + " would do");
    }
    if (deadline.isEmpty() && budget.isEmpty() && !found.fitting().isEmpty()) {
      Candidate c = found.fitting().stream().min(cheapest).orElseThrow();
      deadline = Optional.of(ceilMinutes(c.wall()));
      budget = Optional.of(ceilMoney(c.cost()));
      advice.add("no option meets both the deadline and the budget; the cheapest option (" + brief(c) + ") takes "
          + Texts.hoursMinutes(deadline.get()) + " and costs " + Texts.money(budget.get())
          + ": a deadline and budget of at least that would do");
    }

    // More GPUs than the limits allow.
    Optional<Candidate> fewest = fewestGpusBeyondLimits(s, search, pass, found);
    if (fewest.isPresent()) {
      Candidate c = fewest.get();
      gpus = OptionalInt.of(c.gpus());
      advice.add("with " + Texts.plural(c.gpus(), "GPU", "GPUs") + " (" + brief(c) + ") it works: raise maxGpus to "
          + c.gpus() + (c.instances() > s.maxNodes() ? " and maxNodes to " + c.instances() : ""));
    } else if (!found.fitting().isEmpty() || found.anyMiss(Rejection.Kind.MEMORY)) {
      advice.add(String.format(java.util.Locale.ROOT, "no number of GPUs up to %,d meets every constraint",
          MAX_SUGGESTED_GPUS) + standAlone(s));
    }

    // A newer CUDA stack.
    if (found.anyCudaBlocked()) {
      Settings relaxed = s.withoutCuda();
      Found again = new Pass(relaxed, search.forSettings(relaxed)).run();
      Optional<Candidate> best = again.fitting().stream()
          .filter(c -> found.cudaBlocked(c.index()) && SizingEngine.isFeasible(s, c))
          .min(Comparator.comparing((Candidate c) -> c.offering().gpu().minCuda().orElseThrow())
              .thenComparing(cheapest));
      if (best.isPresent()) {
        Candidate c = best.get();
        cuda = c.offering().gpu().minCuda();
        advice.add("with CUDA " + cuda.get() + " or newer, " + brief(c) + " would work");
      }
    }

    if (advice.isEmpty()) {
      advice.add(summary(rejected));
    }
    return new Suggestion(String.join("; ", advice), deadline, budget, gpus, cuda);
  }

  /**
   * Why "no number of GPUs" where every offering is stand-alone (a catalog of RunPod or Vast rows alone): that each
   * was tried on one instance ({@code "; runpod, vast instances are stand-alone (...), so each was tried on one
   * instance"}); nothing where some offering can be joined, as those were tried up to the limit.
   */
  private static String standAlone(Settings s) {
    java.util.SortedSet<String> providers = new java.util.TreeSet<>();
    for (io.github.gpusizer.catalog.Offering o : s.catalog().offerings()) {
      if (o.joinable()) {
        return "";
      }
      providers.add(o.provider());
    }
    return providers.isEmpty() ? "" : "; " + String.join(", ", providers) + " instances are stand-alone (never "
        + "joined into one multi-node job; each offering's source says why), so each was tried on one instance";
  }

  /**
   * The candidate with the fewest GPUs beyond the caller's limits that meets deadline and budget. Per offering it
   * doubles the instances until one works, then bisects down to the fewest (feasibility grows with GPUs: more
   * sharding, more speed; a non-monotone case can only make the answer larger than the true minimum, never
   * infeasible).
   */
  private static Optional<Candidate> fewestGpusBeyondLimits(Settings s, LayoutSearch search, Pass pass,
      Found found) {
    Settings relaxed = s.withLimits(MAX_SUGGESTED_GPUS, MAX_SUGGESTED_GPUS);
    Pass wide = new Pass(relaxed, search);
    List<Offering> offerings = s.catalog().offerings();
    Comparator<Candidate> fewer = Comparator.comparingInt(Candidate::gpus)
        .thenComparing(Ranking.order(Objective.CHEAPEST, Duration.ZERO, 1));
    // Offerings of one shape need as many instances as each other where every wall time is the placement's and
    // there is no budget (the search then asks only whether the shape's placement meets the deadline).
    Map<Object, Integer> fewestOfShape = new HashMap<>();
    // A feasible count meets the deadline, so it is at least the fewest instances that can (Pass#leastInstances):
    // offerings are taken in the order of that bound's GPUs, and once it passes the best found, no later one can
    // beat it (the order is total, so the best is the same in any order). The reference takes every offering.
    // Sorted as primitives, each the bound's GPUs (past any suggestion, MAX_SUGGESTED_GPUS + 1) over the index.
    checkState(offerings.size() <= INDEX_MASK, "more offerings than a sort key holds");
    long[] open = new long[offerings.size()];
    int count = 0;
    for (int i = 0; i < offerings.size(); i++) {
      Attempt miss = found.miss(i);
      if (miss == null || miss.kind().ordinal() >= Rejection.Kind.TOO_LARGE.ordinal()) {
        // the others are filtered out or incompatible: more GPUs do not help
        long leastGpus = (long) wide.leastInstances(offerings.get(i)) * offerings.get(i).gpuCount();
        open[count++] = Math.min(leastGpus, MAX_SUGGESTED_GPUS + 1) << INDEX_BITS | i;
      }
    }
    Arrays.sort(open, 0, count);
    Candidate best = null;
    for (int k = 0; k < count; k++) {
      int i = (int) (open[k] & INDEX_MASK);
      if (best != null && open[k] >>> INDEX_BITS > best.gpus() && !search.reference()) {
        break;
      }
      Offering o = offerings.get(i);
      boolean byShape = s.budget().isEmpty() && wide.pricedByWall(o);
      Integer known = byShape ? fewestOfShape.get(wide.shapeKey(o)) : null;
      Candidate hit;
      if (known == null) {
        // no count with more GPUs than the best found can beat it (fewer GPUs first): the search stops there
        hit = fewest(s, pass, wide, i, o, best == null || search.reference() ? Long.MAX_VALUE : best.gpus());
        if (byShape) {
          fewestOfShape.put(wide.shapeKey(o), hit == null ? 0 : hit.instances());
        }
      } else {
        hit = known == 0 ? null : feasibleAt(s, wide, i, o, known).orElse(null);
      }
      if (hit != null && (best == null || fewer.compare(hit, best) < 0)) {
        best = hit;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The feasible candidate of offering {@code i} with the fewest instances beyond the limits and at most {@code
   * mostGpus} GPUs, null if none. Counts below the offering's {@link Pass#leastInstances} cannot meet the deadline,
   * so the search starts there.
   */
  private static Candidate fewest(Settings s, Pass pass, Pass wide, int i, Offering o, long mostGpus) {
    // every count up to here is infeasible: tried within the limits, or too few to meet the deadline
    int below = Math.max(pass.maxInstances(o), wide.leastInstances(o) - 1);
    int cap = (int) Math.min(wide.maxInstances(o), mostGpus / o.gpuCount());
    if (below >= cap) {
      return null;
    }
    Candidate hit = null;
    int n = below + 1;
    while (true) {
      n = Math.min(n, cap);
      Optional<Candidate> c = feasibleAt(s, wide, i, o, n);
      if (c.isPresent()) {
        hit = c.get();
        break;
      }
      if (n == cap) {
        return null;
      }
      below = n;
      n *= 2;
    }
    int hi = hit.instances();
    while (hi - below > 1) {
      int mid = below + (hi - below) / 2;
      Optional<Candidate> c = feasibleAt(s, wide, i, o, mid);
      if (c.isPresent()) {
        hit = c.get();
        hi = mid;
      } else {
        below = mid;
      }
    }
    return hit;
  }

  private static Optional<Candidate> feasibleAt(Settings s, Pass wide, int i, Offering o, int n) {
    List<Candidate> out = new ArrayList<>();
    wide.instances(i, o, n, out);
    return out.stream().filter(c -> SizingEngine.isFeasible(s, c))
        .min(Ranking.order(Objective.CHEAPEST, Duration.ZERO, 1));
  }

  private static String summary(List<Rejection> rejected) {
    if (rejected.isEmpty()) {
      return "the catalog has no offerings";
    }
    Map<Rejection.Kind, Integer> counts = new EnumMap<>(Rejection.Kind.class);
    for (Rejection r : rejected) {
      counts.merge(r.kind(), 1, Integer::sum);
    }
    Rejection closest = rejected.stream().max(Comparator.comparing(Rejection::kind)).orElseThrow();
    List<String> parts = new ArrayList<>();
    counts.forEach((k, v) -> parts.add(v + " " + describe(k)));
    return "no option found (" + String.join(", ", parts) + "); the closest: " + closest;
  }

  private static String describe(Rejection.Kind kind) {
    switch (kind) {
      case EXCLUDED:
        return "excluded by the filters";
      case NOT_SOLD:
        return "not sold in the pricing modes allowed";
      case NO_EXCHANGE_RATE:
        return "without an exchange rate";
      case INCOMPATIBLE:
        return "incompatible";
      case TOO_LARGE:
        return "beyond the GPU or node limits";
      case LAYOUT:
        return "with no layout for the batch or model";
      case MEMORY:
        return "short of memory";
      case DEADLINE:
        return "too slow";
      case BUDGET:
        return "too expensive";
      default:
        throw new AssertionError(kind);
    }
  }

  /** {@code "8× NVIDIA A100-SXM4-80GB on aws p4de.24xlarge"}. */
  private static String brief(Candidate c) {
    return c.gpus() + "× " + c.offering().gpu().name() + " on " + c.offering().provider() + " "
        + c.offering().instanceType();
  }

  private static Duration ceilMinutes(Duration d) {
    Duration minutes = Duration.ofMinutes(d.toMinutes());
    return minutes.equals(d) ? d : minutes.plusMinutes(1);
  }

  private static Money ceilMoney(Money m) {
    int digits = Math.max(0, m.currency().getDefaultFractionDigits());
    return Money.of(m.amount().setScale(digits, RoundingMode.CEILING), m.currency());
  }
}
