package io.github.gpusizer.examples.cli;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.serving.ServingRecommendation;
import io.github.gpusizer.core.serving.ServingSizer;
import io.github.gpusizer.core.serving.ServingTask;
import io.github.gpusizer.examples.support.Quantities;
import io.github.gpusizer.examples.support.Words;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gpusizer serve}: GPU, tensor-parallel degree and replicas for online inference within latency targets. */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Size online inference: the cheapest GPU x tensor-parallel degree x replicas that serve a "
        + "traffic level within time-to-first-token and time-per-output-token targets.",
        "Exits with 1 when nothing meets the targets (the message says what would)."})
final class ServeCommand implements Callable<Integer> {

  private static final Pattern LATENCY = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s)");

  @Spec
  CommandSpec spec;

  @Mixin
  CommonOptions common;

  @Option(names = "--model", paramLabel = "ID", required = true, description = "A preset model, e.g. llama-2-70b.")
  String model;

  @Option(names = "--rps", paramLabel = "R", required = true, description = "Requests per second, all replicas.")
  double rps;

  @Option(names = "--prompt", paramLabel = "N", required = true, converter = Converters.PositiveInt.class,
      description = "Mean prompt length in tokens.")
  int prompt;

  @Option(names = "--output", paramLabel = "N", required = true, converter = Converters.PositiveInt.class,
      description = "Mean output length in tokens.")
  int output;

  @Option(names = "--prompt-p95", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "95th-percentile prompt length (default: the mean).")
  Integer promptP95;

  @Option(names = "--output-p95", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "95th-percentile output length (default: the mean).")
  Integer outputP95;

  @Option(names = "--ttft", paramLabel = "TIME", description = "95th-percentile time to first token, e.g. 2s.")
  String ttft;

  @Option(names = "--tpot", paramLabel = "TIME", description = "95th-percentile time per output token, e.g. 100ms.")
  String tpot;

  @Option(names = "--framework", completionCandidates = Completions.Frameworks.class, paramLabel = "NAME",
      description = "The inference framework: vllm (default), sglang, tensorrt-llm, lmdeploy, tgi, mlc-llm (serving "
          + "engines), hf-generate, gpt-fast, deepspeed-inference, llama.cpp, exllamav2 (one request at a time).")
  String framework;

  @Option(names = "--engine", completionCandidates = Completions.Engines.class, paramLabel = "serving|eager|compiled",
      description = "Overrides the framework's execution: serving: continuous batching with a paged KV cache "
          + "(vLLM-like); eager: Hugging Face generate, one request at a time; compiled: the same with CUDA graphs.")
  String engine;

  @Option(names = {"--quantization", "--quant"}, completionCandidates = Completions.ServingQuant.class, paramLabel = "none|int8|int4|fp8|nf4", defaultValue = "none",
      description = "How the weights are stored (default ${DEFAULT-VALUE}).")
  String quantization = "none";

  @Option(names = "--kv-dtype", completionCandidates = Completions.KvTypes.class, paramLabel = "bf16|fp16|fp8|fp32", defaultValue = "bf16",
      description = "The KV cache's element type (default ${DEFAULT-VALUE}).")
  String kvDtype = "bf16";

  @Option(names = "--max-gpus", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "The most GPUs a deployment may rent (default " + ServingSizer.DEFAULT_MAX_GPUS + ").")
  Integer maxGpus;

  @Option(names = "--currency", paramLabel = "CODE", description = "Currency of the costs (default USD).")
  String currency;

  @Override
  public Integer call() {
    ServingTask.Builder builder = ServingTask.builder(Presets.get(model)).requestsPerSecond(rps)
        .promptTokens(prompt).outputTokens(output)
        .quantization(Words.SERVING_QUANT.get(quantization)).kvCache(Words.KV_TYPES.get(kvDtype));
    if (framework != null) {
      builder.framework(Words.FRAMEWORKS.get(framework));
    }
    if (engine != null) {
      builder.engine(Words.ENGINES.get(engine));
    }
    if (promptP95 != null) {
      builder.promptTokensP95(promptP95);
    }
    if (outputP95 != null) {
      builder.outputTokensP95(outputP95);
    }
    if (ttft != null) {
      builder.ttft(latency("--ttft", ttft));
    }
    if (tpot != null) {
      builder.tpot(latency("--tpot", tpot));
    }
    ServingSizer sizer = ServingSizer.forTask(builder.build()).catalog(common.catalog());
    if (maxGpus != null) {
      sizer.maxGpus(maxGpus);
    }
    if (currency != null) {
      sizer.currency(Quantities.currency("--currency", currency));
    }
    ServingRecommendation rec = sizer.recommend();
    Output.print(spec, ServeReport.render(rec, common.format, common.catalog()), common.format);
    if (!rec.feasible()) {
      throw new InfeasibleException("no plan meets the targets: " + rec.suggestion().orElse(""));
    }
    return 0;
  }

  /** {@code 100ms}, {@code 2s}, {@code 1.5s}. */
  static Duration latency(String option, String text) {
    Matcher m = LATENCY.matcher(text.strip().toLowerCase(Locale.ROOT));
    checkArgument(m.matches(), "%s must be a time such as 100ms or 2s, was '%s'", option, text);
    double value = Double.parseDouble(m.group(1));
    double nanos = value * (m.group(2).equals("ms") ? 1e6 : 1e9);
    checkArgument(nanos >= 1, "%s must be > 0, was '%s'", option, text);
    return Duration.ofNanos(Math.round(nanos));
  }

}
