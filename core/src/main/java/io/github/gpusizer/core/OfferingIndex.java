package io.github.gpusizer.core;

import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheLoader;
import com.google.common.cache.LoadingCache;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.PricingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Currency;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A catalog's offerings as arrays of small numbers, and in classes. Each offering's provider, region, GPU and
 * currencies are dense ordinals; with its GPUs per instance and RAM they decide every check of {@link Pass#ruledOut}
 * and, with its prices' amounts, {@link Pass#leastCost}: a pass works each check out once per ordinal and looks it
 * up in arrays, without reading the offering records (over 100,000 offerings, reading each record's fields, a cache
 * miss apiece, and hashing its strings into per-call maps was most of a recommendation).
 *
 * <p>A class is the offerings of one provider, GPU, GPUs per instance and currency of each price: their least costs
 * in a mode rise with their prices (with their RAM, which decides whether the data set is staged, at most adding
 * its transfer), so a bounded screen reads a class in the order of a price up to its bound, not every offering
 * ({@link Screen}). What a screen reads of a class lies in arrays in class order: the class's own ordinals, and per
 * pricing mode its members, their prices and RAM, sorted by price (those not sold in the mode last).
 *
 * <p>Built once per catalog, which is immutable, and kept while the catalog is. Thread-safe.
 */
final class OfferingIndex {
  private static final int MODES = PricingMode.values().length;
  /** By catalog identity, weakly: a catalog no longer used takes its index with it. */
  private static final LoadingCache<Catalog, OfferingIndex> BY_CATALOG = CacheBuilder.newBuilder().weakKeys()
      .build(CacheLoader.from(OfferingIndex::new));

  /** By offering index. */
  private final int[] provider;
  private final int[] region;
  private final int[] gpu;
  private final int[] gpuCount;
  private final long[] ramBytes;
  /** By offering × modes + mode: the ordinal of the price's currency, -1 where the mode is not sold. */
  private final int[] currency;
  /** By offering × modes + mode: the price's amount as a {@code double}, NaN where the mode is not sold. */
  private final double[] amount;
  private final int[] classOf;

  /**
   * By class: its ordinals as above (currency: by class × modes + mode, that of its members sold in the mode, the
   * on-demand currency standing in for those not sold in it); by class × 2^modes + a set of modes: how many members
   * are sold in one of them.
   */
  private final int[] classProvider;
  private final int[] classGpu;
  private final int[] classGpuCount;
  private final int[] classCurrency;
  private final int[] classSold;
  /** Where each class's members start in the member arrays, and (last) their length. */
  private final int[] classStart;
  /** The members class by class, in index order within a class. */
  private final int[] inClassOrder;
  /** By mode, worked out on first use: the members and their prices in the mode, sorted by price within a class. */
  private final int[][] members = new int[MODES][];
  private final double[][] memberAmounts = new double[MODES][];
  private final long[][] memberRam = new long[MODES][];

  /** By ordinal: the providers' and regions' names, the GPUs and the currencies. */
  private final List<String> providers;
  private final List<String> regions;
  private final List<Gpu> gpus;
  private final List<Currency> currencies;

  private OfferingIndex(Catalog catalog) {
    List<Offering> offerings = catalog.offerings();
    int n = offerings.size();
    provider = new int[n];
    region = new int[n];
    gpu = new int[n];
    gpuCount = new int[n];
    ramBytes = new long[n];
    currency = new int[n * MODES];
    amount = new double[n * MODES];
    Map<String, Integer> providerOrdinals = new LinkedHashMap<>();
    Map<String, Integer> regionOrdinals = new LinkedHashMap<>();
    // GPUs by identity: two equal GPU records get two ordinals, which only shares less
    Map<Gpu, Integer> gpuOrdinals = new IdentityHashMap<>();
    List<Gpu> gpuList = new ArrayList<>();
    Map<Currency, Integer> currencyOrdinals = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      Offering o = offerings.get(i);
      provider[i] = ordinal(providerOrdinals, o.provider());
      region[i] = ordinal(regionOrdinals, o.region());
      gpuCount[i] = o.gpuCount();
      ramBytes[i] = o.ram().bytes();
      gpu[i] = ordinal(gpuOrdinals, o.gpu());
      if (gpu[i] == gpuList.size()) {
        gpuList.add(o.gpu());
      }
      for (PricingMode mode : PricingMode.values()) {
        Optional<Money> price = mode.price(o);
        int k = i * MODES + mode.ordinal();
        currency[k] = price.isPresent() ? ordinal(currencyOrdinals, price.get().currency()) : -1;
        amount[k] = price.isPresent() ? price.get().amount().doubleValue() : Double.NaN;
      }
    }
    providers = List.copyOf(providerOrdinals.keySet());
    regions = List.copyOf(regionOrdinals.keySet());
    gpus = List.copyOf(gpuList);
    currencies = List.copyOf(currencyOrdinals.keySet());

    // classes: numbered in order of first member, counted, then filled in index order
    Map<List<Integer>, Integer> classOrdinals = new HashMap<>();
    classOf = new int[n];
    int[] sizes = new int[Math.max(1, n)];
    int[] firsts = new int[Math.max(1, n)];
    for (int i = 0; i < n; i++) {
      List<Integer> key = new ArrayList<>(3 + MODES);
      key.add(provider[i]);
      key.add(gpu[i]);
      key.add(gpuCount[i]);
      int onDemand = currency[i * MODES + PricingMode.ON_DEMAND.ordinal()];
      for (int m = 0; m < MODES; m++) {
        key.add(currency[i * MODES + m] >= 0 ? currency[i * MODES + m] : onDemand);
      }
      int c = ordinal(classOrdinals, key);
      if (sizes[c]++ == 0) {
        firsts[c] = i;
      }
      classOf[i] = c;
    }
    int classes = classOrdinals.size();
    classStart = new int[classes + 1];
    classProvider = new int[classes];
    classGpu = new int[classes];
    classGpuCount = new int[classes];
    classCurrency = new int[classes * MODES];
    classSold = new int[classes << MODES];
    for (int c = 0; c < classes; c++) {
      classStart[c + 1] = classStart[c] + sizes[c];
      int i = firsts[c];
      classProvider[c] = provider[i];
      classGpu[c] = gpu[i];
      classGpuCount[c] = gpuCount[i];
      int onDemand = currency[i * MODES + PricingMode.ON_DEMAND.ordinal()];
      for (int m = 0; m < MODES; m++) {
        classCurrency[c * MODES + m] = currency[i * MODES + m] >= 0 ? currency[i * MODES + m] : onDemand;
      }
    }
    inClassOrder = new int[n];
    int[] filled = Arrays.copyOf(classStart, classes);
    for (int i = 0; i < n; i++) {
      inClassOrder[filled[classOf[i]]++] = i;
      int soldIn = 0;
      for (int m = 0; m < MODES; m++) {
        soldIn |= currency[i * MODES + m] >= 0 ? 1 << m : 0;
      }
      for (int set = 1; set < 1 << MODES; set++) {
        classSold[(classOf[i] << MODES) + set] += (soldIn & set) != 0 ? 1 : 0;
      }
    }
  }

  private static <K> int ordinal(Map<K, Integer> ordinals, K key) {
    Integer known = ordinals.get(key);
    if (known != null) {
      return known;
    }
    ordinals.put(key, ordinals.size());
    return ordinals.size() - 1;
  }

  /** The index of {@code catalog}'s offerings, worked out on first use. */
  static OfferingIndex of(Catalog catalog) {
    return BY_CATALOG.getUnchecked(catalog);
  }

  /** Offering {@code i}'s provider, an index of {@link #providers()}. */
  int provider(int i) {
    return provider[i];
  }

  /** Offering {@code i}'s region, an index of {@link #regions()}. */
  int region(int i) {
    return region[i];
  }

  /** Offering {@code i}'s GPU, an index of {@link #gpus()}. */
  int gpu(int i) {
    return gpu[i];
  }

  /** Offering {@code i}'s GPUs per instance. */
  int gpuCount(int i) {
    return gpuCount[i];
  }

  /** Offering {@code i}'s RAM in bytes (0: unknown). */
  long ramBytes(int i) {
    return ramBytes[i];
  }

  /**
   * The currency of offering {@code i}'s price in {@code mode}, an index of {@link #currencies()}; -1 where the
   * mode is not sold.
   */
  int currency(int i, PricingMode mode) {
    return currency[i * MODES + mode.ordinal()];
  }

  /** {@code mode.price(offering i).amount().doubleValue()}; NaN where the mode is not sold. */
  double amount(int i, PricingMode mode) {
    return amount[i * MODES + mode.ordinal()];
  }

  /** Offering {@code i}'s class. */
  int classOf(int i) {
    return classOf[i];
  }

  /** How many classes the offerings fall in. */
  int classes() {
    return classStart.length - 1;
  }

  /** Class {@code c}'s provider ordinal. */
  int classProvider(int c) {
    return classProvider[c];
  }

  /** Class {@code c}'s GPU ordinal. */
  int classGpu(int c) {
    return classGpu[c];
  }

  /** Class {@code c}'s GPUs per instance. */
  int classGpuCount(int c) {
    return classGpuCount[c];
  }

  /** The currency ordinal of the prices in {@code mode} of class {@code c}'s members that are sold in it. */
  int classCurrency(int c, PricingMode mode) {
    return classCurrency[c * MODES + mode.ordinal()];
  }

  /** How many of class {@code c}'s members are sold in at least one of {@code modes}. */
  int classSold(int c, Set<PricingMode> modes) {
    int set = 0;
    for (PricingMode mode : modes) {
      set |= 1 << mode.ordinal();
    }
    return classSold[(c << MODES) + set];
  }

  /** Where class {@code c}'s members start in {@link #members}; they end where class {@code c + 1}'s start. */
  int classStart(int c) {
    return classStart[c];
  }

  /** The first offering of class {@code c} in catalog order. */
  int representative(int c) {
    return inClassOrder[classStart[c]];
  }

  /**
   * Every class's members, class by class ({@link #classStart}), each class's sorted by its price in {@code mode},
   * then by index; those not sold in the mode last (their price NaN).
   */
  int[] members(PricingMode mode) {
    sortFor(mode);
    return members[mode.ordinal()];
  }

  /** The prices in {@code mode} of {@link #members}{@code (mode)}, position by position (NaN: not sold). */
  double[] memberAmounts(PricingMode mode) {
    sortFor(mode);
    return memberAmounts[mode.ordinal()];
  }

  /** The RAM in bytes of {@link #members}{@code (mode)}, position by position. */
  long[] memberRam(PricingMode mode) {
    sortFor(mode);
    return memberRam[mode.ordinal()];
  }

  private void sortFor(PricingMode mode) {
    int m = mode.ordinal();
    synchronized (members) {
      if (members[m] != null) {
        return;
      }
      int[] sorted = new int[inClassOrder.length];
      double[] amounts = new double[sorted.length];
      long[] ram = new long[sorted.length];
      for (int c = 0; c < classes(); c++) {
        int from = classStart[c];
        int to = classStart[c + 1];
        Integer[] order = new Integer[to - from];
        for (int k = 0; k < order.length; k++) {
          order[k] = inClassOrder[from + k];
        }
        // Double.compare puts NaN (not sold) last; the sort is stable
        Arrays.sort(order, (a, b) -> Double.compare(amount[a * MODES + m], amount[b * MODES + m]));
        for (int k = from; k < to; k++) {
          sorted[k] = order[k - from];
          amounts[k] = amount[sorted[k] * MODES + m];
          ram[k] = ramBytes[sorted[k]];
        }
      }
      memberAmounts[m] = amounts;
      memberRam[m] = ram;
      members[m] = sorted;
    }
  }

  /** The providers' names by ordinal. */
  List<String> providers() {
    return providers;
  }

  /** The regions by ordinal. */
  List<String> regions() {
    return regions;
  }

  /** The GPUs by ordinal. */
  List<Gpu> gpus() {
    return gpus;
  }

  /** The currencies by ordinal. */
  List<Currency> currencies() {
    return currencies;
  }
}
