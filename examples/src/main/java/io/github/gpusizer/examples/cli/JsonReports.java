package io.github.gpusizer.examples.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.Recommendation;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.serving.ServingRecommendation;
import io.github.gpusizer.core.serving.ServingTask;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.examples.support.Quantities;
import io.github.gpusizer.examples.support.Words;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

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

  /**
   * A JSON document as the CLI prints it: {@code schemaVersion}, {@code gpusizerVersion} and {@code catalogPrices}
   * (the offerings' oldest and newest price date in {@code catalog}) first, then the fields of {@code body}.
   */
  public static ObjectNode document(ObjectNode body, Catalog catalog) {
    return Json.document(body, catalog);
  }

  /** As {@code gpusizer gpus --format json}. */
  public static ArrayNode gpus(List<Gpu> gpus) {
    ArrayNode array = Json.array();
    gpus.forEach(g -> array.add(GpusReport.json(g)));
    return array;
  }

  /** As {@code gpusizer estimate --format json}. */
  public static ObjectNode estimate(Estimate estimate) {
    return Reports.estimate(estimate);
  }

  /** As {@code gpusizer serve --format json}. */
  public static ObjectNode serving(ServingRecommendation recommendation) {
    return ServeReport.report(recommendation);
  }

  /**
   * The serving task of a request whose fields are named as {@code gpusizer serve}'s options in camel case
   * ({@code model, rps, prompt, output, promptP95, outputP95, ttft, tpot, framework, engine, quantization, kvDtype}),
   * each
   * given as text; errors name the field.
   */
  public static ServingTask servingTask(Function<String, Optional<String>> field) {
    String model = field.apply("model").orElseThrow(
        () -> new IllegalArgumentException("field 'model' is required: a preset id such as llama-2-70b"));
    ServingTask.Builder b = ServingTask.builder(Presets.get(model))
        .requestsPerSecond(Quantities.number("rps", required(field, "rps")))
        .promptTokens(Quantities.integer("prompt", required(field, "prompt"), 1))
        .outputTokens(Quantities.integer("output", required(field, "output"), 1));
    field.apply("promptP95").ifPresent(v -> b.promptTokensP95(Quantities.integer("promptP95", v, 1)));
    field.apply("outputP95").ifPresent(v -> b.outputTokensP95(Quantities.integer("outputP95", v, 1)));
    field.apply("ttft").ifPresent(v -> b.ttft(ServeCommand.latency("ttft", v)));
    field.apply("tpot").ifPresent(v -> b.tpot(ServeCommand.latency("tpot", v)));
    field.apply("framework").ifPresent(v -> b.framework(Words.FRAMEWORKS.get("framework", v)));
    field.apply("engine").ifPresent(v -> b.engine(Words.ENGINES.get("engine", v)));
    b.quantization(Words.SERVING_QUANT.get("quantization", field.apply("quantization").orElse("none")));
    b.kvCache(Words.KV_TYPES.get("kvDtype", field.apply("kvDtype").orElse("bf16")));
    return b.build();
  }

  private static String required(Function<String, Optional<String>> field, String name) {
    return field.apply(name).orElseThrow(() -> new IllegalArgumentException("field '" + name + "' is required"));
  }

  /** As {@code gpusizer recommend --format json --all}. */
  public static ObjectNode recommendation(Recommendation recommendation, Task task) {
    return RecommendReport.json(recommendation, task);
  }

  /**
   * As {@code gpusizer recommend --format json --top limit}: at most {@code limit} options, Pareto-front members
   * (the fastest {@code limit - 1} and the cheapest) and rejections, with the totals.
   */
  public static ObjectNode recommendation(Recommendation recommendation, Task task, int limit) {
    return RecommendReport.json(recommendation, task, limit);
  }
}
