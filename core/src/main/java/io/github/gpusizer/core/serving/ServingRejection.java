package io.github.gpusizer.core.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.Offering;

/**
 * An offering and tensor-parallel degree that cannot serve the traffic within the targets, and why.
 *
 * <pre>{@code
 * rec.rejected().forEach(r -> System.out.println(r.reason()));
 * // "TPOT p95 140 ms > 100 ms at batch 48 on 2× L40S (aws g6e.12xlarge, TP 2, 2 replicas)"
 * }</pre>
 *
 * @param offering the instance type
 * @param tensorParallel the tensor-parallel degree tried
 * @param reason what fails, with the numbers
 */
public record ServingRejection(Offering offering, int tensorParallel, String reason) {
  public ServingRejection {
    checkNotNull(offering, "offering");
    checkArgument(tensorParallel >= 1, "tensorParallel must be >= 1, was %s", tensorParallel);
    checkArgument(!checkNotNull(reason, "reason").isBlank(), "a rejection needs a reason");
  }
}
