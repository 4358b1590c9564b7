package io.github.gpusizer.core;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.estimate.MemoryEstimate;
import io.github.gpusizer.core.estimate.PerformanceEstimate;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.TaskKind;
import io.github.gpusizer.core.task.ZeroStage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * Finds the fastest layout of one run that fits on a given piece of hardware, and remembers it: memory and time
 * depend on the hardware (GPU model, GPUs per node, nodes, host cores, network), never on who sells it, so every
 * offering with the same hardware shares one search.
 *
 * <p>The layouts tried are the task's own recipe, then, as fallbacks, ZeRO stages 1–3 (FSDP; across nodes stages 2
 * and 3 also hybrid-sharded within each node), selective and full activation checkpointing, smaller micro-batches (gradient
 * accumulation keeps the global batch) and tensor parallelism within a node. Memory is checked first (cheap): an extreme layout (most sharding, most
 * recomputation, micro-batch 1) that does not fit rules the hardware out before anything is timed. Then each
 * recipe (tensor-parallel degree × ZeRO stage × checkpointing) is timed at its largest fitting micro-batch, and
 * the fastest wins: on fixed hardware the fastest run is also the cheapest, since cost grows with billed time.
 *
 * <p>Not thread-safe: one instance serves one {@code recommend()} call.
 */
final class LayoutSearch {
  /**
   * How much faster (as a fraction of run time) a more complex layout must be predicted to run before it is chosen
   * over a simpler one. A design choice, not a measurement: it is far below the estimator's demonstrated accuracy
   * (±25% on throughput, core/CALIBRATION.md), so differences inside it are noise, while every ZeRO stage,
   * recomputation level or tensor-parallel degree adds configuration and failure modes to a real job.
   */
  static final double SIMPLER_LAYOUT_MARGIN = 0.03;

  /**
   * The largest micro-batch tried when the caller gave neither a micro-batch nor a global batch: 32 samples per GPU,
   * the per-GPU batch of ImageNet training in Goyal et al. 2017 ("Accurate, Large Minibatch SGD") and the largest
   * fine-tuning batch of BERT (Devlin et al. 2019, §A.3: 16 or 32); the search takes the largest that fits.
   */
  static final int OPEN_MICRO_BATCH = 32;

  /**
   * The most sequences a serving engine batches at once when the caller sets none: vLLM's {@code max_num_seqs}
   * default of 256 ({@code vllm/engine/arg_utils.py}, EngineArgs), which its scheduler fills as the KV cache allows.
   */
  static final int SERVING_ENGINE_SEQUENCES = 256;

  private final Task task;
  private final Estimator estimator;
  /**
   * The estimator's memo for this search: micro-batch timings shared over instance counts, memory allocations over
   * GPU models.
   */
  private final Estimator.Memo memo;
  private final Settings settings;
  private final boolean reference;
  private final Map<Key, Outcome> cache = new HashMap<>();
  private final Map<PlanKey, Plan> plans = new HashMap<>();
  private final Map<Key, Timing> timings = new HashMap<>();
  /** Memory estimates by {@link Estimator#memoryKey}. */
  private final Map<Object, Shared> memories = new HashMap<>();
  /** What the memory checks of sharded recipes have shown, by recipe (see {@link #fitLevel}). */
  private final Map<RanksKey, Thresholds> thresholds = new HashMap<>();
  /** Whether host cores can change a timing; if not, hosts that differ only in cores share their timings. */
  private final boolean coresMatter;
  private final Map<VariantKey, Task> variants = new HashMap<>();
  /**
   * The variants of the task's own global batch and micro-batches below {@link #SMALL_MICRO_BATCHES}, by
   * checkpointing and micro-batch: most look-ups, without a key or a hash.
   */
  private final Task[][] smallVariants = new Task[Checkpointing.values().length][SMALL_MICRO_BATCHES];
  private static final int SMALL_MICRO_BATCHES = 2 * OPEN_MICRO_BATCH + 1;
  /**
   * The largest global batch, in samples, the ranks may make when the caller gave none
   * ({@link Task#largestUsefulGlobalBatch}); unbounded otherwise.
   */
  private final int usefulBatch;
  /** {@link #microBatches} by data-parallel ranks, worked out once each (callers do not modify the arrays). */
  private int[][] microBatchesByRanks = new int[65][];
  /** The checkpointing levels to try, least recomputation first ({@link #checkpointings()}). */
  private final List<Checkpointing> checkpointings;
  /** Bytes of the unsharded training state, for {@link #needsPipeline}; worked out on first use. */
  private Double trainingState;

  LayoutSearch(Settings settings) {
    this(settings, false);
  }

  /**
   * @param reference whether to search the straightforward way, for tests that compare: every recipe timed with
   *     a full {@link Estimator#estimate}, the memory checks redone for each piece of hardware
   */
  LayoutSearch(Settings settings, boolean reference) {
    this.settings = settings;
    this.task = settings.task();
    this.estimator = settings.estimator();
    this.memo = estimator.memo();
    this.reference = reference;
    this.coresMatter = reference || estimator.performanceDependsOnHostCores(task);
    this.usefulBatch = usefulBatch(task);
    this.checkpointings = checkpointings();
  }

  /** Whether this search, and the recommendation that uses it, goes the straightforward way. */
  boolean reference() {
    return reference;
  }

  /** A new search, the same way (fast or reference), for other settings. */
  LayoutSearch forSettings(Settings other) {
    return new LayoutSearch(other, reference);
  }

  /** The fastest fitting layout on {@code hardware}, or why there is none. */
  Outcome best(Hardware hardware) {
    Key key = Key.of(hardware);
    Outcome cached = cache.get(key);
    if (cached == null) {
      cached = search(hardware);
      cache.put(key, cached);
    }
    return cached;
  }

  /** Hardware searched so far (for tests of the cache). */
  int searched() {
    return cache.size();
  }

  /**
   * A cache key equal for equal hardware, cheap to hash: the GPU by identity (a catalog's offerings share its GPU
   * objects; a GPU's record hash walks all its datasheet fields), the rest by value.
   */
  private record Key(Gpu gpu, int gpusPerNode, int nodes, OptionalDouble interNodeGbps, OptionalInt cpuCoresPerNode,
      OptionalDouble diskMBps, Optional<Fabric> fabric) {
    static Key of(Hardware hw) {
      return new Key(hw.gpu(), hw.gpusPerNode(), hw.nodes(), hw.interNodeGbps(), hw.cpuCoresPerNode(),
          hw.diskMBps(), hw.interNodeFabric());
    }

    /** The key of the hardware's timings when the host's cores do not change them. */
    Key withoutCores() {
      return new Key(gpu, gpusPerNode, nodes, interNodeGbps, OptionalInt.empty(), diskMBps, fabric);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.gpu == gpu && k.gpusPerNode == gpusPerNode && k.nodes == nodes
          && k.interNodeGbps.equals(interNodeGbps) && k.cpuCoresPerNode.equals(cpuCoresPerNode)
          && k.diskMBps.equals(diskMBps) && k.fabric.equals(fabric);
    }

    @Override
    public int hashCode() {
      int h = (System.identityHashCode(gpu) * 31 + gpusPerNode) * 31 + nodes;
      h = h * 31 + interNodeGbps.hashCode();
      h = h * 31 + cpuCoresPerNode.hashCode();
      return h * 31 + diskMBps.hashCode(); // no Objects.hash: its varargs array was a hot allocation
    }
  }

  /** A recipe that fits in memory at its largest fitting micro-batch, to be timed. */
  /** {@code shard}: the ZeRO shard group, or 0 for all data-parallel ranks (full sharding, or no ZeRO). */
  private record Recipe(int tp, int pp, ZeroStage zero, int shard, Checkpointing ck, int mb) {}

  /**
   * What the memory checks of a search decide, which depends only on the GPU's memory, the GPUs per node and the
   * nodes: the recipes to time in order, and the closest miss so far; or, if nothing can fit, the outcome. The
   * misses name {@code gpu}, the GPU the plan was worked out for.
   */
  private record Plan(Gpu gpu, List<Recipe> recipes, Outcome.Miss closest, Optional<Outcome.Miss> nothingFits) {
    /** This plan for another GPU of the same memory: the same recipes, the misses naming {@code other}. */
    Plan on(Gpu other) {
      return other == gpu ? this : new Plan(other, recipes, closest == null ? null : closest.on(other),
          nothingFits.map(m -> m.on(other)));
    }
  }

  private Outcome search(Hardware hw) {
    if (reference) {
      Plan plan = plan(hw);
      return outcome(hw, plan, plan.nothingFits().isPresent() ? null : timing(hw, plan));
    }
    Plan shared = plans.computeIfAbsent(new PlanKey(hw.gpu().memory().bytes(), hw.gpusPerNode(), hw.nodes()),
        k -> plan(hw));
    Plan plan = shared.on(hw.gpu());
    Timing timing = plan.nothingFits().isPresent() ? null
        : timings.computeIfAbsent(coresMatter ? Key.of(hw) : Key.of(hw).withoutCores(), k -> timing(hw, plan));
    return outcome(hw, plan, timing);
  }

  /** The outcome of a plan and its timing (null when nothing fits). */
  private Outcome outcome(Hardware hw, Plan plan, Timing timing) {
    if (plan.nothingFits().isPresent()) {
      return plan.nothingFits().get();
    }
    if (timing.best() != null) {
      return fit(hw, timing.best());
    }
    // Only the extreme recipe fitted, and no timed recipe is it (one data-parallel rank makes every ZeRO stage
    // plain training, whose memory may differ from the extreme's): report the closest miss, never nothing.
    return timing.closest() != null ? timing.closest() : new Outcome.Miss(Rejection.Kind.MEMORY,
        "no layout of " + hw.gpus() + " GPUs that the search times fits in memory", Double.MAX_VALUE);
  }

  /**
   * What a memory plan depends on: the GPU's memory, not its model (memory estimates differ between GPUs by their
   * capacity only, {@link Estimator.Memo}, and every GPU a search meets runs its precision, {@link Pass}), and the
   * GPUs per node and nodes.
   */
  private record PlanKey(long capacity, int gpusPerNode, int nodes) {}

  /** The fastest recipe on some hardware (null if none runs), and the closest miss. */
  private record Timing(Timed best, Outcome.Miss closest) {}

  /**
   * Every ZeRO stage and checkpointing level at its largest fitting micro-batch, timed; the fastest wins. The fast
   * path times the recipes in the order of their least time ({@link Estimator.Memo.Run#leastSeconds}) and skips those
   * that could be neither chosen nor the fastest: past the margin of the fastest found, or, once no recipe left can
   * beat the fastest, later in the plan than the first one within its margin.
   */
  private Timing timing(Hardware hw, Plan plan) {
    Outcome.Miss closest = plan.closest();
    List<Recipe> recipes = plan.recipes();
    int count = recipes.size();
    double[] least = new double[count];
    Layout[] layouts = new Layout[count];
    Task[] variants = new Task[count];
    Estimator.Memo.Run[] runs = new Estimator.Memo.Run[count];
    Integer[] order = new Integer[count];
    for (int k = 0; k < count; k++) {
      order[k] = k;
      Recipe r = recipes.get(k);
      layouts[k] = layout(hw, r.tp(), r.pp(), r.zero(), r.shard());
      variants[k] = variant(r.mb(), r.ck(), layouts[k].dataParallel());
      if (!reference) {
        try {
          runs[k] = memo.run(variants[k], hw, layouts[k]);
          least[k] = runs[k].leastSeconds();
        } catch (IllegalArgumentException e) {
          // timed below, and its miss recorded, like any other
        }
      }
    }
    if (!reference) {
      java.util.Arrays.sort(order, (a, b) -> Double.compare(least[a], least[b]));
    }
    Timed[] timed = new Timed[count]; // by position in the plan; null where not timed
    Timed fastest = null;
    // Once the least time of the recipes left reaches the fastest time, the fastest is final (none left can beat
    // it), and so is the choice below, unless a recipe left comes before the first one within the margin (first).
    boolean settled = false;
    int first = count;
    for (int k : order) {
      if (fastest != null) {
        // nanoseconds the recipe takes at least, less a part in 10^9 for the rounding of the two sums
        double bound = least[k] * (1 - 1e-9) * 1e9;
        long limit = limit(fastest);
        if (bound >= limit + 1) {
          break; // past the margin of the fastest, and so is every recipe after it
        }
        if (!settled && bound >= fastest.runTime.toNanos() + 1) {
          settled = true;
          first = firstWithin(timed, limit);
        }
        if (settled && k > first) {
          continue;
        }
      }
      Timed t = time(hw, layouts[k], variants[k], runs[k]);
      timed[k] = t;
      if (t.miss == null && (fastest == null || t.runTime.compareTo(fastest.runTime) < 0)) {
        fastest = t;
      }
      if (settled && t.miss == null && t.runTime.toNanos() <= limit(fastest)) {
        first = Math.min(first, k);
      }
    }
    if (fastest == null) {
      for (Timed t : timed) { // in the plan's order, as the reference meets them
        closest = closer(closest, t.miss);
      }
      return new Timing(null, closest);
    }
    // Recipes come simplest first (tensor degree, then recomputation, then ZeRO stage, each ascending): take the
    // first within SIMPLER_LAYOUT_MARGIN of the fastest, so a sharding stage or recomputation level that the model
    // rates a hair faster does not displace plain DDP.
    int chosen = firstWithin(timed, limit(fastest));
    return new Timing(chosen < count ? timed[chosen] : fastest, closest);
  }

  /** The longest run time, in nanoseconds, within {@link #SIMPLER_LAYOUT_MARGIN} of {@code fastest}. */
  private static long limit(Timed fastest) {
    return (long) (fastest.runTime.toNanos() * (1 + SIMPLER_LAYOUT_MARGIN));
  }

  /** The plan position of the first timed recipe that fits within {@code limit}; {@code timed.length} if none. */
  private static int firstWithin(Timed[] timed, long limit) {
    for (int k = 0; k < timed.length; k++) {
      Timed t = timed[k];
      if (t != null && t.miss == null && t.runTime.toNanos() <= limit) {
        return k;
      }
    }
    return timed.length;
  }

  private Plan plan(Hardware hw) {
    int gpus = hw.gpus();
    List<Integer> tensorDegrees = tensorDegrees(hw);
    List<Checkpointing> checkpointings = this.checkpointings;

    // Extreme layouts first: if the least memory-hungry layout of every tensor-parallel degree does not fit,
    // nothing does, and the hardware is ruled out after a handful of memory estimates.
    Outcome.Miss closest = null;
    List<int[]> viable = new ArrayList<>(); // {tp, pp}
    for (int tp : tensorDegrees) {
      for (int pp : pipelineDegrees(hw, tp)) {
        int dp = gpus / (tp * pp);
        int[] microBatches = microBatches(dp);
        if (microBatches.length == 0) {
          closest = closer(closest, draft(Rejection.Kind.LAYOUT, Double.MAX_VALUE, task.globalBatch() > 0
              ? () -> "the global batch of " + task.globalBatch() + " does not split evenly over " + dp
                  + " data-parallel ranks"
              : () -> dp + " data-parallel ranks make a global batch of at least " + dp + " samples, more than the "
                  + usefulBatch + " that train well for this job (Task.largestUsefulGlobalBatch); give a global"
                  + " batch of your own to go past it"));
          continue;
        }
        List<ZeroStage> stages = zeroStages(pp);
        ZeroStage zero = stages.get(stages.size() - 1);
        Checkpointing ck = checkpointings.get(checkpointings.size() - 1);
        int mb = microBatches[microBatches.length - 1];
        Attempt extreme = memory(hw, tp, pp, zero, 0, ck, mb);
        if (extreme.miss != null) {
          closest = closer(closest, extreme.miss);
        } else {
          viable.add(new int[] {tp, pp});
        }
      }
    }
    if (viable.isEmpty()) {
      return new Plan(hw.gpu(), List.of(), closest, Optional.of(closest != null ? closest : new Outcome.Miss(
          Rejection.Kind.LAYOUT, "no layout of " + gpus + " GPUs suits the model", Double.MAX_VALUE)));
    }

    // Every ZeRO stage and checkpointing level at its largest fitting micro-batch is timed by search().
    // A higher stage or more recomputation is not always slower: sharding also shrinks the optimizer step, and
    // freed memory allows a larger micro-batch, so none is ruled out by assumption.
    List<Recipe> recipes = new ArrayList<>();
    List<Recipe> risky = new ArrayList<>();
    for (int[] degrees : viable) {
      int tp = degrees[0];
      int pp = degrees[1];
      int dp = gpus / (tp * pp);
      int[] microBatches = microBatches(dp);
      // Per ZeRO stage, the largest micro-batch that surely fits with less recomputation: more recomputation at a
      // micro-batch no larger only adds work (ComputeModel) and comes later in the order the choice takes, so it
      // is never chosen, and is not even checked. The reference checks and times every recipe.
      int[] lessRecomputed = new int[2 * ZeroStage.values().length]; // by stage, full then hybrid sharding
      int hybrid = hybridShardGroup(hw, tp, pp, dp);
      if (hybrid > 0 && memory(hw, tp, pp, ZeroStage.STAGE_3, hybrid, checkpointings.get(checkpointings.size() - 1),
          microBatches[microBatches.length - 1]).miss != null) {
        hybrid = 0; // as for full sharding above: where its least memory-hungry recipe does not fit, none does
      }
      for (Checkpointing ck : checkpointings) {
        for (ZeroStage zero : zeroStages(pp)) {
          if (dp == 1 && zero != ZeroStage.NONE) {
            break; // ZeRO shards over data-parallel ranks: with one rank every stage equals plain training
          }
          // full sharding, then, across nodes, hybrid sharding within each node: FSDP's HYBRID_SHARD (ZeRO-3) and
          // _HYBRID_SHARD_ZERO2 (ZeRO-2), its two hybrid strategies (torch.distributed.fsdp.ShardingStrategy)
          int shardings = zero.number() < 2 || hybrid == 0 ? 1 : 2;
          int fullSure = 0; // the micro-batch at which full sharding surely fits, 0 if none
          for (int h = 0; h < shardings; h++) {
            int shard = h == 0 ? 0 : hybrid;
            int slot = 2 * zero.ordinal() + h;
            boolean riskyFound = false;
            for (int mb : microBatches) {
              if (mb <= lessRecomputed[slot] && !reference) {
                break;
              }
              if (h == 1 && fullSure > 0 && mb > fullSure && !reference) {
                // a shard group holds more than all ranks do (memory never rises with ranks): not sure where full
                // sharding was not, and a risky recipe is never timed beside full sharding's sure one
                continue;
              }
              int level = reference ? level(memory(hw, tp, pp, zero, shard, ck, mb).fitting())
                  : fitLevel(hw, tp, pp, zero, shard, ck, mb);
              if (level == DOES_NOT_FIT) {
                continue;
              }
              boolean sure = level == SURELY_FITS;
              if (mb > task.microBatch() && !sure) {
                continue; // a micro-batch the sizer raised must fit even at the high end of the memory band
              }
              if (sure) {
                recipes.add(new Recipe(tp, pp, zero, shard, ck, mb));
                lessRecomputed[slot] = Math.max(lessRecomputed[slot], mb);
                if (h == 0) {
                  fullSure = mb;
                }
                break; // the largest micro-batch that surely fits is the fastest safe one of this recipe
              }
              if (!riskyFound) {
                risky.add(new Recipe(tp, pp, zero, shard, ck, mb));
                riskyFound = true; // and a smaller micro-batch may still fit surely: the search goes on for it
              }
            }
          }
        }
      }
    }
    // A recipe whose peak may not fit (the high end of its memory band is past the card) is timed only where no
    // recipe surely fits and the caller allows it (Sizer.allowTightMemory): a planner keeps the margin, and by
    // default hardware that leaves none is rejected, saying by how much.
    if (recipes.isEmpty() && !risky.isEmpty() && !settings.tightMemory()) {
      return new Plan(hw.gpu(), List.of(), closest, Optional.of(tight(hw, risky)));
    }
    return new Plan(hw.gpu(), recipes.isEmpty() ? risky : recipes, closest, Optional.empty());
  }

  /**
   * Why hardware whose recipes all fit only nominally is rejected: the recipe whose memory interval reaches least
   * far past the card, with its nominal peak and the high end of the interval.
   */
  private Outcome.Miss tight(Hardware hw, List<Recipe> risky) {
    Recipe r = risky.stream().min(Comparator.comparing((Recipe x) -> memoryOf(hw, x.tp(), x.pp(), x.zero(), x.shard(),
        x.ck(), x.mb()).perGpuInterval().high())).orElseThrow();
    MemoryEstimate m = memoryOf(hw, r.tp(), r.pp(), r.zero(), r.shard(), r.ck(), r.mb());
    DataSize required = settings.requiredHeadroom(m.capacity());
    Outcome.Miss miss = new Outcome.Miss(Rejection.Kind.MEMORY, hw.gpu(), gpu -> "may not fit: needs "
        + Texts.size(m.perGpu()) + " per GPU, up to " + Texts.size(m.perGpuInterval().high())
        + " at the high end of the memory estimate, with "
        + Texts.recipe(layout(hw, r.tp(), r.pp(), r.zero(), r.shard()), r.ck(), r.mb(), task.kind().isTraining())
        + "; " + onCard(gpu, m.capacity(), required) + "; allow the risk with --allow-tight-memory"
        + " (Sizer.allowTightMemory())", shortfall(m.perGpuInterval().high(), required, m.capacity()));
    if (reference) {
      miss.reason();
    }
    return miss;
  }

  /** {@code "the NVIDIA A100-SXM4-40GB has 40.0 GiB"}, and what must stay free of it where the caller asks for any. */
  private static String onCard(Gpu gpu, DataSize capacity, DataSize required) {
    return "the " + gpu.name() + " has " + Texts.size(capacity)
        + (required.bytes() > 0 ? " and " + Texts.size(required) + " must stay free" : "");
  }

  /** How far a memory need and the headroom required go past the card, as a multiple of its capacity. */
  private static double shortfall(DataSize need, DataSize required, DataSize capacity) {
    return (double) need.plus(required).bytes() / Math.max(1, capacity.bytes());
  }

  private static Outcome.Miss closer(Outcome.Miss a, Outcome.Miss b) {
    return b.closerThan(a) ? b : a;
  }

  /** A miss whose reason is written when reported; at once on the reference path, which does everything plainly. */
  private Outcome.Miss draft(Rejection.Kind kind, double shortfall, Supplier<String> reason) {
    Outcome.Miss m = new Outcome.Miss(kind, reason, shortfall);
    if (reference) {
      m.reason();
    }
    return m;
  }

  /** A memory check: {@code miss} is null when the layout fits with the required headroom. */
  private static final class Attempt {
    final MemoryEstimate memory;
    final Outcome.Miss miss;

    Attempt(MemoryEstimate memory, Outcome.Miss miss) {
      this.memory = memory;
      this.miss = miss;
    }

    /** The memory when the layout fits, else null. */
    MemoryEstimate fitting() {
      return miss == null ? memory : null;
    }
  }

  /** How a recipe fits: not with the required headroom, with it, or with it even at the high end of its band. */
  private static final int DOES_NOT_FIT = 0;
  private static final int FITS = 1;
  private static final int SURELY_FITS = 2;

  /** The level of a memory estimate that fits with headroom (null if it does not). */
  private int level(MemoryEstimate fitting) {
    return fitting == null ? DOES_NOT_FIT : surelyFits(fitting) ? SURELY_FITS : FITS;
  }

  /**
   * {@link #level} of the recipe, with no estimate where the {@link Thresholds} of its ZeRO stage already tell it:
   * memory per GPU never rises with data-parallel ranks from 2 up ({@link Estimator#memory}).
   */
  private int fitLevel(Hardware hw, int tp, int pp, ZeroStage zero, int shard, Checkpointing ck, int mb) {
    int dp = hw.gpus() / (tp * pp);
    if (zero == ZeroStage.NONE || dp < 2 || shard > 0) {
      // plain data parallelism, or shard groups of a fixed size: one estimate serves all ranks
      return levelOf(hw, tp, pp, zero, shard, ck, mb);
    }
    Thresholds known = thresholds.computeIfAbsent(
        new RanksKey(variant(mb, ck, dp), hw.gpu(), tp, pp, zero, hw.nodes() > 1), k -> new Thresholds());
    int level = known.level(dp);
    if (level < 0) {
      level = levelOf(hw, tp, pp, zero, 0, ck, mb);
      known.record(dp, level);
    }
    return level;
  }

  /** {@link #level} of a recipe's memory estimate, without writing the reason of a miss nobody reads. */
  private int levelOf(Hardware hw, int tp, int pp, ZeroStage zero, int shard, Checkpointing ck, int mb) {
    try {
      if (!reference && sharesMemory(zero, shard)) {
        return shared(hw, tp, pp, zero, shard, ck, mb).level;
      }
      MemoryEstimate m = memoryOf(hw, tp, pp, zero, shard, ck, mb);
      return level(fitsWithHeadroom(m) ? m : null);
    } catch (IllegalArgumentException e) {
      return DOES_NOT_FIT;
    }
  }

  /** A sharded recipe on some GPU, within or across nodes, whatever its data-parallel ranks. */
  private record RanksKey(Task variant, Gpu gpu, int tp, int pp, ZeroStage zero, boolean multiNode) {
    @Override
    public boolean equals(Object o) {
      return o instanceof RanksKey k && k.variant == variant && k.gpu == gpu && k.tp == tp && k.pp == pp
          && k.zero == zero && k.multiNode == multiNode;
    }

    @Override
    public int hashCode() {
      return (((System.identityHashCode(variant) * 31 + System.identityHashCode(gpu)) * 31 + tp) * 31 + pp) * 31
          + zero.ordinal() * 2 + (multiNode ? 1 : 0);
    }
  }

  /**
   * What the estimates of one {@link RanksKey} have shown so far. Memory never rises with the ranks from 2 up, so
   * each level holds from the fewest ranks seen at it up, and the levels below it up to the most ranks seen there.
   */
  private static final class Thresholds {
    int fewestSure = Integer.MAX_VALUE;
    int fewestFitting = Integer.MAX_VALUE;
    int mostNotSure;
    int mostNotFitting;

    /** The level at {@code dp} ranks if the estimates so far decide it, else -1. */
    int level(int dp) {
      if (dp >= fewestSure) {
        return SURELY_FITS;
      }
      if (dp <= mostNotFitting) {
        return DOES_NOT_FIT;
      }
      return dp >= fewestFitting && dp <= mostNotSure ? FITS : -1;
    }

    void record(int dp, int level) {
      if (level == SURELY_FITS) {
        fewestSure = Math.min(fewestSure, dp);
      } else {
        mostNotSure = Math.max(mostNotSure, dp);
      }
      if (level == DOES_NOT_FIT) {
        mostNotFitting = Math.max(mostNotFitting, dp);
      } else {
        fewestFitting = Math.min(fewestFitting, dp);
      }
    }
  }

  private Attempt memory(Hardware hw, int tp, int pp, ZeroStage zero, int shard, Checkpointing ck, int mb) {
    MemoryEstimate m;
    try {
      m = memoryOf(hw, tp, pp, zero, shard, ck, mb);
    } catch (IllegalArgumentException e) {
      return new Attempt(null, new Outcome.Miss(Rejection.Kind.LAYOUT, e.getMessage(), Double.MAX_VALUE));
    }
    if (fitsWithHeadroom(m)) {
      return new Attempt(m, null);
    }
    DataSize required = settings.requiredHeadroom(m.capacity());
    // the reason names the GPU: a plan shared by GPUs of the same memory names each (Plan#on)
    Outcome.Miss miss = new Outcome.Miss(Rejection.Kind.MEMORY, hw.gpu(), gpu -> "needs " + Texts.size(m.perGpu())
        + " per GPU with " + Texts.recipe(layout(hw, tp, pp, zero, shard), ck, mb, task.kind().isTraining()) + "; "
        + onCard(gpu, m.capacity(), required), shortfall(m.perGpu(), required, m.capacity()));
    if (reference) {
      miss.reason();
    }
    return new Attempt(m, miss);
  }

  /** The memory of one recipe; throws IllegalArgumentException when the layout does not suit the task at all. */
  private MemoryEstimate memoryOf(Hardware hw, int tp, int pp, ZeroStage zero, int shard, Checkpointing ck,
      int mb) {
    if (!reference && sharesMemory(zero, shard)) {
      return shared(hw, tp, pp, zero, shard, ck, mb).memory;
    }
    Layout layout = layout(hw, tp, pp, zero, shard);
    Task variant = variant(mb, ck, layout.dataParallel());
    // sharded: the Thresholds of fitLevel spare estimates instead
    return reference ? estimator.memory(variant, hw, layout) : memo.memory(variant, hw, layout);
  }

  /** A memory estimate that instance counts share, and its {@link #level}. */
  private record Shared(MemoryEstimate memory, int level) {}

  /**
   * Whether a recipe's memory is the same at every number of data-parallel ranks from 2 up: without ZeRO, or with
   * shard groups of a fixed size ({@link Estimator#memoryKey}).
   */
  private static boolean sharesMemory(ZeroStage zero, int shard) {
    return zero == ZeroStage.NONE || shard > 0;
  }

  /** The memory of a recipe that {@link #sharesMemory}, which instance counts of one GPU share. */
  private Shared shared(Hardware hw, int tp, int pp, ZeroStage zero, int shard, Checkpointing ck, int mb) {
    Layout layout = layout(hw, tp, pp, zero, shard);
    Task variant = variant(mb, ck, layout.dataParallel());
    Object key = estimator.memoryKey(variant, hw, layout);
    Shared known = memories.get(key);
    if (known == null) {
      MemoryEstimate m = memo.memory(variant, hw, layout);
      known = new Shared(m, level(fitsWithHeadroom(m) ? m : null));
      memories.put(key, known);
    }
    return known;
  }

  /**
   * Whether the recipe fits even at the high end of its memory interval (the p90 of the calibration errors of its
   * workload class, {@link io.github.gpusizer.core.estimate.ErrorBand}): the margin a micro-batch the caller did
   * not choose must leave, so the sizer never raises one into a likely out-of-memory.
   */
  private boolean surelyFits(MemoryEstimate m) {
    return m.fit() == io.github.gpusizer.core.estimate.Fit.FITS
        && m.capacity().bytes() - m.perGpuInterval().high().bytes() >= settings.requiredHeadroom(m.capacity()).bytes();
  }

  private boolean fitsWithHeadroom(MemoryEstimate m) {
    return m.fits() && m.headroom().compareTo(settings.requiredHeadroom(m.capacity())) >= 0;
  }

  /** A recipe timed: its run time, or why it cannot run ({@code miss} non-null). */
  private static final class Timed {
    final Task variant;
    final Layout layout;
    final Duration runTime;
    final Outcome.Miss miss;

    Timed(Task variant, Layout layout, Duration runTime, Outcome.Miss miss) {
      this.variant = variant;
      this.layout = layout;
      this.runTime = runTime;
      this.miss = miss;
    }
  }

  /**
   * Times a recipe with {@link Estimator#performance}, which is {@link Estimator#estimate}'s performance without
   * the host sizing and warnings: those are worked out for the fastest recipe only, by {@link #fit}.
   */
  private Timed time(Hardware hw, Layout layout, Task variant, Estimator.Memo.Run run) {
    PerformanceEstimate p;
    try {
      p = reference ? estimator.estimate(variant, hw, layout).performance()
          : (run != null ? run : memo.run(variant, hw, layout)).performance();
    } catch (IllegalArgumentException ex) {
      return new Timed(variant, layout, null,
          new Outcome.Miss(Rejection.Kind.LAYOUT, ex.getMessage(), Double.MAX_VALUE));
    }
    Duration runTime = p.totalTime().orElseThrow(() -> new IllegalStateException(
        "the estimator gave no total time for a task with an amount of work: " + task));
    return new Timed(variant, layout, runTime, null);
  }

  /** The fastest recipe, with its full estimate (memory, time, host and warnings) worked out when first asked. */
  private Outcome fit(Hardware hw, Timed best) {
    Recipe recipe = new Recipe(best.layout.tensorParallel(), best.layout.pipelineParallel(), best.layout.zero(),
        best.layout.hybridSharded() ? best.layout.shardGroup() : 0, best.variant.checkpointing(),
        best.variant.microBatch());
    if (reference) {
      Estimate e = estimator.estimate(best.variant, hw, best.layout);
      return new Outcome.Fit(() -> e, best.runTime, recipe);
    }
    return new Outcome.Fit(h -> estimator.estimate(best.variant, h, best.layout), hw, best.runTime, recipe);
  }

  /** The layout of a recipe; {@code shard} as in {@link Recipe}. */
  private static Layout layout(Hardware hw, int tp, int pp, ZeroStage zero, int shard) {
    Layout full = new Layout(hw.gpus() / (tp * pp), tp, pp, zero, hw.gpusPerNode());
    return shard > 0 ? full.withShardGroup(shard) : full;
  }

  /**
   * The shard group of hybrid sharding on the hardware, 0 if none applies: the data-parallel ranks of one node
   * (FSDP's {@code HYBRID_SHARD}, PyTorch FSDP documentation: "shard within a node, replicate across nodes"), so
   * the weight gathers of every micro-batch stay on the node's links and only the gradient shards cross the network
   * once a step (Zhao et al. 2023, "PyTorch FSDP", §3.2.2 and §7.2). Tried where the run spans nodes and each node
   * holds at least two ranks; not with pipeline stages, which shard only optimizer state ({@link #zeroStages}).
   */
  private static int hybridShardGroup(Hardware hw, int tp, int pp, int dp) {
    int perNode = hw.gpusPerNode() / tp;
    return hw.nodes() > 1 && pp == 1 && perNode >= 2 && perNode < dp && dp % perNode == 0 ? perNode : 0;
  }

  /**
   * Pipeline degrees to try with tensor degree {@code tp}: 1, and where the model needs it, powers of two that split
   * the nodes into equal stage groups. A model needs it when its training state (weights, gradients and optimizer
   * state, unsharded) does not fit in one node's GPU memory: the case in which Megatron-LM-style trainers add
   * pipeline stages across nodes (Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU
   * Clusters Using Megatron-LM", §3: tensor parallelism within a node, pipeline parallelism across nodes).
   */
  private List<Integer> pipelineDegrees(Hardware hw, int tp) {
    List<Integer> out = new ArrayList<>();
    out.add(1);
    if (!task.kind().splitsLayers() || !needsPipeline(hw) || !(task.model() instanceof Transformer t)) {
      return out;
    }
    for (int pp = 2; pp <= hw.nodes() && pp <= t.totalLayers(); pp *= 2) {
      if (hw.nodes() % pp == 0 && hw.gpus() % (tp * pp) == 0) {
        out.add(pp);
      }
    }
    return out;
  }

  private boolean needsPipeline(Hardware hw) {
    return hw.nodes() >= 2 && needsPipeline(hw.gpu(), hw.gpusPerNode());
  }

  /** Whether the task's training state outgrows one node of {@code gpusPerNode} such GPUs (see above). */
  boolean needsPipeline(Gpu gpu, int gpusPerNode) {
    if (!task.kind().isTraining()) {
      return false;
    }
    if (trainingState == null) {
      trainingState = (double) estimator.checkpointSize(task, gpu).bytes()
          + task.model().parameters() * task.precision().gradientBytes();
    }
    return trainingState > (double) gpu.memory().bytes() * gpusPerNode;
  }

  /**
   * What decides a variant of the task (a boxed {@code List.of} key hashed three {@code Integer}s per look-up; the
   * record's own hash called the enum's identity hash, 4 % of a bundled recommend).
   */
  private record VariantKey(int mb, Checkpointing ck, int global) {
    @Override
    public boolean equals(Object o) {
      return o instanceof VariantKey k && k.mb == mb && k.ck == ck && k.global == global;
    }

    @Override
    public int hashCode() {
      return (mb * 31 + ck.ordinal()) * 31 + global;
    }
  }

  /** The task as run with this micro-batch and checkpointing; gradient accumulation keeps the global batch. */
  private Task variant(int mb, Checkpointing ck, int dataParallel) {
    int global = task.globalBatch();
    if (mb != task.microBatch() && global == 0 && task.kind().isTraining() && task.microBatchChosen()) {
      // "one micro-batch per rank" as the caller set it; capped at the int range (a micro-batch of over 2^31 / ranks
      // samples, found by fuzzing, made the product wrap negative and Task reject it inside recommend()), where no
      // layout fits anyway
      global = (int) Math.min(Integer.MAX_VALUE, (long) task.microBatch() * dataParallel);
    }
    boolean small = global == task.globalBatch() && mb < SMALL_MICRO_BATCHES;
    Task t = small ? smallVariants[ck.ordinal()][mb] : variants.get(new VariantKey(mb, ck, global));
    if (t == null) {
      t = mb == task.microBatch() && ck == task.checkpointing() && global == task.globalBatch()
          ? task : task.toBuilder().microBatch(mb).checkpointing(ck).globalBatch(global).build();
      if (small) {
        smallVariants[ck.ordinal()][mb] = t;
      } else {
        variants.put(new VariantKey(mb, ck, global), t);
      }
    }
    return t;
  }

  /**
   * The instance counts, of instances of {@code gpusPerInstance} GPUs up to {@code max}, at which a micro-batch is
   * last allowed before the global batch it makes with the data-parallel ranks would outgrow the
   * {@link #usefulBatch} ({@link #microBatchesOf}), for each micro-batch tried and tensor-parallel degree within an
   * instance. Empty when the caller gave a global batch (no such bound).
   */
  int[] microBatchLimits(int gpusPerInstance, int max) {
    if (usefulBatch == Integer.MAX_VALUE || !task.kind().isTraining()) {
      return new int[0];
    }
    java.util.TreeSet<Integer> out = new java.util.TreeSet<>();
    int mb0 = task.microBatchChosen() ? task.microBatch() : Math.max(task.microBatch(), OPEN_MICRO_BATCH);
    for (int mb = mb0; mb >= 1; mb /= 2) {
      long ranks = usefulBatch / mb; // the most data-parallel ranks at which mb is allowed
      for (int tp = 1; tp <= gpusPerInstance; tp *= 2) {
        long last = ranks * tp / gpusPerInstance;
        if (last >= 1 && last <= max) {
          out.add((int) last); // the next rung refuses it, and the bisection of recipe changes finds the count
        }
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * Micro-batches to try, largest first: the task's own, then smaller ones that keep the global batch a whole
   * number of micro-batches per rank. Empty if the global batch does not split over the data-parallel ranks.
   */
  private int[] microBatches(int dataParallel) {
    if (dataParallel >= microBatchesByRanks.length) {
      microBatchesByRanks = java.util.Arrays.copyOf(microBatchesByRanks,
          Math.max(dataParallel + 1, 2 * microBatchesByRanks.length));
    }
    int[] cached = microBatchesByRanks[dataParallel];
    if (cached == null) {
      cached = microBatchesOf(dataParallel);
      microBatchesByRanks[dataParallel] = cached;
    }
    return cached;
  }

  private int[] microBatchesOf(int dataParallel) {
    return microBatchesOf(task, usefulBatch, dataParallel);
  }

  /** The largest global batch a search lets the ranks make: none where the task fixes one. */
  static int usefulBatch(Task task) {
    return task.globalBatch() > 0 ? Integer.MAX_VALUE : task.largestUsefulGlobalBatch().orElse(Integer.MAX_VALUE);
  }

  /**
   * The micro-batches to try for {@code task} over {@code dataParallel} ranks, largest first ({@link
   * #microBatches}); the rule {@link GpuSizer#largestMicroBatch} shares with the search.
   */
  static int[] microBatchesOf(Task task, int usefulBatch, int dataParallel) {
    int mb0 = task.microBatch();
    List<Integer> out = new ArrayList<>();
    if (task.kind().isTraining() && task.globalBatch() > 0) {
      if (task.globalBatch() % dataParallel != 0) {
        return new int[0];
      }
      int perRank = task.globalBatch() / dataParallel;
      // a micro-batch the caller left open may rise to all of the rank's share of the global batch
      mb0 = task.microBatchChosen() ? mb0 : perRank;
      // The divisors of perRank up to mb0, from the pairs (d, perRank / d) with d <= sqrt(perRank): a count down
      // from mb0 took 2^31 steps per layout for a global batch near Integer.MAX_VALUE (found by fuzzing).
      for (int d = 1; (long) d * d <= perRank; d++) {
        if (perRank % d == 0) {
          if (d <= mb0) {
            out.add(d);
          }
          int pair = perRank / d;
          if (pair != d && pair <= mb0) {
            out.add(pair);
          }
        }
      }
      out.sort(Comparator.reverseOrder());
    } else {
      if (!task.microBatchChosen()) {
        // neither micro-batch nor global batch given: training takes the largest that fits up to OPEN_MICRO_BATCH;
        // offline inference batches its prompts as far (a replica never holds more sequences than the job has)
        mb0 = Math.max(mb0, task.kind().isTraining() ? openBatch(task) : openInferenceBatch(task, dataParallel));
      }
      // the ranks multiply the micro-batch: the global batch they make stays within what trains well
      int largest = usefulBatch / dataParallel;
      if (largest < 1) {
        return new int[0];
      }
      for (int mb = mb0; mb >= 1; mb /= 2) {
        if (mb <= largest) {
          out.add(mb);
        }
      }
      if (out.isEmpty() || out.get(out.size() - 1) != 1) {
        out.add(1);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The most samples per GPU (training) or sequences per replica (inference) the search tries when the task fixes
   * neither: {@link #SERVING_ENGINE_SEQUENCES} for inference in a serving engine, else {@link #OPEN_MICRO_BATCH}.
   */
  static int openBatch(Task task) {
    return !task.kind().isTraining() && task.executionMode() == ExecutionMode.SERVING_ENGINE
        ? SERVING_ENGINE_SEQUENCES : OPEN_MICRO_BATCH;
  }

  /**
   * Concurrent sequences per replica tried when the caller gave none for an inference job: {@link #OPEN_MICRO_BATCH}
   * for a plain script ({@code model.generate} on a padded batch) and {@link #SERVING_ENGINE_SEQUENCES} for a serving
   * engine, at most the job's sequences over the replicas (its samples, or its tokens over the tokens each
   * generates, or each reads where none are generated); 1 where the job states no amount of work.
   */
  private static int openInferenceBatch(Task task, int replicas) {
    int open = openBatch(task);
    int perSequence = task.generatedTokens() > 0 ? task.generatedTokens() : task.sequenceLength();
    double sequences = task.samples().orElse(task.tokens().orElse(perSequence) / perSequence);
    double perReplica = sequences / replicas;
    return (int) Math.max(1, Math.min(open, Math.floor(perReplica)));
  }

  /**
   * Tensor-parallel degrees that divide the node, the run and the model's attention heads, for a task whose layers
   * may be split ({@link TaskKind#splitsLayers}); 1 always.
   */
  private List<Integer> tensorDegrees(Hardware hw) {
    List<Integer> out = new ArrayList<>();
    out.add(1);
    if (!(task.model() instanceof Transformer) || !task.kind().splitsLayers()) {
      return out;
    }
    Transformer t = (Transformer) task.model();
    for (int tp = 2; tp <= hw.gpusPerNode(); tp *= 2) {
      if (hw.gpusPerNode() % tp == 0 && hw.gpus() % tp == 0 && t.heads() % tp == 0 && t.kvHeads() % tp == 0) {
        out.add(tp);
      }
    }
    return out;
  }

  /**
   * ZeRO stages to try: all for training without pipeline stages; with them none or stage 1, since DeepSpeed's
   * pipeline engine supports only ZeRO stage 1 (DeepSpeed documentation, "Pipeline Parallelism") and Megatron-LM's
   * distributed optimizer shards optimizer state only.
   */
  private List<ZeroStage> zeroStages(int pp) {
    if (!task.kind().isTraining()) {
      return List.of(ZeroStage.NONE);
    }
    return pp == 1 ? List.of(ZeroStage.values()) : List.of(ZeroStage.NONE, ZeroStage.STAGE_1);
  }

  private List<Checkpointing> checkpointings() {
    if (!task.kind().isTraining()) {
      return List.of(task.checkpointing());
    }
    List<Checkpointing> out = new ArrayList<>();
    for (Checkpointing ck : Checkpointing.values()) {
      boolean selectiveApplies = task.model() instanceof Transformer;
      if (ck.compareTo(task.checkpointing()) >= 0 && (ck != Checkpointing.SELECTIVE || selectiveApplies
          || task.checkpointing() == Checkpointing.SELECTIVE)) {
        out.add(ck);
      }
    }
    return out;
  }
}
