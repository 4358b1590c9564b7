package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.TreeSet;

/**
 * The numbers of instances a planner considers for one offering (DESIGN.md §6a, issue #10): every count up to
 * {@link #DENSE_GPUS} GPUs, where each added GPU changes the time a lot; beyond that steps of at most
 * {@link #STEP} (a quarter more each time), well inside the estimator's ±25 % accuracy on throughput
 * (core/CALIBRATION.md); plus the counts whose GPUs divide the global batch, so that data parallelism need not
 * round it, and, where the model outgrows a node, the powers of two, which pipeline stages split into equal groups,
 * and the even counts beside each odd rung. The largest count allowed is always included.
 */
final class InstanceCounts {
  /** Every count up to this many GPUs: one 8-GPU server's worth, the common largest node. */
  static final int DENSE_GPUS = 8;
  /** The largest step of the ladder beyond {@link #DENSE_GPUS}, as a ratio. */
  static final double STEP = 1.25;

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
      n = (long) (n + 1) * gpusPerInstance <= DENSE_GPUS ? n + 1 : Math.max(n + 1, (int) Math.floor(n * STEP));
    }
    if (max >= 1) {
      counts.add(max);
    }
    // powers of two: the counts pipeline stages split evenly (a stage group per power-of-two share of the nodes);
    // and an even count beside each odd rung, where two stages can split the nodes (an odd count allows none)
    for (long p = 1; pipelined && p <= max; p *= 2) {
      counts.add((int) p);
    }
    if (pipelined) {
      for (int rung : counts.toArray(new Integer[0])) {
        if (rung % 2 == 1 && rung > 1) {
          counts.add(rung - 1);
          if (rung < max) {
            counts.add(rung + 1);
          }
        }
      }
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

  private static void addIfWhole(TreeSet<Integer> counts, long gpus, int gpusPerInstance, int max) {
    if (gpus % gpusPerInstance == 0 && gpus / gpusPerInstance <= max) {
      counts.add((int) (gpus / gpusPerInstance));
    }
  }
}
