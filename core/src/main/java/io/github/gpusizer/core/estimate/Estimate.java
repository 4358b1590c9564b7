package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;

/**
 * Everything the estimators say about one task on one hardware and layout.
 *
 * <pre>{@code
 * Estimate e = Estimator.defaults().estimate(task, Hardware.of(a100, 8, 1), Layout.dataParallel(8));
 * e.memory().fits();
 * e.performance().totalTime();
 * e.warnings().forEach(System.out::println);
 * }</pre>
 *
 * @param task the job
 * @param hardware what it runs on
 * @param layout how it is spread over the GPUs
 * @param memory memory per GPU
 * @param performance speed and bottleneck
 * @param host CPU cores, RAM and disk per node
 * @param warnings compatibility and efficiency notes, each with a code, a severity and, where one helps, a fix
 */
public record Estimate(Task task, Hardware hardware, Layout layout, MemoryEstimate memory,
                       PerformanceEstimate performance, HostSizing host, ImmutableList<Warning> warnings) {

  public Estimate {
    checkNotNull(task, "task");
    checkNotNull(hardware, "hardware");
    checkNotNull(layout, "layout");
    checkNotNull(memory, "memory");
    checkNotNull(performance, "performance");
    checkNotNull(host, "host");
    warnings = ImmutableList.copyOf(warnings);
  }
}
