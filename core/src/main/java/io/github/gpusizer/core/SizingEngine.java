package io.github.gpusizer.core;

import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.PricingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The recommendation engine: one {@link Pass} over the catalog, the deadline and budget applied to its priced
 * candidates, ranking, the Pareto front, rejections, and a {@link Suggestions suggestion} when nothing is feasible.
 */
final class SizingEngine {
  private static final int MODES = PricingMode.values().length;

  private SizingEngine() {}

  /** Sizes the task of {@code settings}. Pure: the same settings give an equal recommendation. */
  static Recommendation recommend(Settings s) {
    return recommend(s, new LayoutSearch(s));
  }

  /**
   * The same recommendation worked out the straightforward way (see {@link LayoutSearch#LayoutSearch(Settings,
   * boolean)}), for tests that check the fast way gives an equal result.
   */
  static Recommendation reference(Settings s) {
    return recommend(s, new LayoutSearch(s, true));
  }

  private static Recommendation recommend(Settings s, LayoutSearch search) {
    Pass pass = new Pass(s, search);
    Options built = new Options(new Advisor(s));
    if (search.reference()) {
      return recommend(s, search, pass, pass.run(), false, built).orElseThrow();
    }
    if (s.budget().isEmpty() && s.runs() == 1 && pass.deadlineOutOfReach()) {
      // No offering can meet the deadline even at its least possible wall time: nothing is feasible whatever a
      // screen would find, and the report needs each offering's fastest attempt (as below, without the screen).
      return recommend(s, search, pass, pass.run(true), false, built).orElseThrow();
    }
    // CHEAPEST's best option needs only the offerings that can cost less than the cheapest choice found (a bounded
    // screen); the lists need every offering, and are worked out on first use: most callers read only the best.
    Found screened = pass.screen(s.objective() == Objective.CHEAPEST);
    if (!screened.complete()) {
      Optional<Candidate> first = first(s, screened);
      if (first.isEmpty() && s.budget().isEmpty() && s.runs() == 1) {
        // Nothing is feasible (the screen passed over no offering, only counts too few to meet the deadline): the
        // rejections and the suggestion need each offering's fastest attempt, not its every count.
        Pass whole = new Pass(pass);
        return recommend(s, search, whole, whole.run(true), false, built).orElseThrow();
      }
      if (first.isEmpty()) {
        return screenedThenRun(s, search, new Pass(pass), built); // nothing feasible: the lists say why
      }
      Option best = built.of(first.get());
      Supplier<Recommendation> all = Suppliers.memoize(() -> screenedThenRun(s, search, new Pass(pass), built));
      return Recommendation.deferred(s.objective(), s.currency(), best, () -> all.get().ranked(),
          () -> all.get().paretoFront(), () -> all.get().rejected());
    }
    return screenedThenRun(s, search, pass, screened, built);
  }

  /** {@link #screenedThenRun(Settings, LayoutSearch, Pass, Found, Options)} of a fresh screen of {@code pass}. */
  private static Recommendation screenedThenRun(Settings s, LayoutSearch search, Pass pass, Options built) {
    return screenedThenRun(s, search, pass, pass.screen(false), built);
  }

  /**
   * The recommendation from a complete screen, which holds every candidate a feasible recommendation uses; without
   * a feasible candidate the suggestion needs them all, and the whole pass is run.
   */
  private static Recommendation screenedThenRun(Settings s, LayoutSearch search, Pass pass, Found screened,
      Options built) {
    Optional<Recommendation> feasible = recommend(s, search, pass, screened, true, built);
    if (feasible.isPresent()) {
      return feasible.get();
    }
    Pass whole = new Pass(pass);
    return recommend(s, search, whole, whole.run(), false, built).orElseThrow();
  }

  /** The feasible candidates of what a pass found. */
  private static List<Candidate> feasible(Settings s, Found found) {
    List<Candidate> feasible = new ArrayList<>();
    for (Candidate c : found.fitting()) {
      if (isFeasible(s, c)) {
        feasible.add(c);
      }
    }
    return feasible;
  }

  /** CHEAPEST's best candidate of what a (bounded) screen found, empty if none is feasible. */
  private static Optional<Candidate> first(Settings s, Found found) {
    List<Candidate> feasible = feasible(s, found);
    if (feasible.isEmpty()) {
      return Optional.empty();
    }
    Comparator<Candidate> order = Ranking.order(s.objective(), feasible.get(0).wall(), s.bestValueFactor());
    List<Candidate> choices = perOfferingAndMode(feasible, s.objective(), order, s.catalog().offerings().size());
    return Optional.of(Ranking.first(choices, s.objective(), order));
  }

  /** The recommendation from what the pass found; empty if {@code feasibleOnly} and nothing is feasible. */
  private static Optional<Recommendation> recommend(Settings s, LayoutSearch search, Pass pass, Found found,
      boolean feasibleOnly, Options built) {
    List<Candidate> feasible = feasible(s, found);
    boolean[] anyFeasible = new boolean[s.catalog().offerings().size()];
    for (Candidate c : feasible) {
      anyFeasible[c.index()] = true;
    }
    if (feasible.isEmpty() && feasibleOnly) {
      return Optional.empty();
    }
    if (feasible.isEmpty()) {
      ImmutableList<Rejection> rejected = rejections(s, found, anyFeasible);
      return Optional.of(new Recommendation(s.objective(), s.currency(), ImmutableList.of(), ImmutableList.of(),
          rejected, Optional.of(Suggestions.suggest(s, search, pass, found, rejected))));
    }
    // The screen defers candidates only the Pareto front can use; it found the fastest feasible time over all.
    Duration fastest = found.fastest().filter(f -> f.compareTo(feasible.get(0).wall()) < 0)
        .orElse(feasible.get(0).wall());
    for (Candidate c : feasible) {
      if (c.wall().compareTo(fastest) < 0) {
        fastest = c.wall();
      }
    }
    Duration fastestFeasible = fastest;
    Comparator<Candidate> order = Ranking.order(s.objective(), fastest, s.bestValueFactor());
    // The best option is the first of each offering and mode's choice, ranked; the ranked list is worked out on
    // first use: most callers read only the best option.
    List<Candidate> choices = perOfferingAndMode(feasible, s.objective(), order, anyFeasible.length);
    Candidate first = Ranking.first(choices, s.objective(), order);
    Option best = built.of(first);
    return Optional.of(Recommendation.deferred(s.objective(), s.currency(), best,
        () -> built.ranked(search.reference() ? Ranking.eagerly(choices, s.objective(), order)
            : Ranking.lazily(choices, s.objective(), order)),
        () -> built.all(paretoFront(s, search.reference() ? feasible : withDeferred(s, feasible, found),
            fastestFeasible, search.reference())),
        () -> rejections(s, found, anyFeasible)));
  }

  /**
   * The Pareto front over {@link Ranking#distinctCounts distinct counts} of each offering, keeping each offering and
   * mode's choice under every objective (so the best option of any objective can stand on it).
   */
  private static List<Candidate> paretoFront(Settings s, List<Candidate> feasible, Duration fastest,
      boolean reference) {
    List<List<Candidate>> groups = byOfferingAndMode(feasible, s.catalog().offerings().size());
    List<Candidate> chosen = new ArrayList<>();
    List<Candidate> bests = new ArrayList<>();
    for (Objective objective : Objective.values()) {
      Comparator<Candidate> order = Ranking.order(objective, fastest, s.bestValueFactor());
      List<Candidate> choices = choices(groups, objective, order);
      chosen.addAll(choices);
      bests.add(Ranking.first(choices, objective, order));
    }
    List<Candidate> distinct = Ranking.distinctCounts(groups, chosen);
    return Ranking.meaningful(reference ? Ranking.paretoFrontBySorting(distinct) : Ranking.paretoFront(distinct),
        bests);
  }

  /**
   * The Pareto front's candidates: the feasible ones, less those of offerings a screen gave only some of their counts
   * ({@link Found#partial}: their group's cheapest offering beats each), and the feasible ones the pass deferred.
   */
  private static List<Candidate> withDeferred(Settings s, List<Candidate> feasible, Found found) {
    List<Candidate> deferred = found.frontOnly();
    List<Candidate> all = new ArrayList<>(feasible.size() + deferred.size());
    for (Candidate c : feasible) {
      if (!found.partial(c)) {
        all.add(c);
      }
    }
    for (Candidate c : deferred) {
      if (isFeasible(s, c)) {
        all.add(c);
      }
    }
    return all;
  }

  /**
   * For each offering and pricing mode its choice among its feasible candidates, {@link Ranking#first} of them (the
   * number of instances a planner would rent of it), in catalog order.
   */
  private static List<Candidate> perOfferingAndMode(List<Candidate> feasible, Objective objective,
      Comparator<Candidate> order, int offerings) {
    return choices(byOfferingAndMode(feasible, offerings), objective, order);
  }

  /** {@link Ranking#first} of each group. */
  private static List<Candidate> choices(List<List<Candidate>> groups, Objective objective,
      Comparator<Candidate> order) {
    List<Candidate> choices = new ArrayList<>(groups.size());
    for (List<Candidate> group : groups) {
      choices.add(Ranking.first(group, objective, order));
    }
    return choices;
  }

  /** The feasible candidates in groups of one offering and pricing mode, in catalog order. */
  private static List<List<Candidate>> byOfferingAndMode(List<Candidate> feasible, int offerings) {
    List<List<Candidate>> groups = new ArrayList<>();
    if (feasible.size() < offerings) {
      // few candidates for the catalog (a bounded screen's): grouped by sorting them, not in a list per offering
      List<Candidate> sorted = new ArrayList<>(feasible);
      sorted.sort(Comparator.comparingInt(c -> c.index() * MODES + c.mode().ordinal()));
      int from = 0;
      for (int k = 1; k <= sorted.size(); k++) {
        if (k == sorted.size() || sorted.get(k).index() != sorted.get(from).index()
            || sorted.get(k).mode() != sorted.get(from).mode()) {
          groups.add(sorted.subList(from, k));
          from = k;
        }
      }
      return groups;
    }
    List<List<Candidate>> byKey = new ArrayList<>(offerings * MODES);
    for (int k = 0; k < offerings * MODES; k++) {
      byKey.add(null);
    }
    for (Candidate c : feasible) {
      int key = c.index() * MODES + c.mode().ordinal();
      if (byKey.get(key) == null) {
        byKey.set(key, new ArrayList<>(4));
      }
      byKey.get(key).add(c);
    }
    for (List<Candidate> group : byKey) {
      if (group != null) {
        groups.add(group);
      }
    }
    return groups;
  }

  /**
   * The options of one recommendation, one per candidate however often it is asked for (the best option, the
   * ranked list and the Pareto front share them, and so do the candidates of two passes over one catalog: a
   * candidate is its offering, pricing mode and number of instances). Thread-safe: the lists may be worked out by
   * several threads.
   */
  private static final class Options {
    private final Advisor advisor;
    private final Map<CandidateKey, Option> built = new HashMap<>();
    private final Map<Option, CandidateKey> keys = new IdentityHashMap<>();

    Options(Advisor advisor) {
      this.advisor = advisor;
    }

    synchronized Option of(Candidate c) {
      CandidateKey key = new CandidateKey(c.index(), c.mode(), c.instances());
      Option o = built.get(key);
      if (o == null) {
        o = advisor.option(c);
        built.put(key, o);
        keys.put(o, key);
      }
      return o;
    }

    synchronized ImmutableList<Option> all(List<Candidate> candidates) {
      ImmutableList.Builder<Option> out = ImmutableList.builderWithExpectedSize(candidates.size());
      for (Candidate c : candidates) {
        out.add(of(c));
      }
      return out.build();
    }

    /** The ranked candidates as options, each built (and ranked) when first asked for. */
    RankedOptions ranked(Ranking.Lazy ranked) {
      return new RankedOptions() {
        @Override
        public int size() {
          return ranked.size();
        }

        @Override
        public Option get(int index) {
          return of(ranked.get(index));
        }

        @Override
        public int indexOf(Option option) {
          CandidateKey key;
          synchronized (Options.this) {
            key = keys.get(option);
          }
          return key == null ? -1 : ranked.indexOf(key.index(), key.mode(), key.instances());
        }
      };
    }
  }

  /** What identifies a candidate: its offering's index in the catalog, its pricing mode and its instances. */
  private record CandidateKey(int index, PricingMode mode, int instances) {}

  static boolean meetsDeadline(Settings s, Candidate c) {
    return c.wall().compareTo(s.deadline()) <= 0;
  }

  static boolean meetsBudget(Settings s, Candidate c) {
    return s.budget().isEmpty() || c.costsAtMost(s.budget().get(), s.budget().get().amount().doubleValue());
  }

  static boolean isFeasible(Settings s, Candidate c) {
    return meetsDeadline(s, c) && meetsBudget(s, c);
  }

  /** One rejection per offering without a feasible candidate: its closest attempt, in catalog order. */
  private static ImmutableList<Rejection> rejections(Settings s, Found found, boolean[] anyFeasible) {
    int n = anyFeasible.length;
    Candidate[] closestDeadline = new Candidate[n];
    Candidate[] closestBudget = new Candidate[n];
    for (Candidate c : found.fitting()) {
      int i = c.index();
      if (anyFeasible[i]) {
        continue;
      }
      if (!meetsDeadline(s, c)) {
        if (closestDeadline[i] == null || c.wall().compareTo(closestDeadline[i].wall()) < 0) {
          closestDeadline[i] = c;
        }
      } else if (closestBudget[i] == null || Candidate.compareCost(c, closestBudget[i]) < 0) {
        closestBudget[i] = c;
      }
    }
    ImmutableList.Builder<Rejection> out = ImmutableList.builder();
    List<Offering> offerings = s.catalog().offerings();
    // offerings of one shape (an instance type in many regions) miss the deadline alike: one text serves them
    Map<Where, String> tooSlow = new HashMap<>();
    for (int i = 0; i < n; i++) {
      if (anyFeasible[i]) {
        continue;
      }
      Attempt a;
      if (closestBudget[i] != null) {
        Candidate c = closestBudget[i];
        a = attempt(Rejection.Kind.BUDGET, "costs " + Texts.money(c.cost()) + " on " + where(c) + ", over the "
            + Texts.money(s.budget().orElseThrow()) + " budget", c);
      } else if (closestDeadline[i] != null) {
        Candidate c = closestDeadline[i];
        a = attempt(Rejection.Kind.DEADLINE, tooSlow.computeIfAbsent(new Where(c.wall(), c.gpus(), c.instances(),
            c.mode()), w -> "takes " + Texts.duration(c.wall()) + " on " + where(c) + ", past the "
            + Texts.duration(s.deadline()) + " deadline"), c);
      } else {
        a = found.miss(i);
      }
      if (a == null) {
        a = Attempt.of(Rejection.Kind.TOO_LARGE, "no number of instances within the limits was tried");
      }
      out.add(a.toRejection(offerings.get(i)));
    }
    return out.build();
  }

  /** What a deadline miss's text says of its candidate. */
  private record Where(Duration wall, int gpus, int instances, PricingMode mode) {}

  private static Attempt attempt(Rejection.Kind kind, String reason, Candidate c) {
    return new Attempt(kind, reason, 0, OptionalInt.of(c.gpus()), OptionalInt.of(c.instances()),
        Optional.of(c.mode()));
  }

  /** {@code "16 GPUs (2 instances, spot)"}. */
  static String where(Candidate c) {
    return Texts.plural(c.gpus(), "GPU", "GPUs") + " (" + Texts.plural(c.instances(), "instance", "instances")
        + ", " + c.mode().label() + ")";
  }
}
