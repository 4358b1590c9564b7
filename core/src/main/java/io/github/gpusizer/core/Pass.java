package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.cost.ExchangeRate;
import io.github.gpusizer.core.cost.PriceQuote;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.cost.UnknownExchangeRateException;
import io.github.gpusizer.core.estimate.FixedCosts;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Currency;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * One pass over the catalog: every offering × every number of instances within the limits × each pricing mode,
 * with runs placed on the GPUs and the best layout of one run from the {@link LayoutSearch}. It keeps every
 * candidate that fits in memory, priced, and for each offering the closest failed attempt.
 */
final class Pass {
  private final Settings s;
  private final LayoutSearch search;
  /** Searches for the recipes other GPUs get when the caller left the precision open ({@link Task#forGpu}). */
  private final Map<PrecisionMode, LayoutSearch> searches = new EnumMap<>(PrecisionMode.class);
  private final Map<Currency, Optional<ExchangeRate>> rates = new HashMap<>();
  private final Map<Shape, Placement> placements = new HashMap<>();
  /**
   * The counts of {@link #counts} and of {@link #fastestCounts}, by shape (with instances 0) and billing (the counts
   * where rounding to the billing unit first bills one unit less are among them).
   */
  private final Map<CountsKey, int[]> counts = new HashMap<>();
  private final Map<CountsKey, Fastest> fastestCounts = new HashMap<>();
  private final Map<Currency, Double> rateKeys = new HashMap<>();
  /** {@link io.github.gpusizer.core.estimate.Estimator#leastGpuSeconds} of the task on each GPU, by id. */
  private final Map<String, Double> leastGpuSeconds = new HashMap<>();
  /** {@link #startupTotal} by provider and staging. */
  private final Map<StartupKey, Duration> startupTotals = new HashMap<>();
  /** The catalog's offerings as ordinals: what {@link #ruledOut} and {@link #leastCost} work out once per ordinal. */
  private final OfferingIndex index;
  /**
   * By provider, region, GPU and currency ordinal: {@link #ruledOut}'s checks of each (the provider and region
   * filters; the GPU filter and compatibility; the exchange rate), worked out on first use; {@link #PASSES} where the
   * check passes.
   */
  private final Attempt[] providerChecks;
  private final Attempt[] regionChecks;
  private final Attempt[] gpuChecks;
  private final Attempt[] currencyChecks;
  /** By GPU ordinal: whether the caller's CUDA version alone rules the GPU out. */
  private final boolean[] cudaBlockedGpus;
  /**
   * By GPU ordinal: {@link #leastGpuSeconds}; by currency ordinal: {@link #rateToRanking}; by provider ordinal × 2
   * + 1 if staged: {@link #startupTotal} in seconds. NaN until worked out.
   */
  private final double[] leastGpuSecondsOf;
  private final double[] rateByCurrency;
  private final double[] startupSeconds;
  /** The data set's size in bytes, -1 if not given ({@link #staged}). */
  private final long datasetBytes;
  /** The offering {@link #startupTotal} last answered for (compared by identity), and its answer. */
  private Offering lastStartupOffering;
  private Duration lastStartup;
  /** The pricing modes the caller allows, in declaration order. */
  private final PricingMode[] allowedModes;
  /**
   * Whether the host's cores change a run's time (an input pipeline that decodes on the CPU): if not, offerings
   * that differ only in vCPUs share placements, and each candidate's estimate is worked out for its own host.
   */
  private final boolean coresMatter;

  /**
   * What decides a placement: the GPU, the instance's GPUs, host cores (where they can change a run, {@link
   * #coresMatter}; -1 elsewhere) and network, and the instances rented.
   * Offerings of one shape (the same instance type in many regions or from many resellers) share the search.
   */
  private record Shape(String gpuId, int gpuCount, int vcpus, double networkGbps, Fabric fabric, Duration startup,
      int instances) {}

  /** What the counts of an offering depend on: its shape and its billing unit ({@link #billingSteps}). */
  private record CountsKey(Shape shape, BillingMode billing) {}

  /**
   * The counts of an offering that can be its fastest ({@link #fastestCounts}) and their placements, shared by the
   * offerings of its shape: a run over 100,000 offerings of a few thousand shapes looks each up once per offering,
   * not once per count.
   */
  private record Fastest(int[] counts, Placement[] placements) {}

  /** What one run reads before its first step and what one checkpoint holds; worked out on first use. */
  private DataSize weightsToLoad;
  private DataSize checkpointState;

  /**
   * Per offering index: the closest attempt that did not even give a fitting candidate (null if none failed), as
   * found so far; a {@link Found} takes a copy.
   */
  private final Attempt[] misses;
  /** Per offering index: whether the caller's CUDA version alone ruled it out, as found so far. */
  private final boolean[] cudaBlocked;

  Pass(Settings s, LayoutSearch search) {
    this.s = s;
    this.search = search;
    int n = s.catalog().offerings().size();
    this.misses = new Attempt[n];
    this.cudaBlocked = new boolean[n];
    List<PricingMode> allowed = new ArrayList<>();
    for (PricingMode mode : PricingMode.values()) {
      if (s.pricing().contains(mode)) {
        allowed.add(mode);
      }
    }
    this.allowedModes = allowed.toArray(new PricingMode[0]);
    this.coresMatter = search.reference() || s.estimator().performanceDependsOnHostCores(s.task());
    this.index = OfferingIndex.of(s.catalog());
    this.providerChecks = new Attempt[index.providers().size()];
    this.regionChecks = new Attempt[index.regions().size()];
    this.gpuChecks = new Attempt[index.gpus().size()];
    this.currencyChecks = new Attempt[index.currencies().size()];
    this.cudaBlockedGpus = new boolean[index.gpus().size()];
    this.leastGpuSecondsOf = new double[index.gpus().size()];
    Arrays.fill(leastGpuSecondsOf, Double.NaN);
    this.rateByCurrency = new double[index.currencies().size()];
    Arrays.fill(rateByCurrency, Double.NaN);
    this.startupSeconds = new double[index.providers().size() * 2];
    Arrays.fill(startupSeconds, Double.NaN);
    this.datasetBytes = s.task().datasetSize().map(DataSize::bytes).orElse(-1L);
  }

  /**
   * A fresh pass (no misses recorded) that shares {@code other}'s placements and counts: they depend on the
   * settings and the offering's shape only, so the full pass after a screen that found nothing feasible does not
   * place every run again.
   */
  Pass(Pass other) {
    this.s = other.s;
    this.search = other.search;
    this.misses = new Attempt[other.misses.length];
    this.cudaBlocked = new boolean[other.cudaBlocked.length];
    this.allowedModes = other.allowedModes;
    this.coresMatter = other.coresMatter;
    this.index = other.index;
    this.providerChecks = other.providerChecks.clone();
    this.regionChecks = other.regionChecks.clone();
    this.gpuChecks = other.gpuChecks.clone();
    this.currencyChecks = other.currencyChecks.clone();
    this.cudaBlockedGpus = other.cudaBlockedGpus.clone();
    this.leastGpuSecondsOf = other.leastGpuSecondsOf.clone();
    this.rateByCurrency = other.rateByCurrency.clone();
    this.startupSeconds = other.startupSeconds.clone();
    this.datasetBytes = other.datasetBytes;
    this.searches.putAll(other.searches);
    this.rates.putAll(other.rates);
    this.placements.putAll(other.placements);
    this.counts.putAll(other.counts);
    this.fastestCounts.putAll(other.fastestCounts);
    this.rateKeys.putAll(other.rateKeys);
    this.leastGpuSeconds.putAll(other.leastGpuSeconds);
    this.startupTotals.putAll(other.startupTotals);
    this.weightsToLoad = other.weightsToLoad;
    this.checkpointState = other.checkpointState;
  }

  /** Every offering × every number of instances on the ladder × each pricing mode. */
  Found run() {
    return run(false);
  }

  /**
   * {@link #run}; if {@code fastestOnly}, only the counts of each offering that can be its fastest: for a request
   * that nothing can meet, without a budget and with one run, whose recommendation reports each offering's fastest
   * attempt (every count misses the deadline, so none is a budget miss) and the fastest of all. The ladder's rungs
   * are placed from the most instances down; a count whose least wall time ({@link #leastInstances}' bound) is past
   * the wall time of the fastest placed so far cannot be the fastest, and neither can any fewer.
   */
  Found run(boolean fastestOnly) {
    checkArgument(!fastestOnly || s.budget().isEmpty() && s.runs() == 1, "fastest only: no budget and one run");
    List<Candidate> fitting = new ArrayList<>();
    List<Offering> offerings = s.catalog().offerings();
    for (int i = 0; i < offerings.size(); i++) {
      Offering o = offerings.get(i);
      if (ruledOut(i, o)) {
        continue;
      }
      if (!fastestOnly || !pricedByWall(o)) {
        for (int n : fastestOnly ? fastestCounts(o).counts() : counts(o)) {
          instances(i, o, n, fitting);
        }
        continue;
      }
      // Each count fits faster than every fewer one that fits (counts), and every pricing mode's wall time is the
      // placement's: only the last count that fits gives the offering's fastest candidates; the others still
      // record their misses.
      Fastest f = fastestCounts(o);
      int fastest = -1;
      for (int k = 0; k < f.counts().length; k++) {
        if (f.placements()[k].fit == null) {
          instances(i, o, f.counts()[k], f.placements()[k], fitting);
        } else {
          fastest = k;
        }
      }
      if (fastest >= 0) {
        instances(i, o, f.counts()[fastest], f.placements()[fastest], fitting);
      }
    }
    return found(fitting, null, null, null);
  }

  /**
   * Whether every candidate of the offering takes its placement's wall time, whatever the pricing mode: only spot
   * with interruptions (which lose work) takes longer.
   */
  boolean pricedByWall(Offering o) {
    return !search.reference()
        && (!s.pricing().contains(PricingMode.SPOT) || s.costs().interruptionsFor(o).isEmpty());
  }

  /**
   * The counts of {@link #counts} that can be the offering's fastest (see {@link #run(boolean)}), worked out once
   * per shape.
   */
  private Fastest fastestCounts(Offering o) {
    return fastestCounts.computeIfAbsent(new CountsKey(shape(o, 0), o.billing()), k -> {
      int[] counts = fastestCountsOf(o);
      Placement[] placements = new Placement[counts.length];
      for (int j = 0; j < counts.length; j++) {
        placements[j] = placement(o, counts[j]);
      }
      return new Fastest(counts, placements);
    });
  }

  private int[] fastestCountsOf(Offering o) {
    int max = searchedInstances(o);
    double startup = startupTotal(o).toNanos() / 1e9;
    // The ladder's rungs from the most instances down, while they can still be the fastest: the fastest placement
    // found so far bounds the fewer ones (where the network makes more instances slower, or the most instances
    // have no layout, one further down narrows it). Every rung placed here is one the counts below place anyway.
    double perInstance = leastGpuSeconds(o) / o.gpuCount();
    double room = Double.POSITIVE_INFINITY; // the fastest fitting placement's wall time less the start-up
    int[] ladder = ladder(o, max);
    for (int k = ladder.length - 1; k >= 0 && ladder[k] >= perInstance / room * (1 - 1e-9); k--) {
      Placement p = placement(o, ladder[k]);
      if (p.fit != null) {
        room = Math.min(room, p.wall.toNanos() / 1e9 - startup);
      }
    }
    if (Double.isInfinite(room) || room <= 0) {
      return counts(o);
    }
    double fewest = perInstance / room * (1 - 1e-9);
    return fewest <= 1 ? counts(o)
        : countsBetween(o, fewest >= max ? max : (int) Math.ceil(fewest), Integer.MAX_VALUE);
  }

  /**
   * The same candidates as {@link #run} where a recommendation can use them, fewer elsewhere: see {@link Screen}.
   * Only for a recommendation that finds a feasible option; one without needs {@link #run}, and so does a screen
   * that finds nothing feasible (its result then has no fitting candidates). If {@code bounded} (CHEAPEST only), it
   * passes over the offerings that cannot cost less than the cheapest choice found by more than the ranking's tie
   * ({@link #leastCost}) and the counts too few to meet the deadline ({@link #leastInstances}): a result that is not
   * {@link Found#complete} then holds the best option, not the lists.
   */
  Found screen(boolean bounded) {
    try {
      return new Screen(s, this, bounded).run();
    } catch (ArithmeticException e) {
      return found(new ArrayList<>(), null, null, null); // instances × billed seconds beyond a long: run() will do
    }
  }

  /**
   * What this pass found: the fitting candidates given, the misses recorded so far (with {@code sharedMisses}'
   * non-null entries in their place), and, from a screen, the fastest feasible time and the offering indexes and
   * instance counts ({@code i, n} pairs) of the candidates only the Pareto front can use, built on first use.
   */
  Found found(List<Candidate> fitting, Attempt[] sharedMisses, Duration fastest, int[] frontOnlyPairs) {
    Attempt[] all = misses.clone();
    if (sharedMisses != null) {
      for (int i = 0; i < all.length; i++) {
        if (sharedMisses[i] != null) {
          all[i] = sharedMisses[i];
        }
      }
    }
    return new Found(fitting, all, cudaBlocked.clone(), fastest, () -> {
      if (frontOnlyPairs == null) {
        return List.of();
      }
      List<Candidate> out = new ArrayList<>();
      List<Offering> offerings = s.catalog().offerings();
      for (int k = 0; k < frontOnlyPairs.length; k += 2) {
        instances(frontOnlyPairs[k], offerings.get(frontOnlyPairs[k]), frontOnlyPairs[k + 1], out);
      }
      return out;
    });
  }

  /**
   * A lower bound of the cost of every candidate of the offering in {@code mode}, in the ranking currency, in
   * {@code double} (less a part in 10^9 for its roundings); 0 where none is known (inference, see
   * {@link io.github.gpusizer.core.estimate.Estimator#leastGpuSeconds}). {@code n} instances are billed at least
   * {@code n ×} the wall time, which is the start-up and the runs' GPU time spread over at most {@code n ×} the
   * instance's GPUs; so {@code n × wall ≥ start-up + runs × least GPU time ÷ GPUs per instance} for every {@code n}.
   * Only for an offering {@link #ruledOut} has passed.
   */
  double leastCost(int i, Offering o, PricingMode mode) {
    return leastCost(index.classOf(i), o, index.amount(i, mode), staged(index.ramBytes(i)), mode);
  }

  /**
   * {@link #leastCost(int, Offering, PricingMode)} of an offering of class {@code c} ({@link OfferingIndex}) whose
   * price in {@code mode} has the given amount and whose data set is {@code staged} or not; {@code o} is any offering
   * of the class. Unstaged, it is at most the staged one's: a bound of both.
   */
  double leastCost(int c, Offering o, double amount, boolean staged, PricingMode mode) {
    int currency = index.classCurrency(c, mode);
    double rate = rateByCurrency[currency];
    if (Double.isNaN(rate)) {
      rate = rateToRanking(index.currencies().get(currency));
      rateByCurrency[currency] = rate;
    }
    int g = index.classGpu(c);
    double gpuSeconds = leastGpuSecondsOf[g];
    if (Double.isNaN(gpuSeconds)) {
      gpuSeconds = leastGpuSeconds(o);
      leastGpuSecondsOf[g] = gpuSeconds;
    }
    int k = index.classProvider(c) * 2 + (staged ? 1 : 0);
    double startup = startupSeconds[k];
    if (Double.isNaN(startup)) {
      startup = startupTotal(o, staged).toNanos() / 1e9;
      startupSeconds[k] = startup;
    }
    return leastCostPerSecond(amount, rate, mode) * (startup + s.runs() * gpuSeconds / index.classGpuCount(c));
  }

  /** Whether an offering of {@code ram} bytes (0: unknown) stages the data set: it is larger than the RAM. */
  boolean staged(long ram) {
    return datasetBytes >= 0 && ram > 0 && datasetBytes > ram;
  }

  /** Whether offering {@code i} is sold in a pricing mode the caller allows. */
  boolean soldInAllowedMode(int i) {
    for (PricingMode mode : allowedModes) {
      if (sold(i, mode)) {
        return true;
      }
    }
    return false;
  }

  /** Whether offering {@code i} is sold in {@code mode}. */
  boolean sold(int i, PricingMode mode) {
    return index.currency(i, mode) >= 0;
  }

  /**
   * What one second of one instance costs at least in {@code mode}, in the ranking currency (less a part in 10^9 for
   * the roundings): the price per hour, month or year over its seconds.
   */
  private double leastCostPerSecond(Offering o, PricingMode mode) {
    Money price = mode.price(o).orElseThrow();
    return leastCostPerSecond(price.amount().doubleValue(), rateToRanking(price.currency()), mode);
  }

  /** {@link #leastCostPerSecond(Offering, PricingMode)} of a price's amount and its rate into the ranking currency. */
  private static double leastCostPerSecond(double amount, double rate, PricingMode mode) {
    double unitSeconds = switch (mode) {
      case ON_DEMAND, SPOT -> 3600;
      case MONTHLY -> CostModel.MONTH.getSeconds();
      case YEARLY -> CostModel.YEAR.getSeconds();
    };
    return amount * rate / unitSeconds * (1 - 1e-9);
  }

  /** {@link io.github.gpusizer.core.estimate.Estimator#leastGpuSeconds} of one run on the offering's GPU. */
  private double leastGpuSeconds(Offering o) {
    Double gpuSeconds = leastGpuSeconds.get(o.gpu().id());
    if (gpuSeconds == null) {
      gpuSeconds = s.estimator().leastGpuSeconds(s.task().forGpu(o.gpu()), o.gpu());
      leastGpuSeconds.put(o.gpu().id(), gpuSeconds);
    }
    return gpuSeconds;
  }

  /** The closest failed attempt of offering {@code i} recorded so far, null if none. */
  Attempt miss(int i) {
    return misses[i];
  }

  /** Adds every candidate of offering {@code i} to {@code out}, as {@link #run} does. */
  void allInstances(int i, Offering o, List<Candidate> out) {
    for (int n : counts(o)) {
      instances(i, o, n, out);
    }
  }

  /**
   * The numbers of instances of the offering worth pricing, ascending: the {@link InstanceCounts ladder} (or every
   * count, {@link Settings#exhaustive()}), each bisected gap where the deadline is first met, less the counts that
   * are no faster than a smaller one (more instances for no less time only cost more).
   */
  int[] counts(Offering o) {
    CountsKey key = new CountsKey(shape(o, 0), o.billing());
    int[] cached = counts.get(key);
    if (cached == null) {
      cached = countsOf(o);
      counts.put(key, cached);
    }
    return cached;
  }

  /** What the offering's placements at every count depend on: offerings with equal keys are placed alike. */
  Object shapeKey(Offering o) {
    return shape(o, 0);
  }

  /** The shape of {@code n} instances of the offering: what its placement depends on. */
  private Shape shape(Offering o, int n) {
    return new Shape(o.gpu().id(), o.gpuCount(), shapeVcpus(o), o.networkGbps().orElse(Double.NaN), o.fabric(),
        startupTotal(o), n);
  }

  /** The offering's vCPUs where they can change a placement, -1 where they cannot (see {@link #coresMatter}). */
  int shapeVcpus(Offering o) {
    return coresMatter ? o.vcpus() : -1;
  }

  /**
   * The placement's fit as it runs on the offering's own host: the fit itself, or where the placement was worked
   * out for an offering of other vCPUs (which do not change the run, {@link #coresMatter}), the same fit with its
   * estimate for this host (shared by the offerings of its vCPUs).
   */
  private Outcome.Fit fitOn(Offering o, int n, Placement p) {
    if (o.vcpus() == p.vcpus) {
      return p.fit;
    }
    if (p.onOtherHosts == null) {
      p.onOtherHosts = new HashMap<>(4);
    }
    return p.onOtherHosts.computeIfAbsent(o.vcpus(), v -> p.fit.on(hardware(o, p.runGpus, p.concurrent, n)));
  }


  /**
   * {@link #counts}' counts from {@code least} up to {@code most}, and beyond them only the ladder's rungs below
   * {@code least} and at or above {@code most} (the ends of the gaps they fall in, which {@link #counts} bisects):
   * for a bounded screen, where fewer instances cannot meet the deadline ({@link #leastInstances}) and more cannot
   * cost less than a choice found ({@link #mostInstances}). Not cached: a bounded screen asks once per group.
   */
  int[] countsBetween(Offering o, int least, int most) {
    return least <= 1 && most == Integer.MAX_VALUE ? counts(o) : countsOf(o, least, most);
  }

  /**
   * The most instances of the offering whose candidate in {@code mode} can cost at most {@code limit} (in the
   * ranking currency): each instance pays its start-up, and all of them the runs' least GPU time
   * ({@link #leastCost}'s bound with {@code n} start-ups). {@link Integer#MAX_VALUE} where it bounds nothing.
   */
  int mostInstances(Offering o, PricingMode mode, double limit) {
    double perSecond = leastCostPerSecond(o, mode);
    double startup = startupTotal(o).toNanos() / 1e9;
    if (!(perSecond > 0 && startup > 0) || Double.isInfinite(limit)) {
      return Integer.MAX_VALUE;
    }
    double work = s.runs() * leastGpuSeconds(o) / o.gpuCount();
    double most = Math.floor((limit / perSecond - work) / startup * (1 + 1e-9));
    return most >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) Math.max(0, most);
  }

  /**
   * The fewest instances of the offering whose run can meet the deadline: its wall time is at least the start-up
   * and the run's least GPU time ({@link #leastCost}) spread over the instances' GPUs. 1 where it bounds nothing
   * (several runs, which waves may share the instances between).
   */
  int leastInstances(Offering o) {
    double room = (s.deadline().toNanos() - startupTotal(o).toNanos()) / 1e9;
    if (s.runs() > 1 || room <= 0) {
      return 1;
    }
    double instances = leastGpuSeconds(o) / o.gpuCount() / room;
    return instances >= Integer.MAX_VALUE ? Integer.MAX_VALUE : Math.max(1, (int) Math.ceil(instances * (1 - 1e-9)));
  }

  /**
   * Whether no offering can meet the deadline: for each one not {@link #ruledOut}, the fewest instances whose least
   * wall time meets it ({@link #leastInstances}) are more than it may have. One run only (several runs share
   * instances in waves, which this bound does not cover).
   */
  boolean deadlineOutOfReach() {
    checkArgument(s.runs() == 1, "one run");
    List<Offering> offerings = s.catalog().offerings();
    for (int i = 0; i < offerings.size(); i++) {
      Offering o = offerings.get(i);
      if (!ruledOut(i, o) && leastInstances(o) <= searchedInstances(o)) {
        return false;
      }
    }
    return true;
  }

  private int[] countsOf(Offering o) {
    return countsOf(o, 1, Integer.MAX_VALUE);
  }

  /** The instance counts up to {@code max} searched first: the {@link InstanceCounts} ladder, or every count. */
  private int[] ladder(Offering o, int max) {
    return s.exhaustive() ? InstanceCounts.every(max)
        : InstanceCounts.ladder(o.gpuCount(), max, s.task().globalBatch(),
            searchFor(o.gpu()).needsPipeline(o.gpu(), o.gpuCount()));
  }

  private int[] countsOf(Offering o, int least, int most) {
    // instances that cannot be joined serve only separate runs
    int max = searchedInstances(o);
    int[] ladder = ladder(o, max);
    int from = 0; // the rung below least, the low end of its gap
    while (from + 1 < ladder.length && ladder[from + 1] < least) {
      from++;
    }
    int to = from; // the rung at or above most, the high end of its gap
    while (to + 1 < ladder.length && ladder[to] < most) {
      to++;
    }
    if (from > 0 || to + 1 < ladder.length) {
      ladder = Arrays.copyOfRange(ladder, from, ladder.length == 0 ? 0 : to + 1);
    }
    int floor = ladder.length == 0 ? 0 : ladder[0];
    int ceiling = ladder.length == 0 ? 0 : ladder[ladder.length - 1];
    java.util.TreeSet<Integer> tried = new java.util.TreeSet<>();
    for (int n : ladder) {
      tried.add(n);
    }
    if (!s.exhaustive()) {
      // where a micro-batch is last allowed (past it, the global batch it makes outgrows what trains well): the
      // recipe can change back there as ranks are added, against the memory that more ranks free
      for (int n : searchFor(o.gpu()).microBatchLimits(o.gpuCount(), max)) {
        if (n >= floor && n <= ceiling) {
          tried.add(n);
        }
      }
    }
    // 1. Where the recipe changes between two rungs: the first count of each recipe and the last of the one before.
    for (int k = 1; k < ladder.length; k++) {
      if (ladder[k] > ladder[k - 1] + 1 && recipe(o, ladder[k]) != null) {
        recipeStarts(o, ladder[k - 1], ladder[k], tried);
      }
    }
    // 2. Between consecutive counts so far (one recipe runs each gap, or neither end fits): the first count that
    // meets the deadline, and where billing rounds, the first count billed each unit less.
    Integer[] probed = tried.toArray(new Integer[0]);
    for (int k = 1; k < probed.length; k++) {
      int lo = probed[k - 1];
      int hi = probed[k];
      if (hi == lo + 1) {
        continue;
      }
      if (missesDeadline(o, lo) && !missesDeadline(o, hi)) {
        int a = lo; // misses the deadline
        int b = hi; // meets it: the first count that meets it lies in (a, b]
        while (b - a > 1) {
          int mid = a + (b - a) / 2;
          if (missesDeadline(o, mid)) {
            a = mid;
          } else {
            b = mid;
          }
        }
        tried.add(b);
      }
      billingSteps(o, lo, hi, tried);
    }
    // the fewest instances that make the GPUs asked for: none below, and that count itself
    int fewestAllowed = minInstances(o.gpuCount());
    if (fewestAllowed > 1) {
      tried.headSet(fewestAllowed).clear();
      if (fewestAllowed <= max) {
        tried.add(fewestAllowed);
      }
    }
    int[] out = new int[tried.size()];
    int size = 0;
    Duration fastest = null;
    for (int n : tried) {
      Placement p = placement(o, n);
      if (p.fit != null) {
        if (fastest != null && p.wall.compareTo(fastest) >= 0) {
          continue;
        }
        fastest = p.wall;
      }
      out[size++] = n;
    }
    return java.util.Arrays.copyOf(out, size);
  }

  /**
   * Adds, between counts {@code lo} and {@code hi} that both fit, the first count at which each whole billing unit
   * less is billed: where a run lasts fewer than {@code 1 / COST_TIE} units (minutes, hours), rounding up to the unit
   * can make a count between two rungs cheaper by more than the tie; over longer runs it cannot.
   */
  private void billingSteps(Offering o, int lo, int hi, java.util.Set<Integer> tried) {
    if (placement(o, lo).fit == null || placement(o, hi).fit == null) {
      return;
    }
    long unitsHi = billedUnits(o, hi);
    long unitsLo = billedUnits(o, lo);
    if (unitsHi * TieRule.COST_TIE >= 1 || unitsLo <= unitsHi) {
      return;
    }
    for (long target = unitsHi; target < unitsLo; target++) {
      int a = lo; // billed more than target units
      int b = hi; // billed at most target units
      while (b - a > 1) {
        int mid = a + (b - a) / 2;
        if (placement(o, mid).fit != null && billedUnits(o, mid) <= target) {
          b = mid;
        } else {
          a = mid;
        }
      }
      tried.add(b);
    }
  }

  /** Whole billing units (seconds, minutes or hours, the minimum charge included) of {@code n} instances' run. */
  private long billedUnits(Offering o, int n) {
    long unit = switch (o.billing()) {
      case PER_SECOND -> 1;
      case PER_MINUTE -> 60;
      case PER_HOUR -> 3600;
    };
    return s.costs().model().billed(placement(o, n).wall, o.billing()).getSeconds() / unit;
  }

  /**
   * Adds every count in {@code (lo, hi]} at which the chosen recipe changes. Memory per GPU falls as ranks are
   * added, so each recipe (less sharding or recomputation, a larger micro-batch) holds one run of counts, and over
   * one run {@code n × wall time} grows with {@code n} (start-up and communication grow, the work does not): the
   * first count of each run is the cheapest of it, and the last the fastest. Bisects every part of the gap whose
   * ends differ, so a recipe that holds only the middle of the gap is found too.
   */
  private void recipeStarts(Offering o, int lo, int hi, java.util.Set<Integer> tried) {
    if (java.util.Objects.equals(recipe(o, lo), recipe(o, hi))) {
      return;
    }
    if (hi - lo == 1) {
      tried.add(lo); // the last count of the recipe before: its fastest, where a deadline may first be met
      tried.add(hi);
      return;
    }
    int mid = lo + (hi - lo) / 2;
    recipeStarts(o, lo, mid, tried);
    recipeStarts(o, mid, hi, tried);
  }

  /** The recipe the layout search chose for {@code n} instances, null if nothing fits. */
  private Object recipe(Offering o, int n) {
    Placement p = placement(o, n);
    return p.fit == null ? null : p.fit.recipe();
  }

  /** Whether {@code n} instances fit and still miss the deadline (or do not fit at all). */
  private boolean missesDeadline(Offering o, int n) {
    Placement p = placement(o, n);
    return p.fit == null || p.wall.compareTo(s.deadline()) > 0;
  }

  /**
   * Whether offering {@code i} is ruled out whatever the number of instances (filters, pricing modes, currency,
   * compatibility, GPUs per instance over the limit); if so, records why in {@link #misses}.
   */
  boolean ruledOut(int i, Offering o) {
    Attempt problem = providerCheck(index.provider(i), o);
    if (problem == null) {
      problem = regionCheck(index.region(i), o);
    }
    if (problem == null) {
      problem = gpuFilter(index.gpu(i), o);
    }
    if (problem == null) {
      problem = soldInAllowedMode(i) ? null : notSold(o);
    }
    if (problem == null) {
      problem = currencyCheck(index.currency(i, PricingMode.ON_DEMAND), o);
    }
    if (problem == null) {
      problem = gpuCheck(index.gpu(i), o);
      cudaBlocked[i] |= cudaBlockedGpus[index.gpu(i)];
    }
    if (problem == null) {
      problem = gpuCountCheck(o);
    }
    if (problem != null) {
      misses[i] = problem;
      return true;
    }
    return false;
  }

  /**
   * Whether a check of {@link #ruledOut} but the region's and the pricing modes' rules out the offerings of class
   * {@code c} ({@link OfferingIndex}; those checks hold alike for all of them), {@code o} being one of them. Records
   * nothing.
   */
  boolean classRuledOut(int c, Offering o) {
    return providerCheck(index.classProvider(c), o) != null || gpuFilter(index.classGpu(c), o) != null
        || currencyCheck(index.classCurrency(c, PricingMode.ON_DEMAND), o) != null
        || gpuCheck(index.classGpu(c), o) != null || maxInstances(index.classGpuCount(c)) == 0
        || minInstances(index.classGpuCount(c)) > maxInstances(index.classGpuCount(c));
  }

  /**
   * Why no number of the offering's instances makes the GPUs the caller asks for ({@link Settings#minGpus} to
   * {@link Settings#maxGpus} in all, on at most {@link Settings#maxNodes} nodes), null if some number does: the
   * instance's GPUs do not divide an exact count, one instance has more than the limit, the fewest instances that
   * make enough are more than the node limit, or its instances are never joined into one job and one has too few.
   */
  private Attempt gpuCountCheck(Offering o) {
    boolean exact = s.minGpus() > 1 && s.minGpus() == s.maxGpus();
    String wanted = (exact ? "exactly " : "at least ") + Texts.plural(s.minGpus(), "GPU", "GPUs");
    if (exact && s.minGpus() % o.gpuCount() != 0) {
      return Attempt.of(Rejection.Kind.TOO_LARGE, "has " + o.gpuCount() + " GPUs per instance: no number of "
          + "instances makes " + wanted);
    }
    if (maxInstances(o.gpuCount()) == 0) {
      return Attempt.of(Rejection.Kind.TOO_LARGE, "has " + o.gpuCount() + " GPUs per instance, more than the "
          + "limit of " + s.maxGpus() + " GPUs");
    }
    int fewest = minInstances(o.gpuCount());
    if (fewest <= 1) {
      return null;
    }
    if (fewest > maxInstances(o.gpuCount())) {
      return Attempt.of(Rejection.Kind.TOO_LARGE, wanted + " need " + fewest + " instances of " + o.gpuCount()
          + (fewest > s.maxNodes() ? ", more than the limit of " + s.maxNodes() + " nodes"
              : ", more than the limit of " + s.maxGpus() + " GPUs"));
    }
    if (fewest > searchedInstances(o)) {
      return Attempt.of(Rejection.Kind.TOO_LARGE, wanted + " need " + fewest + " instances of " + o.gpuCount()
          + ", and its instances are stand-alone (never joined into one multi-node job)");
    }
    return null;
  }

  /** The fewest instances of {@code gpusPerInstance} GPUs that make at least {@link Settings#minGpus} GPUs. */
  private int minInstances(int gpusPerInstance) {
    return (int) ((s.minGpus() + (long) gpusPerInstance - 1) / gpusPerInstance);
  }

  /** Whether the region filter rules offering {@code i} out. Records nothing. */
  boolean regionRuledOut(int i, Offering o) {
    return regionCheck(index.region(i), o) != null;
  }

  /** The catalog's offerings as ordinals and classes. */
  OfferingIndex index() {
    return index;
  }

  /** The most instances of the offering within the GPU and node limits. */
  int maxInstances(Offering o) {
    return maxInstances(o.gpuCount());
  }

  /**
   * The most instances of the offering a search tries: the limits' {@link #maxInstances}, and where its instances
   * cannot be joined into one job, only as many as there are separate runs.
   */
  private int searchedInstances(Offering o) {
    return o.joinable() ? maxInstances(o) : Math.min(maxInstances(o), s.runs());
  }

  private int maxInstances(int gpusPerInstance) {
    return Math.min(s.maxNodes(), s.maxGpus() / gpusPerInstance);
  }

  /**
   * Adds the priced candidates of {@code n} instances of offering {@code i} to {@code out}, one per pricing mode;
   * records the attempt in {@link #misses} if no layout fits.
   */
  void instances(int i, Offering o, int n, List<Candidate> out) {
    instances(i, o, n, placement(o, n), out);
  }

  /** {@link #instances(int, Offering, int, List)} with the placement of {@code n} instances already looked up. */
  void instances(int i, Offering o, int n, Placement p, List<Candidate> out) {
    if (p.miss != null) {
      Outcome.Miss miss = p.miss;
      Attempt a = new Attempt(miss.kind(), miss::reason, miss.shortfall(),
          OptionalInt.of(n * o.gpuCount()), OptionalInt.of(n), Optional.empty());
      if (a.closerThan(misses[i])) {
        misses[i] = a;
      }
      return;
    }
    for (PricingMode mode : allowedModes) {
      if (!search.reference() && (mode != PricingMode.SPOT || s.costs().interruptionsFor(o).isEmpty())) {
        // Time and billed time need no price: the exact price is worked out when a choice needs it (the
        // reference prices every candidate exactly, and compares exactly).
        if (index.currency(i, mode) >= 0) { // sold in the mode
          out.add(lazilyPriced(i, o, mode, n, p));
        }
        continue;
      }
      Optional<CostStep.Priced> priced;
      try {
        priced = s.costs().price(o, mode, n, p.wall);
      } catch (IllegalArgumentException e) {
        // spot interruptions that lose work faster than the job makes it: it never finishes
        Attempt a = new Attempt(Rejection.Kind.DEADLINE, e.getMessage(), Double.MAX_VALUE,
            OptionalInt.of(n * o.gpuCount()), OptionalInt.of(n), Optional.of(mode));
        if (a.closerThan(misses[i])) {
          misses[i] = a;
        }
        continue;
      }
      if (priced.isEmpty()) {
        continue;
      }
      out.add(new Candidate(i, o, mode, n, p.runGpus, p.concurrent, fitOn(o, n, p), priced.get().wall(), p.startup,
          p.checkpoints, priced.get(),
          convert(priced.get().cost())));
    }
  }

  /**
   * The candidate of {@code n} instances of offering {@code i} in {@code mode} (not spot with interruptions), its
   * cost in {@code double} now and exactly on first use.
   */
  private Candidate lazilyPriced(int i, Offering o, PricingMode mode, int n, Placement p) {
    CostModel model = s.costs().model();
    Duration billed = model.billed(p.wall, o, mode);
    double units = CostStep.priceUnits(mode, n, billed);
    Money price = mode.price(o).orElseThrow();
    Currency ranking = s.currency();
    Optional<ExchangeRate> rate = price.currency().equals(ranking) ? Optional.empty() : rate(price.currency());
    double key = index.amount(i, mode) * rateToRanking(price.currency()) * units;
    CostStep costs = s.costs();
    Duration wall = p.wall;
    long billedSeconds = Screen.ordersByUnits(price) && billed.getNano() == 0
        ? Math.multiplyExact((long) n, billed.getSeconds()) : -1;
    return new Candidate(i, o, mode, n, p.runGpus, p.concurrent, fitOn(o, n, p), wall, p.startup, p.checkpoints, key,
        new Candidate.Pricing() {
      @Override
      public long billedSeconds() {
        return billedSeconds;
      }

      @Override
      public CostStep.Priced priced() {
        return costs.price(o, mode, n, wall).orElseThrow();
      }

      @Override
      public PriceQuote quote(CostStep.Priced priced) {
        return rate.isEmpty() ? PriceQuote.of(priced.cost())
            : new PriceQuote(priced.cost().convertTo(ranking, rate.get().rate()), priced.cost(), rate);
      }
    });
  }

  /** The runs placed on {@code n} instances of the offering, shared by offerings of one shape. */
  Placement placement(Offering o, int n) {
    return placements.computeIfAbsent(shape(o, n), k -> place(o, n, k.startup()));
  }

  /**
   * {@code startup(o).total()}, worked out once per provider and staging: placements and the screen's group keys
   * ask for it at every number of instances, and each time lower-cased the provider's name to look up its
   * provisioning (a map by offering was a tenth of a recommendation over 100,000 offerings).
   */
  Duration startupTotal(Offering o) {
    if (o == lastStartupOffering) {
      return lastStartup; // the placements of one offering's counts ask in a row
    }
    Duration total = startupTotal(o, staged(o).isPresent());
    lastStartupOffering = o;
    lastStartup = total;
    return total;
  }

  /**
   * {@link #startupTotal} of an offering of {@code o}'s provider that stages the data set or not: what the start-up
   * depends on beyond the task ({@link #startup}).
   */
  private Duration startupTotal(Offering o, boolean staged) {
    StartupKey key = new StartupKey(o.provider(), staged);
    Duration total = startupTotals.get(key);
    if (total == null) {
      total = startup(o, staged ? s.task().datasetSize() : Optional.empty()).total();
      startupTotals.put(key, total);
    }
    return total;
  }

  /** What a run's start-up depends on beyond the task: the provider, and whether the data set is staged. */
  private record StartupKey(String provider, boolean staged) {}

  /** The data set, where it must be staged to the instance's local disk (it does not fit in its RAM). */
  private Optional<DataSize> staged(Offering o) {
    return s.task().datasetSize().filter(d -> o.ram().bytes() > 0 && d.compareTo(o.ram()) > 0);
  }

  /**
   * The start-up of a run on the offering: its provider's provisioning, the image and framework, the weights, and
   * the data set staged to local disk when it does not fit in the instance's RAM.
   */
  FixedCosts.Startup startup(Offering o) {
    return startup(o, staged(o));
  }

  private FixedCosts.Startup startup(Offering o, Optional<DataSize> staged) {
    if (weightsToLoad == null) {
      weightsToLoad = s.estimator().weightsToLoad(s.task(), o.gpu());
      checkpointState = s.estimator().checkpointSize(s.task(), o.gpu());
    }
    return s.fixedCosts().startup(o.provider(), weightsToLoad, checkpointState, staged);
  }

  /** What {@code n} instances of {@code o} cost in {@code mode}, in the ranking currency, as a candidate has it. */
  Money cost(Offering o, PricingMode mode, int n) {
    return convert(s.costs().price(o, mode, n, placement(o, n).wall).orElseThrow().cost()).amount();
  }

  /** The exchange rate into the ranking currency from {@code from}, 1 if the same (for screening only). */
  double rateToRanking(Currency from) {
    return from.equals(s.currency()) ? 1 : rateKeys.computeIfAbsent(from,
        c -> rate(c).orElseThrow().rate().doubleValue());
  }

  /** Runs placed on the instances: how many GPUs each run gets and how many run at once. */
  static final class Placement {
    Outcome.Fit fit;
    Outcome.Miss miss;
    int runGpus;
    int concurrent;
    /** Start-up, then each wave of runs: steps and checkpoint writes. */
    Duration wall;
    Duration startup;
    /** Checkpoint writes of all waves. */
    Duration checkpoints;
    /** The vCPUs of the offering it was worked out for, and its fit on hosts of other vCPUs, by vCPUs. */
    int vcpus;
    Map<Integer, Outcome.Fit> onOtherHosts;
  }

  private Placement place(Offering o, int n, Duration startup) {
    int total = n * o.gpuCount();
    Placement best = new Placement();
    best.vcpus = o.vcpus();
    int[] sizes = runSizes(o, n);
    // The run of the most GPUs is searched first (the search keeps it for the loop): a run size whose least wall
    // time (start-up and the least GPU time over its GPUs, Estimator.leastGpuSeconds) is past that run's wall time
    // can be neither the fastest nor tie with it, and is not searched. The reference searches them all.
    double boundNanos = Double.POSITIVE_INFINITY;
    int largest = sizes[sizes.length - 1];
    int concurrentLargest = Math.min(s.runs(), total / largest);
    if (!search.reference() && sizes.length > 1 && (long) concurrentLargest * largest > (long) (n - 1) * o.gpuCount()
        && searchFor(o.gpu()).best(hardware(o, largest, concurrentLargest, n)) instanceof Outcome.Fit fit) {
      boundNanos = wall(o, fit, largest, concurrentLargest, startup).toNanos();
    }
    double leastGpuNanos = boundNanos == Double.POSITIVE_INFINITY ? 0 : leastGpuSeconds(o) * 1e9;
    for (int g : sizes) {
      int concurrent = Math.min(s.runs(), total / g);
      if ((long) concurrent * g <= (long) (n - 1) * o.gpuCount()) {
        continue; // a whole instance would idle: fewer instances do the same for less
      }
      int waves = (s.runs() + concurrent - 1) / concurrent;
      if ((startup.toNanos() + waves * leastGpuNanos / g) * (1 - 1e-9) > boundNanos) {
        continue;
      }
      Outcome out = searchFor(o.gpu()).best(hardware(o, g, concurrent, n));
      if (out instanceof Outcome.Miss) {
        Outcome.Miss m = (Outcome.Miss) out;
        if (best.fit == null && m.closerThan(best.miss)) {
          best.miss = m;
        }
        continue;
      }
      Outcome.Fit fit = (Outcome.Fit) out;
      Duration wall = wall(o, fit, g, concurrent, startup);
      if (best.fit == null || wall.compareTo(best.wall) < 0) {
        best.fit = fit;
        best.miss = null;
        best.runGpus = g;
        best.concurrent = concurrent;
        best.wall = wall;
        best.startup = startup;
        best.checkpoints = checkpoints(o, fit, g, concurrent);
      }
    }
    if (best.fit == null && best.miss == null) {
      best.miss = new Outcome.Miss(Rejection.Kind.LAYOUT, () -> o.instanceType() + " is " + o.fabric().label()
          + ": its instances are not joined into one job, so " + n + " of them only serve as many separate runs",
          Double.MAX_VALUE);
    }
    return best;
  }

  /** Start-up, then each wave of runs of {@code g} GPUs ({@code concurrent} at once): steps and checkpoint writes. */
  private Duration wall(Offering o, Outcome.Fit fit, int g, int concurrent, Duration startup) {
    int waves = (s.runs() + concurrent - 1) / concurrent;
    return startup.plus(fit.runTime().multipliedBy(waves)).plus(checkpoints(o, fit, g, concurrent));
  }

  /** The checkpoint writes of every wave of runs of {@code g} GPUs, {@code concurrent} at once. */
  private Duration checkpoints(Offering o, Outcome.Fit fit, int g, int concurrent) {
    int waves = (s.runs() + concurrent - 1) / concurrent;
    // torch.distributed.checkpoint has every rank write its shard (replicated tensors de-duplicated across
    // ranks), so the nodes of a run write in parallel
    return s.fixedCosts().checkpoints(fit.runTime(), checkpointState, g, Math.max(1, g / o.gpuCount()))
        .multipliedBy(waves);
  }

  /**
   * GPUs one run may use on {@code n} instances: whole instances that divide the rented ones evenly (only where
   * the offering's fabric joins instances into one job), or a share of one instance that divides it evenly
   * (several runs of a sweep side by side; or one run that is faster on fewer GPUs, e.g. when gradient exchange
   * over PCIe costs more than the extra GPUs bring).
   */
  static int[] runSizes(Offering o, int n) {
    int perInstance = o.gpuCount();
    int[] shares = divisors(perInstance);
    if (!o.joinable() || n < 2) {
      return shares;
    }
    int[] ks = divisors(n); // ascending, from 1
    int[] sizes = Arrays.copyOf(shares, shares.length + ks.length - 1);
    for (int j = 1; j < ks.length; j++) {
      sizes[shares.length + j - 1] = ks[j] * perInstance;
    }
    return sizes;
  }

  /**
   * The divisors of {@code m >= 1}, ascending, from the pairs {@code (d, m / d)} with {@code d <= sqrt(m)}: a count
   * up to {@code m} per placement showed in the profile of searches with thousands of instances.
   */
  static int[] divisors(int m) {
    int[] low = new int[8];
    int[] high = new int[8];
    int lows = 0;
    int highs = 0;
    for (int d = 1; (long) d * d <= m; d++) {
      if (m % d == 0) {
        if (lows == low.length) {
          low = Arrays.copyOf(low, lows * 2);
          high = Arrays.copyOf(high, lows * 2);
        }
        low[lows++] = d;
        if (d != m / d) {
          high[highs++] = m / d;
        }
      }
    }
    int[] out = Arrays.copyOf(low, lows + highs);
    for (int k = 0; k < highs; k++) {
      out[lows + k] = high[highs - 1 - k];
    }
    return out;
  }

  /**
   * The hardware one run of {@code g} GPUs gets on the offering: a share of one instance, with the host cores of
   * that instance split between the runs sharing it, or whole instances linked by the offering's network.
   */
  static Hardware hardware(Offering o, int g, int concurrent, int instances) {
    int perNode = Math.min(g, o.gpuCount());
    int nodes = g <= o.gpuCount() ? 1 : g / o.gpuCount();
    int sharing = g < o.gpuCount()
        ? Math.min(o.gpuCount() / g, (concurrent + instances - 1) / instances) : 1;
    OptionalInt cores = o.vcpus() > 0 ? OptionalInt.of(Math.max(1, o.vcpus() / sharing)) : OptionalInt.empty();
    // the offering's network; unstated, a cluster fabric is the GPU class's (Hardware) and Ethernet a VM's by size
    OptionalDouble network = nodes == 1 || o.networkGbps().isPresent() || o.fabric() == Fabric.CLUSTER
        ? (nodes > 1 ? o.networkGbps() : OptionalDouble.empty())
        : OptionalDouble.of(Hardware.ethernetGbps(o.gpuCount()));
    return new Hardware(o.gpu(), perNode, nodes, network, cores, OptionalDouble.empty(),
        nodes > 1 ? Optional.of(o.fabric()) : Optional.empty());
  }

  /** The rate from {@code from} into the ranking currency, looked up once per currency. */
  private Optional<ExchangeRate> rate(Currency from) {
    return rates.computeIfAbsent(from, c -> {
      try {
        return Optional.of(s.rates().rate(c, s.currency()));
      } catch (UnknownExchangeRateException e) {
        return Optional.empty();
      }
    });
  }

  /** An amount in the ranking currency, marked with the rate if converted. */
  private PriceQuote convert(Money m) {
    if (m.currency().equals(s.currency())) {
      return PriceQuote.of(m);
    }
    ExchangeRate r = rate(m.currency()).orElseThrow(); // offeringProblem ruled out offerings without a rate
    return new PriceQuote(m.convertTo(s.currency(), r.rate()), m, Optional.of(r));
  }

  /** A check's answer where the check passes (the arrays of checks hold null where not yet worked out). */
  private static final Attempt PASSES = Attempt.of(Rejection.Kind.EXCLUDED, "passes");

  /** The provider filter's miss of an offering {@code o} of provider ordinal {@code p}, null if it passes. */
  private Attempt providerCheck(int p, Offering o) {
    if (providerChecks[p] == null) {
      providerChecks[p] = !s.providers().isEmpty() && !s.providers().contains(o.provider().toLowerCase(Locale.ROOT))
          ? Attempt.of(Rejection.Kind.EXCLUDED, "provider " + o.provider() + " is not among the allowed "
              + s.providers())
          : PASSES;
    }
    return passed(providerChecks[p]);
  }

  /** The region filter's miss of an offering {@code o} of region ordinal {@code r}, null if it passes. */
  private Attempt regionCheck(int r, Offering o) {
    if (s.regions().isEmpty()) {
      return null;
    }
    if (regionChecks[r] == null) {
      regionChecks[r] = !s.regions().contains(o.region().toLowerCase(Locale.ROOT))
          ? Attempt.of(Rejection.Kind.EXCLUDED, "region " + o.region() + " is not among the allowed " + s.regions())
          : PASSES;
    }
    return passed(regionChecks[r]);
  }

  /** The GPU filter's miss of an offering {@code o} of GPU ordinal {@code g}, null if it passes. */
  private Attempt gpuFilter(int g, Offering o) {
    if (s.gpuIds().isEmpty() || s.gpuIds().contains(index.gpus().get(g).id())) {
      return null;
    }
    return Attempt.of(Rejection.Kind.EXCLUDED,
        "the " + o.gpu().name() + " is not among the allowed GPU models " + s.gpuIds());
  }

  /** Why {@code o}, sold in no allowed pricing mode, is not. */
  private Attempt notSold(Offering o) {
    return Attempt.of(Rejection.Kind.NOT_SOLD,
        "not sold as " + describe(s.pricing()) + "; the catalog has " + describeSold(o) + " prices only");
  }

  /** Why an offering {@code o} of currency ordinal {@code c} cannot be ranked (no exchange rate), null if it can. */
  private Attempt currencyCheck(int c, Offering o) {
    if (currencyChecks[c] == null) {
      Currency from = o.onDemandPerHour().currency();
      currencyChecks[c] = !from.equals(s.currency()) && rate(from).isEmpty()
          ? Attempt.of(Rejection.Kind.NO_EXCHANGE_RATE, "priced in " + from + " with no exchange rate to "
              + s.currency() + "; known currencies: " + s.rates().currencies())
          : PASSES;
    }
    return passed(currencyChecks[c]);
  }

  /** Why the GPU of ordinal {@code g} ({@code o}'s) cannot run the task (precision, CUDA), null if it can. */
  private Attempt gpuCheck(int g, Offering o) {
    if (gpuChecks[g] == null) {
      Optional<Attempt> problem = gpuProblem(o.gpu());
      gpuChecks[g] = problem.orElse(PASSES);
      cudaBlockedGpus[g] = problem.isPresent() && Compatibility.cudaProblem(s.cuda(), o.gpu()).isPresent()
          && Compatibility.precisionProblem(s.task().forGpu(o.gpu()), o.gpu()).isEmpty();
    }
    return passed(gpuChecks[g]);
  }

  private static Attempt passed(Attempt check) {
    return check == PASSES ? null : check;
  }

  /** The layout search of the task as it runs on {@code gpu}: with the best precision it supports, if left open. */
  private LayoutSearch searchFor(Gpu gpu) {
    Task t = s.task().forGpu(gpu);
    return t == s.task() ? search : searches.computeIfAbsent(t.precision(), p -> search.forSettings(s.withTask(t)));
  }

  private Optional<Attempt> gpuProblem(Gpu gpu) {
    Optional<String> precision = Compatibility.precisionProblem(s.task().forGpu(gpu), gpu);
    if (precision.isPresent()) {
      return Optional.of(Attempt.of(Rejection.Kind.INCOMPATIBLE, precision.get()));
    }
    return Compatibility.cudaProblem(s.cuda(), gpu).map(r -> Attempt.of(Rejection.Kind.INCOMPATIBLE, r));
  }

  private static String describe(Iterable<PricingMode> modes) {
    List<String> names = new ArrayList<>();
    for (PricingMode m : modes) {
      names.add(m.label());
    }
    return String.join(" or ", names);
  }

  private static String describeSold(Offering o) {
    List<String> names = new ArrayList<>();
    for (PricingMode m : PricingMode.values()) {
      if (CostStep.isSold(o, m)) {
        names.add(m.label());
      }
    }
    return String.join(" and ", names);
  }


}
