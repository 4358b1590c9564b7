package io.github.gpusizer.examples.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.Recommendation;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.task.Task;
import java.util.List;

/**
 * The CLI's JSON documents for programs that embed the library (the service example): the same fields as
 * {@code gpusizer ... --format json}.
 *
 * <pre>{@code
 * ObjectNode json = JsonReports.recommendation(GpuSizer.forTask(task).recommend(), task);
 * }</pre>
 */
public final class JsonReports {
  private JsonReports() {}

  /** As {@code gpusizer gpus --format json}. */
  public static ArrayNode gpus(List<Gpu> gpus) {
    ArrayNode array = Json.array();
    gpus.forEach(g -> array.add(GpusCommand.json(g)));
    return array;
  }

  /** As {@code gpusizer estimate --format json}. */
  public static ObjectNode estimate(Estimate estimate) {
    return Reports.estimate(estimate);
  }

  /** As {@code gpusizer recommend --format json}. */
  public static ObjectNode recommendation(Recommendation recommendation, Task task) {
    return RecommendReport.json(recommendation, task);
  }
}
