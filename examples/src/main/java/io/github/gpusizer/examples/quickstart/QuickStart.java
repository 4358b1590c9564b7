package io.github.gpusizer.examples.quickstart;

import io.github.gpusizer.core.GpuSizer;
import io.github.gpusizer.core.Option;
import io.github.gpusizer.core.Recommendation;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import java.util.Locale;

/**
 * Quick start: recommend hardware for LoRA fine-tuning of Llama-2-7B on 50 million tokens, finishing within 24 hours.
 *
 * <pre>{@code
 * Task task = Task.lora(Presets.get("llama-2-7b"), 8).tokens(50e6).build();
 * Recommendation rec = GpuSizer.forTask(task).deadline(Duration.ofHours(24)).recommend();
 * rec.best().ifPresent(best -> System.out.println(best.rationale()));
 * }</pre>
 *
 * <p>Run: {@code java -cp examples/target/gpusizer.jar io.github.gpusizer.examples.quickstart.QuickStart}.
 */
public final class QuickStart {
  private QuickStart() {}

  /** LoRA at rank 8 (PEFT's default) on the query and value projections, sequence 2048, 50M tokens. */
  public static Task task() {
    return Task.lora(Presets.get("llama-2-7b"), 8).tokens(50e6).build();
  }

  /** The recommendation over the bundled catalog: cheapest first, within a day. */
  public static Recommendation recommend() {
    return GpuSizer.forTask(task()).deadline(Duration.ofHours(24)).recommend();
  }

  public static void main(String[] args) {
    Recommendation rec = recommend();
    Option best = rec.bestOrThrow();
    System.out.println("Best: " + best.rationale());
    System.out.println();
    System.out.println("Top options (" + rec.optionCount() + " feasible, cheapest first):");
    rec.topOptions(5).stream().forEach(o -> System.out.printf(Locale.ROOT, "  %-10s %-24s %2d x %-16s %10s  %6.2f h%n",
        o.offering().provider(), o.offering().instanceType(), o.gpus(), o.gpu().id(), o.cost().rounded(),
        o.wallTime().toMillis() / 3_600_000.0));
    System.out.println();
    System.out.println("Rejected: " + rec.rejected().size() + " candidates, e.g. "
        + rec.rejected().stream().findFirst().map(Object::toString).orElse("none"));
  }
}
