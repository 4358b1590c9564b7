package io.github.gpusizer.examples.cli;

import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Fit;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.estimate.MemoryEstimate;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What would make a task that does not fit in GPU memory fit: each change tried with the estimator. */
final class Advice {
  private Advice() {}

  static String doesNotFit(Estimator estimator, Estimate e) {
    Task task = e.task();
    Hardware hw = e.hardware();
    Layout layout = e.layout();
    MemoryEstimate m = e.memory();
    List<String> fixes = new ArrayList<>();
    int maxMicroBatch = estimator.maxMicroBatch(task, hw, layout);
    if (maxMicroBatch >= 1 && maxMicroBatch < task.microBatch()) {
      fixes.add("--micro-batch " + maxMicroBatch);
    }
    if (task.kind().isTraining() && task.checkpointing() != Checkpointing.FULL) {
      Task full = task.toBuilder().checkpointing(Checkpointing.FULL).build();
      if (fits(estimator, full, hw, layout)) {
        fixes.add("--checkpointing full");
      }
    }
    if (task.kind().isTraining() && layout.dataParallel() > 1 && layout.zero() != ZeroStage.STAGE_3) {
      if (fits(estimator, task, hw, layout.withZero(ZeroStage.STAGE_3))) {
        fixes.add("--zero 3");
      }
    }
    if (!task.kind().isTraining()) {
      inferenceFixes(estimator, task, hw, layout).ifPresent(fixes::add);
    }
    // past the card but within the memory model's error band, the verdict is "may not fit": say how likely
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
        "the task %s: it needs %s per GPU (as nvidia-smi would show), %s has %s",
        m.fit() == Fit.MAY_NOT_FIT ? "probably does not fit (it may, if the estimate is high)" : "does not fit",
        m.perGpu(), hw.gpu().name(), m.capacity()));
    if (fixes.isEmpty()) {
      s.append(task.kind().isTraining()
          ? "; try more GPUs with --zero 3 (--gpus N), a GPU with more memory, or 'gpusizer recommend' to search all "
              + "of them"
          : "; try tensor parallelism over more GPUs (--tp N --gpus N), quantised weights (--quant int8 or int4), "
              + "a GPU with more memory, or 'gpusizer serve' to search all of them");
    } else {
      s.append("; each of these would fit: ").append(String.join(", ", fixes));
    }
    return s.toString();
  }

  /**
   * What makes an inference fit, in the order a serving engineer tries them: the fewest GPUs of tensor parallelism
   * (2, 4, 8 within a node: weights and KV cache split across them), else weights quantised to 8 and then 4 bits.
   * ZeRO never: it shards training state, which inference has none of.
   */
  private static java.util.Optional<String> inferenceFixes(Estimator estimator, Task task, Hardware hw,
                                                           Layout layout) {
    for (int tp = Math.max(2, 2 * layout.tensorParallel()); tp <= 8; tp *= 2) {
      if (fits(estimator, task, Hardware.of(hw.gpu(), tp, 1), new Layout(1, tp, 1, ZeroStage.NONE, tp))) {
        return java.util.Optional.of("--tp " + tp + " --gpus " + tp);
      }
    }
    if (task.quantization() == io.github.gpusizer.core.task.WeightQuantization.NONE) {
      for (String q : List.of("int8", "int4")) {
        Task quantised = task.toBuilder().quantization(io.github.gpusizer.examples.support.Words.QUANT.get(q)).build();
        if (fits(estimator, quantised, hw, layout)) {
          return java.util.Optional.of("--quant " + q);
        }
      }
    }
    return java.util.Optional.empty();
  }

  private static boolean fits(Estimator estimator, Task task, Hardware hw, Layout layout) {
    try {
      return estimator.memory(task, hw, layout).fits();
    } catch (IllegalArgumentException e) {
      return false; // that change is not valid for this task; it is simply not advised
    }
  }
}
