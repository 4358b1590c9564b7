package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.TreeSet;

/**
 * The numbers of instances a planner considers for one offering (DESIGN.md §6a, issue #10): every count up to
 * {@link #DENSE_GPUS} GPUs, where each added GPU changes the time a lot; beyond that steps of at most
 * {@link #STEP} (a quarter more each time), well inside the estimator's ±25 % accuracy on throughput
 * (core/CALIBRATION.md); plus the counts whose GPUs divide the global batch, so that data parallelism need not
 * round it, and, where the model outgrows a node, the powers of two, which pipeline stages split into equal groups,
 * with every rung a multiple of 2, 4 or 8 stages. The largest count allowed is always included.
 */
final class InstanceCounts {
  /** Every count up to this many GPUs: one 8-GPU server's worth, the common largest node. */
  static final int DENSE_GPUS = 8;
  /** The largest step of the ladder beyond {@link #DENSE_GPUS}, as a ratio. */
  static final double STEP = 1.25;
  /**
   * The most pipeline stages the rungs of a pipelined ladder are multiples of: 8, the most stages of
   * Megatron-LM's GPT configurations up to 146B parameters (Narayanan et al. 2021, "Efficient Large-Scale Language
   * Model Training on GPU Clusters Using Megatron-LM", Table 1: 1 to 8 stages up to 145.6B, 16 to 64 beyond, where
   * the ladder's powers of two serve).
   */
  static final int PIPELINE_STAGES = 8;

  private InstanceCounts() {}

  /** 1, 2, …, {@code max}. */
  static int[] every(int max) {
    int[] out = new int[Math.max(0, max)];
    for (int n = 1; n <= max; n++) {
      out[n - 1] = n;
    }
    return out;
  }

  /**
   * The ladder for instances of {@code gpusPerInstance} GPUs, ascending.
   *
   * @param max the most instances allowed (0: none)
   * @param globalBatch samples per optimizer step, 0 if not fixed
   * @param pipelined whether pipeline stages may split the instances (the model outgrows one node)
   */
  static int[] ladder(int gpusPerInstance, int max, long globalBatch, boolean pipelined) {
    checkArgument(gpusPerInstance >= 1, "GPUs per instance must be >= 1, was %s", gpusPerInstance);
    TreeSet<Integer> counts = new TreeSet<>();
    int n = 1;
    while (n <= max) {
      counts.add(n);
      n = (long) (n + 1) * gpusPerInstance <= DENSE_GPUS ? n + 1 : Math.max(n + 1, step(n, pipelined));
    }
    if (max >= 1) {
      counts.add(max);
    }
    // powers of two: the counts pipeline stages split evenly (a stage group per power-of-two share of the nodes)
    for (long p = 1; pipelined && p <= max; p *= 2) {
      counts.add((int) p);
    }
    if (globalBatch > 0) {
      // a data-parallel degree that divides the global batch; divisors found up to its square root
      for (long d = 1; d * d <= globalBatch; d++) {
        if (globalBatch % d == 0) {
          addIfWhole(counts, d, gpusPerInstance, max);
          addIfWhole(counts, globalBatch / d, gpusPerInstance, max);
        }
      }
    }
    return counts.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The rung after {@code n}: a quarter more, and where pipeline stages may split the instances, rounded down to a
   * multiple of the most stages that lose at most a quarter of it ({@link #PIPELINE_STAGES} at most): the search
   * tries power-of-two stage counts that divide the nodes (LayoutSearch.pipelineDegrees), and a pipelined layout can
   * cost much less than its neighbours at the first count where it fits without recomputation (4 stages × 5
   * replicas on 20 single-GPU nodes of a 3.3B model: 8 % under 18 or 22 nodes, which 4 stages do not split).
   */
  private static int step(int n, boolean pipelined) {
    int next = (int) Math.floor(n * STEP);
    if (!pipelined) {
      return next;
    }
    int stages = Math.min(PIPELINE_STAGES, Integer.highestOneBit(Math.max(1, next / 4)));
    return next / stages * stages;
  }

  private static void addIfWhole(TreeSet<Integer> counts, long gpus, int gpusPerInstance, int max) {
    if (gpus % gpusPerInstance == 0 && gpus / gpusPerInstance <= max) {
      counts.add((int) (gpus / gpusPerInstance));
    }
  }
}
