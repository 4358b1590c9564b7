package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.cost.PricingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Currency;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds, without pricing every candidate, the candidates a feasible recommendation uses, and adds them to the
 * pass in the order {@link Pass#run} would: a subset of its candidates that holds every choice
 * {@link SizingEngine} makes (so {@code Sizer} makes the same choices on it).
 *
 * <p>Why this works: time, billed time and deadline of {@code n} instances depend on the offering's shape (GPU,
 * GPUs per instance, host cores, network), the pricing mode and the billing rounding, never on the price; and
 * the cost is {@code price × f(n)} with {@code f(n) = n × billed seconds ÷ 3600} (or {@code n × periods} for a
 * subscription), then converted at one rate per currency. So, per group of offerings that share shape, mode,
 * billing and currency:
 * <ul>
 *   <li>the best number of instances of an offering under CHEAPEST is the smallest {@code f} among those that
 *       meet the deadline (then the shorter time, the fewer instances), the same for every offering of the group;
 *       the budget is then one comparison; FASTEST and BEST_VALUE likewise from the group's order by time;</li>
 *   <li>at every {@code n} the cheapest offering of the group (by price, then the ranking's tie-breakers) costs
 *       least, so it alone can stand on the Pareto front for the group: its candidates at every {@code n} are
 *       kept, and the global fastest feasible time is among them;</li>
 *   <li>an offering with no feasible candidate keeps, per mode, the candidate of least cost that meets the
 *       deadline and the one of least time that misses it (its closest attempts).</li>
 * </ul>
 * Money is compared in {@code double} only to screen, with a margin: near the budget the exact {@link Money} of
 * the candidate decides. Prices of zero, or of more than {@link #MAX_PRICE_DIGITS} significant digits (where the
 * rounding of {@code price × seconds ÷ 3600} to 34 digits could make two different prices cost the same), are not
 * screened: every candidate of such an offering is kept.
 *
 * <p>A bounded screen, for CHEAPEST's best option alone, looks at the offerings in the order of the least their
 * candidates can cost and stops where that passes the cost tie of the cheapest choice found ({@link #considered});
 * the lists of a recommendation come from a complete screen, on first use.
 */
final class Screen {
  /**
   * Prices with more significant digits are not screened. {@code price × n × seconds} is exact; its division by
   * 3600 is rounded to 34 digits ({@code MathContext.DECIMAL128}); two prices of at most 20 digits differ by at
   * least one part in 10^20 and {@code n × seconds} stays below 10^13, far above the rounding's one part in 10^33.
   */
  static final int MAX_PRICE_DIGITS = 20;

  /**
   * Whether costs at {@code price} are ordered by the units it is paid for alone ({@code n × billed seconds}):
   * a positive price of at most {@link #MAX_PRICE_DIGITS} significant digits.
   */
  static boolean ordersByUnits(Money price) {
    return price.amount().signum() > 0 && price.amount().precision() <= MAX_PRICE_DIGITS;
  }
  /** Relative margin of the screening in {@code double} (its rounding errors are below 10^-15). */
  private static final double MARGIN = 1e-9;

  private final Settings s;
  private final Pass pass;
  private final CostModel model;
  private final Map<GroupKey, Group> groups = new HashMap<>();
  private final Map<RepKey, Integer> cheapest = new HashMap<>();
  private final Map<MissKey, Attempt> misses = new HashMap<>();
  /**
   * The counts the last {@link #best} call's tie is measured from (0 if none): its cheapest (the cost tie's anchor)
   * and its fastest (the time tie's). The ranking must see them too to make the same choice.
   */
  private int costAnchor;
  private int timeAnchor;
  /** Whether to pass over the offerings that cannot hold CHEAPEST's best option ({@link #considered}). */
  private final boolean bounded;

  Screen(Settings s, Pass pass, boolean bounded) {
    checkArgument(!bounded || s.objective() == Objective.CHEAPEST, "a bounded screen is for CHEAPEST only");
    this.s = s;
    this.pass = pass;
    this.model = s.costs().model();
    this.bounded = bounded;
  }

  /** Offerings of one group share times, billed times and deadline at every number of instances. */
  private record GroupKey(String gpuId, int gpuCount, int vcpus, double networkGbps, Fabric fabric,
      Duration startup, PricingMode mode, BillingMode billing, Optional<Interruptions> spot) {}

  private GroupKey groupKey(Offering o, PricingMode mode) {
    return new GroupKey(o.gpu().id(), o.gpuCount(), o.vcpus(), o.networkGbps().orElse(Double.NaN), o.fabric(),
        pass.startupTotal(o), mode, o.billing(),
        mode == PricingMode.SPOT ? s.costs().interruptionsFor(o) : Optional.empty());
  }

  /** Offerings of one group and currency: the cheapest of them costs least at every number of instances. */
  private record RepKey(GroupKey group, Currency currency) {}

  /** Offerings whose attempts all miss the same way. */
  private record MissKey(String gpuId, int gpuCount, int vcpus, double networkGbps, Fabric fabric,
      Duration startup, Set<PricingMode> modes) {}

  /** What a group's offerings share at each number of instances {@code n} (arrays indexed by {@code n}). */
  private final class Group {
    /** The most instances its counts were bounded by ({@link Pass#mostInstances}); none: the largest int. */
    final int most;
    final int max;
    /** The wall time (spot: expected, with interruptions), null where nothing fits or spot never finishes. */
    final Duration[] wall;
    /** {@code n × billed seconds} (subscriptions: {@code n × billed seconds} too, a multiple of the period). */
    final long[] f;
    /** The cost of one unit of price: {@code f ÷ 3600}, or {@code n × periods} for a subscription. */
    final double[] perUnitPrice;
    final boolean[] meetsDeadline;
    /** The placement of {@code n} instances of the group's shape. */
    final Pass.Placement[] placements;
    /** Meeting the deadline, by (f, wall, n): CHEAPEST's choice; 0 if none. */
    final int cheapest;
    /** Meeting the deadline, by (f, n): the closest attempt over budget; 0 if none. */
    final int cheapestFirst;
    /** Missing the deadline, by (wall, n): the closest attempt past the deadline; 0 if none. */
    final int closestPastDeadline;
    /** Meeting the deadline, ordered by (wall, f, n): FASTEST's order. */
    final int[] byTime;
    final boolean anyFit;
    int inWindow = -1;
    int outOfWindow = -1;

    Group(Offering template, PricingMode mode) {
      this(template, mode, pass.counts(template), Integer.MAX_VALUE);
    }

    /**
     * The group at the given counts of instances, ascending: a bounded screen's are fewer ({@link #considered}), none
     * above the ladder's rung at or above {@code most}.
     */
    Group(Offering template, PricingMode mode, int[] counts, int most) {
      this.most = most;
      max = pass.maxInstances(template);
      wall = new Duration[max + 1];
      f = new long[max + 1];
      perUnitPrice = new double[max + 1];
      meetsDeadline = new boolean[max + 1];
      placements = new Pass.Placement[max + 1];
      int cheapestN = 0;
      int cheapestFirstN = 0;
      int pastN = 0;
      boolean fit = false;
      List<Integer> ok = new ArrayList<>();
      Optional<Interruptions> interruptions = mode == PricingMode.SPOT
          ? s.costs().interruptionsFor(template) : Optional.empty();
      for (int n : counts) {
        Pass.Placement p = pass.placement(template, n);
        placements[n] = p;
        if (p.miss != null) {
          continue;
        }
        Duration w = p.wall;
        Duration billed;
        if (interruptions.isPresent()) {
          try {
            w = model.spot(template, n, p.wall, interruptions.get()).expectedWall();
          } catch (IllegalArgumentException e) {
            continue; // never finishes: a miss, recorded by the pass where it matters
          }
          billed = model.billed(w, template.billing());
        } else {
          billed = model.billed(w, template, mode);
        }
        fit = true;
        wall[n] = w;
        f[n] = Math.multiplyExact((long) n, billed.getSeconds());
        perUnitPrice[n] = CostStep.priceUnits(mode, n, billed);
        if (w.compareTo(s.deadline()) <= 0) {
          meetsDeadline[n] = true;
          ok.add(n);
          if (cheapestN == 0 || f[n] < f[cheapestN] || f[n] == f[cheapestN] && w.compareTo(wall[cheapestN]) < 0) {
            cheapestN = n;
          }
          if (cheapestFirstN == 0 || f[n] < f[cheapestFirstN]) {
            cheapestFirstN = n;
          }
        } else if (pastN == 0 || w.compareTo(wall[pastN]) < 0) {
          pastN = n;
        }
      }
      cheapest = cheapestN;
      cheapestFirst = cheapestFirstN;
      closestPastDeadline = pastN;
      anyFit = fit;
      byTime = ok.stream().sorted((a, b) -> {
        int c = wall[a].compareTo(wall[b]);
        if (c != 0) {
          return c;
        }
        c = Long.compare(f[a], f[b]);
        return c != 0 ? c : Integer.compare(a, b);
      }).mapToInt(Integer::intValue).toArray();
    }

    /** BEST_VALUE's choices: the cheapest meeting the deadline within the window, and outside it. */
    void window(double windowNanos) {
      if (inWindow >= 0) {
        return;
      }
      int in = 0;
      int out = 0;
      for (int n : byTime) {
        if (wall[n].toNanos() > windowNanos) {
          out = cheaper(out, n);
        } else {
          in = cheaper(in, n);
        }
      }
      inWindow = in;
      outOfWindow = out;
    }

    /** The one of {@code a} (0: none) and {@code b} first by (f, wall, n). */
    private int cheaper(int a, int b) {
      if (a == 0) {
        return b;
      }
      int c = Long.compare(f[b], f[a]);
      if (c == 0) {
        c = wall[b].compareTo(wall[a]);
      }
      if (c == 0) {
        c = Integer.compare(b, a);
      }
      return c < 0 ? b : a;
    }
  }

  /** The screened pass's result; without a feasible candidate, one with no fitting candidates. */
  Found run() {
    List<Offering> offerings = s.catalog().offerings();
    int count = offerings.size();
    boolean[] open = new boolean[count];
    boolean[] unscreened = new boolean[count];
    List<PricingMode> allowed = new ArrayList<>();
    for (PricingMode m : PricingMode.values()) {
      if (s.pricing().contains(m)) {
        allowed.add(m);
      }
    }
    // Per screened offering: the placements of its shape by number of instances (shared by its groups).
    Pass.Placement[][] placementsOf = new Pass.Placement[count][];
    // Per screened offering and mode: its group, looked up once (its key hashes a string, a duration and more).
    Group[][] groupOf = new Group[count][];
    boolean[] considered = bounded ? considered(offerings, allowed) : null;
    // 1. Groups and each group's cheapest offering.
    for (int i = 0; i < count; i++) {
      Offering o = offerings.get(i);
      if (considered != null && !considered[i] || pass.ruledOut(i, o)) {
        continue;
      }
      open[i] = true;
      for (PricingMode mode : allowed) {
        Optional<Money> price = mode.price(o);
        if (price.isEmpty()) {
          continue;
        }
        if (!ordersByUnits(price.get())) {
          unscreened[i] = true;
        }
      }
      if (unscreened[i]) {
        continue;
      }
      for (PricingMode mode : allowed) {
        Optional<Money> price = mode.price(o);
        if (price.isEmpty()) {
          continue;
        }
        GroupKey key = groupKey(o, mode);
        Group group = groups.computeIfAbsent(key, k -> new Group(o, mode));
        if (groupOf[i] == null) {
          groupOf[i] = new Group[PricingMode.values().length];
        }
        groupOf[i][mode.ordinal()] = group;
        placementsOf[i] = group.placements;
        RepKey rep = new RepKey(key, price.get().currency());
        Integer best = cheapest.get(rep);
        if (best == null || cheaperOffering(o, offerings.get(best), mode) < 0) {
          cheapest.put(rep, i);
        }
      }
    }

    // 2. The fastest feasible time, over the cheapest offerings of each group and the unscreened offerings.
    int[][] wanted = new int[count][];
    int[] wantedCount = new int[count];
    // The cheapest offerings' candidates at every n, for the Pareto front only: built when it is asked for.
    int[][] front = new int[count][];
    int[] frontCount = new int[count];
    Duration fastest = null;
    for (Map.Entry<RepKey, Integer> e : cheapest.entrySet()) {
      int i = e.getValue();
      Offering o = offerings.get(i);
      PricingMode mode = e.getKey().group().mode();
      Group g = groups.get(e.getKey().group());
      for (int n = 1; n <= g.max; n++) {
        if (g.wall[n] != null) {
          add(front, frontCount, i, n);
        }
      }
      for (int n : g.byTime) {
        if (withinBudget(o, mode, g, n)) {
          if (fastest == null || g.wall[n].compareTo(fastest) < 0) {
            fastest = g.wall[n];
          }
          break;
        }
      }
    }
    List<Candidate> unscreenedCandidates = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      if (unscreened[i]) {
        List<Candidate> all = new ArrayList<>();
        pass.allInstances(i, offerings.get(i), all);
        for (Candidate c : all) {
          if (SizingEngine.isFeasible(s, c) && (fastest == null || c.wall().compareTo(fastest) < 0)) {
            fastest = c.wall();
          }
        }
        unscreenedCandidates.addAll(all);
      }
    }
    if (fastest == null) {
      // nothing feasible: the caller runs the whole pass (after a bounded screen that left counts out, knowing that)
      Found none = pass.found(new ArrayList<>(), null, null, null);
      return considered != null && passedOver ? none.incomplete() : none;
    }
    double window = fastest.toNanos() * s.bestValueFactor();

    // 3. Each offering's best number of instances per mode; the closest attempts of offerings with none (one
    // search per shape, shared by the offerings of that shape).
    Attempt[] sharedMisses = new Attempt[count];
    for (int i = 0; i < count; i++) {
      if (!open[i] || unscreened[i]) {
        continue;
      }
      Offering o = offerings.get(i);
      boolean feasible = false;
      boolean anyFit = false;
      for (PricingMode mode : allowed) {
        if (!CostStep.isSold(o, mode)) {
          continue;
        }
        Group g = groupOf[i][mode.ordinal()];
        anyFit |= g.anyFit;
        int n = best(o, mode, g, window);
        if (n > 0) {
          feasible = true;
          add(wanted, wantedCount, i, n);
          // the counts the ties are measured from: the ranking needs them to make the same choice
          if (costAnchor > 0 && costAnchor != n) {
            add(wanted, wantedCount, i, costAnchor);
          }
          if (timeAnchor > 0 && timeAnchor != n && timeAnchor != costAnchor) {
            add(wanted, wantedCount, i, timeAnchor);
          }
        }
      }
      if (feasible) {
        continue;
      }
      for (PricingMode mode : allowed) {
        if (!CostStep.isSold(o, mode)) {
          continue;
        }
        Group g = groupOf[i][mode.ordinal()];
        if (g.cheapestFirst > 0) {
          add(wanted, wantedCount, i, g.cheapestFirst);
        }
        if (g.closestPastDeadline > 0) {
          add(wanted, wantedCount, i, g.closestPastDeadline);
        }
      }
      // a bounded screen that passed over something gives the best option, not the rejections (the complete screen
      // does, on first read); one that passed over nothing is the complete screen, and gives them
      if (!anyFit && (considered == null || !passedOver)) {
        Set<PricingMode> sold = EnumSet.noneOf(PricingMode.class);
        for (PricingMode mode : allowed) {
          if (CostStep.isSold(o, mode)) {
            sold.add(mode);
          }
        }
        MissKey key = new MissKey(o.gpu().id(), o.gpuCount(), pass.shapeVcpus(o), o.networkGbps().orElse(Double.NaN),
            o.fabric(), pass.startupTotal(o), sold);
        int index = i;
        sharedMisses[i] = misses.computeIfAbsent(key, k -> {
          pass.allInstances(index, o, new ArrayList<>());
          return pass.miss(index);
        });
      }
    }

    // 4. The candidates, in the pass's order.
    List<Candidate> fitting = new ArrayList<>();
    int[] frontOnly = new int[16];
    int frontOnlyCount = 0;
    int next = 0;
    for (int i = 0; i < count; i++) {
      if (unscreened[i]) {
        while (next < unscreenedCandidates.size() && unscreenedCandidates.get(next).index() == i) {
          fitting.add(unscreenedCandidates.get(next++));
        }
        continue;
      }
      if (wanted[i] == null && front[i] == null) {
        continue; // most of a large catalog: passed over, or an offering no choice and no front point uses
      }
      int[] ns = Arrays.copyOf(wanted[i] == null ? new int[0] : wanted[i], wantedCount[i]);
      Arrays.sort(ns);
      Offering o = offerings.get(i);
      for (int k = 0; k < ns.length; k++) {
        if (k == 0 || ns[k] != ns[k - 1]) {
          // the groups of a bounded screen may hold different counts by mode (each mode's price bounds its own)
          Pass.Placement p = placementsOf[i][ns[k]];
          pass.instances(i, o, ns[k], p != null ? p : pass.placement(o, ns[k]), fitting);
        }
      }
      for (int k = 0; k < frontCount[i]; k++) {
        int n = front[i][k];
        if (Arrays.binarySearch(ns, n) < 0) {
          if (frontOnlyCount + 2 > frontOnly.length) {
            frontOnly = Arrays.copyOf(frontOnly, frontOnly.length * 2);
          }
          frontOnly[frontOnlyCount++] = i;
          frontOnly[frontOnlyCount++] = n;
        }
      }
    }
    // Offerings that are not the cheapest of their group in a mode hold only the counts their choices need.
    boolean[] partial = new boolean[count * PricingMode.values().length];
    for (int i = 0; i < count; i++) {
      if (open[i] && !unscreened[i]) {
        for (PricingMode mode : allowed) {
          partial[i * PricingMode.values().length + mode.ordinal()] = true;
        }
      }
    }
    for (Map.Entry<RepKey, Integer> e : cheapest.entrySet()) {
      partial[e.getValue() * PricingMode.values().length + e.getKey().group().mode().ordinal()] = false;
    }
    Found found = pass.found(fitting, sharedMisses, fastest, Arrays.copyOf(frontOnly, frontOnlyCount))
        .withPartial(partial);
    return considered != null && passedOver ? found.incomplete() : found;
  }

  /** Whether the last {@link #considered} passed over an offering, or counts of one too few to meet the deadline. */
  private boolean passedOver;
  /** The cost of the cheapest choice {@link #considered} has found so far, in the ranking currency. */
  private double cheapestChoice = Double.POSITIVE_INFINITY;

  /**
   * CHEAPEST's bound: the offerings the pass can use, taken in the order of the least their candidates can cost
   * ({@link Pass#leastCost}), up to the first whose least cost is past {@link TieRule#COST_TIE} of the cheapest
   * offering's choice found so far. Those passed over cost more than every choice that could be the best option or
   * tie with it, so the best option is among the ones taken ({@link Ranking#first}: the cheapest choice, then
   * {@link TieRule#first} of those within the tie). Their groups are built without the counts too few to meet the
   * deadline ({@link Pass#leastInstances}), which CHEAPEST never chooses, and without those that cost more than both
   * the tie of the cheapest choice and the offering's own tie (which its choice is taken from).
   */
  private boolean[] considered(List<Offering> offerings, List<PricingMode> allowed) {
    OfferingIndex index = pass.index();
    int classes = index.classes();
    boolean regionFilter = !s.regions().isEmpty();
    // The classes not ruled out, and how many offerings they open (sold in an allowed mode, in an allowed region).
    // The offerings ruled out have their misses recorded (a screen that passes over none gives the rejections).
    int[] open = new int[classes];
    int openClasses = 0;
    int opened = 0;
    int[] inClass = index.members(allowed.get(0));
    for (int c = 0; c < classes; c++) {
      int size = index.classStart(c + 1) - index.classStart(c);
      boolean ruledOut = pass.classRuledOut(c, offerings.get(index.representative(c)));
      if (!ruledOut && !regionFilter && index.classSold(c, s.pricing()) == size) {
        open[openClasses++] = c;
        opened += size;
        continue;
      }
      int left = 0;
      for (int k = index.classStart(c); k < index.classStart(c + 1); k++) {
        left += pass.ruledOut(inClass[k], offerings.get(inClass[k])) ? 0 : 1;
      }
      if (left > 0) {
        open[openClasses++] = c;
        opened += left;
      }
    }
    // An offering's bound is the least over its modes. Within a class a mode's bounds rise with the price, the RAM
    // (staging) at most adding to one: a class is read in a mode's price order while the bound without staging is
    // within reach. The offering of the least bound first (the lowest index among equal bounds): its choice bounds
    // the rest.
    int first = -1;
    double firstBound = Double.POSITIVE_INFINITY;
    for (PricingMode mode : allowed) {
      int[] members = index.members(mode);
      double[] amounts = index.memberAmounts(mode);
      long[] ram = index.memberRam(mode);
      for (int o = 0; o < openClasses; o++) {
        int c = open[o];
        Offering any = null;
        for (int k = index.classStart(c); k < index.classStart(c + 1) && !Double.isNaN(amounts[k]); k++) {
          int i = members[k];
          any = any != null ? any : offerings.get(i);
          double unstaged = pass.leastCost(c, any, amounts[k], false, mode);
          if (first >= 0 && unstaged > firstBound) {
            break;
          }
          if (regionFilter && pass.regionRuledOut(i, offerings.get(i))) {
            continue;
          }
          double bound = pass.staged(ram[k]) ? pass.leastCost(c, any, amounts[k], true, mode) : unstaged;
          if (first < 0 || bound < firstBound || bound == firstBound && i < first) {
            first = i;
            firstBound = bound;
          }
        }
      }
    }
    boolean[] out = new boolean[offerings.size()];
    if (first >= 0) {
      take(first, offerings, allowed, out);
    }
    // The others within the tie of the cheapest choice so far (most of a large catalog is not), by bound then index,
    // taken in order while their bound is within the tie of the cheapest choice so far (it only falls).
    int[] near = new int[16];
    int nearCount = 0;
    for (PricingMode mode : allowed) {
      int[] members = index.members(mode);
      double[] amounts = index.memberAmounts(mode);
      long[] ram = index.memberRam(mode);
      for (int o = 0; o < openClasses; o++) {
        int c = open[o];
        Offering any = offerings.get(members[index.classStart(c)]);
        for (int k = index.classStart(c); k < index.classStart(c + 1) && !Double.isNaN(amounts[k]); k++) {
          if (beyond(pass.leastCost(c, any, amounts[k], false, mode))) {
            break;
          }
          int i = members[k];
          if (i == first || regionFilter && pass.regionRuledOut(i, offerings.get(i))
              || pass.staged(ram[k]) && beyond(pass.leastCost(c, any, amounts[k], true, mode))) {
            continue;
          }
          if (nearCount == near.length) {
            near = Arrays.copyOf(near, nearCount * 2);
          }
          near[nearCount++] = i;
        }
      }
    }
    // each once (an offering may be near in several modes), by bound, then index
    Arrays.sort(near, 0, nearCount);
    int distinct = 0;
    for (int k = 0; k < nearCount; k++) {
      if (k == 0 || near[k] != near[k - 1]) {
        near[distinct++] = near[k];
      }
    }
    double[] bounds = new double[distinct];
    Integer[] order = new Integer[distinct];
    for (int k = 0; k < distinct; k++) {
      bounds[k] = bound(near[k], offerings.get(near[k]), allowed);
      order[k] = k;
    }
    Arrays.sort(order, (a, b) -> Double.compare(bounds[a], bounds[b])); // stable: index order within a bound
    passedOver |= distinct < opened - (first >= 0 ? 1 : 0);
    for (int k : order) {
      if (beyond(bounds[k])) {
        passedOver = true;
        break;
      }
      take(near[k], offerings, allowed, out);
    }
    return out;
  }

  /** The least cost of offering {@code i} in any allowed mode it is sold in ({@link Pass#leastCost}). */
  private double bound(int i, Offering o, List<PricingMode> allowed) {
    double bound = Double.POSITIVE_INFINITY;
    for (PricingMode mode : allowed) {
      if (pass.sold(i, mode)) {
        bound = Math.min(bound, pass.leastCost(i, o, mode));
      }
    }
    return bound;
  }

  /** Whether a bound is past the cost tie of the cheapest choice (with the margin of the screen's roundings). */
  private boolean beyond(double bound) {
    return bound > tieLimit();
  }

  /** The most a choice may cost and still tie with the cheapest choice found so far (with the screen's margin). */
  private double tieLimit() {
    return cheapestChoice * (1 + TieRule.COST_TIE) * (1 + MARGIN);
  }

  /**
   * Takes offering {@code i} into a bounded screen: its groups built from the fewest instances that can meet the
   * deadline, and {@link #cheapestChoice} lowered to its cheapest choice.
   */
  private void take(int i, List<Offering> offerings, List<PricingMode> allowed, boolean[] out) {
    out[i] = true;
    Offering o = offerings.get(i);
    for (PricingMode mode : allowed) {
      Optional<Money> price = mode.price(o);
      if (price.isEmpty() || !ordersByUnits(price.get())) {
        continue; // unscreened offerings are taken, their cost not counted: the bound only loosens
      }
      int least = pass.leastInstances(o);
      // more instances than this cannot cost within the tie of the cheapest choice found: each pays its start-up
      double perUnit = price.get().amount().doubleValue() * pass.rateToRanking(price.get().currency());
      int most = pass.mostInstances(o, mode, tieLimit());
      // a group is shared by offerings of one shape, whose prices may order differently in another mode: it holds
      // the counts the cheapest of them taken so far allows
      GroupKey key = groupKey(o, mode);
      Group g = group(key, o, mode, least, most);
      if (g.cheapest > 0) {
        // the offering's choice is the faster plan within its own cost tie, which may reach past the tie above:
        // the group holds all of it (a tie in units of price, the same for every offering of the group)
        most = Math.max(most, pass.mostInstances(o, mode,
            perUnit * g.perUnitPrice[g.cheapest] * (1 + TieRule.COST_TIE) * (1 + MARGIN)));
        g = group(key, o, mode, least, most);
      }
      passedOver |= least > 1 || most < pass.maxInstances(o);
      if (g.cheapest > 0 && withinBudget(o, mode, g, g.cheapest)) {
        int n = tied(o, mode, g, g.cheapest, x -> true);
        cheapestChoice = Math.min(cheapestChoice, perUnit * g.perUnitPrice[n]);
      }
    }
  }

  /** The group of {@code key} holding at least the counts from {@code least} to {@code most}, built if need be. */
  private Group group(GroupKey key, Offering o, PricingMode mode, int least, int most) {
    Group g = groups.get(key);
    if (g == null || g.most < most) {
      g = new Group(o, mode, pass.countsBetween(o, least, most), most);
      groups.put(key, g);
    }
    return g;
  }

  /** The offering's best number of instances in {@code mode} under the objective, 0 if none is feasible. */
  private int best(Offering o, PricingMode mode, Group g, double window) {
    costAnchor = 0;
    timeAnchor = 0;
    Objective objective = s.objective();
    switch (objective) {
      case CHEAPEST:
        return g.cheapest > 0 && withinBudget(o, mode, g, g.cheapest) ? tied(o, mode, g, g.cheapest, n -> true) : 0;
      case FASTEST:
        long overBudget = Long.MAX_VALUE; // the least f found over budget: no larger f is within it
        for (int n : g.byTime) {
          if (g.f[n] >= overBudget) {
            continue;
          }
          if (withinBudget(o, mode, g, n)) {
            return tiedInTime(o, mode, g, n);
          }
          overBudget = g.f[n];
        }
        return 0;
      case BEST_VALUE:
        g.window(window);
        if (g.inWindow > 0 && withinBudget(o, mode, g, g.inWindow)) {
          return tied(o, mode, g, g.inWindow, n -> g.wall[n].toNanos() <= window);
        }
        return g.outOfWindow > 0 && withinBudget(o, mode, g, g.outOfWindow)
            ? tied(o, mode, g, g.outOfWindow, n -> g.wall[n].toNanos() > window) : 0;
      default:
        throw new AssertionError(objective);
    }
  }

  /**
   * The ranking's choice among the counts that {@link TieRule#costTies tie in cost} with {@code cheapest} (on the
   * same side of BEST_VALUE's window, meeting the deadline and the budget): {@link TieRule#first}, the fewest
   * instances of those that tie in time with the fastest of them, then the shorter time. Records {@code cheapest}
   * and that fastest as the {@link #costAnchor anchors} the ranking measures the ties from.
   */
  private int tied(Offering o, PricingMode mode, Group g, int cheapest, java.util.function.IntPredicate side) {
    List<Integer> tie = new ArrayList<>();
    for (int n : g.byTime) { // fastest first
      if (n == cheapest || side.test(n) && TieRule.costTies(g.perUnitPrice[n], g.perUnitPrice[cheapest])
          && withinBudget(o, mode, g, n)) {
        tie.add(n);
      }
    }
    costAnchor = cheapest;
    timeAnchor = tie.get(0);
    return TieRule.first(tie, n -> g.wall[n].toNanos(),
        Comparator.<Integer>naturalOrder().thenComparing(n -> g.wall[n]));
  }

  /**
   * FASTEST's choice of the group's counts from the fastest within budget, {@code fastest}: {@link TieRule#first}
   * of the counts that {@link TieRule#timeTies tie in time} with it, the fewest instances (then the lower cost), as
   * {@link Ranking#first} takes them; records {@code fastest} as the {@link #timeAnchor} the ranking measures the tie
   * from.
   */
  private int tiedInTime(Offering o, PricingMode mode, Group g, int fastest) {
    List<Integer> tie = new ArrayList<>();
    for (int n : g.byTime) {
      if (!TieRule.timeTies(g.wall[n].toNanos(), g.wall[fastest].toNanos())) {
        break;
      }
      if (n == fastest || withinBudget(o, mode, g, n)) {
        tie.add(n);
      }
    }
    timeAnchor = fastest;
    return TieRule.first(tie, n -> g.wall[n].toNanos(), Comparator.<Integer>naturalOrder());
  }

  /** Whether {@code n} instances cost at most the budget: in {@code double} away from it, exactly near it. */
  private boolean withinBudget(Offering o, PricingMode mode, Group g, int n) {
    if (s.budget().isEmpty()) {
      return true;
    }
    Money price = mode.price(o).orElseThrow();
    double cost = price.amount().doubleValue() * pass.rateToRanking(price.currency()) * g.perUnitPrice[n];
    double budget = s.budget().get().amount().doubleValue();
    if (cost < budget * (1 - MARGIN)) {
      return true;
    }
    if (cost > budget * (1 + MARGIN)) {
      return false;
    }
    return pass.cost(o, mode, n).compareTo(s.budget().get()) <= 0;
  }

  /** By price, then the ranking's tie-breakers (provider, instance type, region, catalog position). */
  private static int cheaperOffering(Offering a, Offering b, PricingMode mode) {
    int c = mode.price(a).orElseThrow().amount().compareTo(mode.price(b).orElseThrow().amount());
    if (c == 0) {
      c = a.provider().compareTo(b.provider());
    }
    if (c == 0) {
      c = a.instanceType().compareTo(b.instanceType());
    }
    if (c == 0) {
      c = a.region().compareTo(b.region());
    }
    return c; // equal: the earlier in the catalog stays
  }

  private static void add(int[][] wanted, int[] count, int i, int n) {
    if (wanted[i] == null) {
      wanted[i] = new int[4];
    } else if (count[i] == wanted[i].length) {
      wanted[i] = Arrays.copyOf(wanted[i], count[i] * 2);
    }
    wanted[i][count[i]++] = n;
  }
}
