package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.CudaVersion;
import io.github.gpusizer.catalog.Money;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What would make an infeasible request feasible, computed from the candidates that were rejected: the shortest
 * deadline, the smallest budget, the fewest GPUs or the CUDA version that would let at least one option through,
 * each with every other constraint kept.
 *
 * <pre>{@code
 * Recommendation rec = GpuSizer.forTask(task).deadline(Duration.ofHours(2)).recommend();
 * rec.suggestion().ifPresent(s -> System.out.println(s.advice()));
 * // nothing finishes within 2 h; the fastest option takes 5.3 h (8x H100 on ...): a deadline of 5.3 h would do
 * Duration enough = rec.suggestion().orElseThrow().deadline().orElseThrow();
 * }</pre>
 *
 * @param advice the suggestion in plain language
 * @param deadline the shortest deadline that some option meets (with the budget kept), if relaxing the deadline
 *     helps
 * @param budget the smallest budget that some option meets (with the deadline kept), if raising the budget helps
 * @param gpus the fewest GPUs with which some option works, if that is beyond the caller's GPU or node limit
 * @param cuda the oldest CUDA version with which some option works, if the caller's CUDA version ruled all out
 */
public record Suggestion(
    String advice, Optional<Duration> deadline, Optional<Money> budget, OptionalInt gpus, Optional<CudaVersion> cuda) {

  public Suggestion {
    checkArgument(!checkNotNull(advice, "advice").isBlank(), "a suggestion needs advice");
    checkNotNull(deadline, "deadline");
    checkNotNull(budget, "budget");
    checkNotNull(gpus, "gpus");
    checkNotNull(cuda, "cuda");
  }

  @Override
  public String toString() {
    return advice;
  }
}
