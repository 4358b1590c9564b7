package io.github.gpusizer.core.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Stack;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Framework;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.WeightQuantization;
import java.time.Duration;

/**
 * An online-inference deployment to size: a decoder model, its traffic, its latency targets and how it is served.
 *
 * <pre>{@code
 * ServingTask task = ServingTask.builder(Presets.get("llama-2-70b"))
 *     .requestsPerSecond(5).promptTokens(1000).outputTokens(200)
 *     .ttft(Duration.ofSeconds(2)).tpot(Duration.ofMillis(100))
 *     .quantization(WeightQuantization.FP8).kvCache(Precision.FP8)
 *     .build();
 * }</pre>
 *
 * @param model a transformer that decodes (decoder-only or encoder-decoder)
 * @param traffic the load
 * @param targets the latency targets
 * @param engine {@link ExecutionMode#SERVING_ENGINE}: continuous batching over a paged KV cache with CUDA graphs
 *     (vLLM, TensorRT-LLM, TGI); {@link ExecutionMode#EAGER}: Hugging Face {@code generate} answering one request at
 *     a time per replica; {@link ExecutionMode#COMPILED}: the same with compiled kernels (gpt-fast)
 * @param quantization how the weights are stored; {@link WeightQuantization#FP8} also multiplies in FP8 where the
 *     GPU can
 * @param kvCache the KV cache's element type: FP16 or BF16 (2 bytes), FP8 (1 byte) or FP32 (4 bytes)
 * @param framework the inference framework ({@link Framework#VLLM} when none is given); it sets the engine unless the
 *     engine is given, and its kernels (quantised formats) are the replicas'
 * @param frameworkAssumed whether the framework was left open
 */
public record ServingTask(Transformer model, Traffic traffic, LatencyTargets targets, ExecutionMode engine,
                          WeightQuantization quantization, Precision kvCache, Framework framework,
                          boolean frameworkAssumed) {

  /** The framework a serving task assumes when none is given. */
  public static final Framework DEFAULT_FRAMEWORK = Framework.VLLM;

  /** The KV-cache element types a serving engine stores. */
  static final ImmutableSet<Precision> KV_CACHE_TYPES = Task.KV_CACHE_TYPES;

  public ServingTask {
    checkNotNull(model, "model");
    checkArgument(model.stack() != Stack.ENCODER,
        "model must decode to be served token by token; %s is encoder-only", model.name());
    checkNotNull(traffic, "traffic");
    checkNotNull(targets, "targets");
    checkNotNull(engine, "engine");
    checkArgument(engine != ExecutionMode.TENSORFLOW_GRAPH,
        "engine must be a serving engine or PyTorch generate (eager or compiled); replicas of a %s are not modelled",
        engine.label());
    checkNotNull(quantization, "quantization");
    checkNotNull(kvCache, "kvCache");
    checkArgument(KV_CACHE_TYPES.contains(kvCache), "kvCache must be one of %s, was %s", KV_CACHE_TYPES, kvCache);
    checkNotNull(framework, "framework");
    checkArgument(framework.use() == Framework.Use.INFERENCE,
        "framework must be an inference framework to serve (%s), was %s", Framework.INFERENCE_IDS, framework.id());
    long context = (long) traffic.promptP95() + traffic.outputP95();
    checkArgument(context <= model.maxPositions(),
        "prompt + output (p95: %s + %s = %s tokens) must fit the context of %s (%s tokens)", traffic.promptP95(),
        traffic.outputP95(), context, model.name(), model.maxPositions());
  }

  /** Bytes of one KV-cache element. */
  int kvCacheBytes() {
    return Task.kvCacheBytes(kvCache);
  }

  /**
   * Starts a task for {@code model}; traffic (rate, prompt and output lengths) must be given, the rest defaults to
   * no latency targets, a serving engine, unquantised weights and a BF16 KV cache.
   *
   * @throws IllegalArgumentException if the model is not a transformer
   */
  public static Builder builder(ModelSpec model) {
    checkNotNull(model, "model");
    checkArgument(model instanceof Transformer, "model must be a transformer to be served token by token; %s is %s",
        model.name(), model.getClass().getSimpleName());
    return new Builder((Transformer) model);
  }

  /**
   * A builder whose setters check their argument at once; a setting given twice is a mistake
   * ({@link IllegalStateException} with the earlier value). {@link #build()} checks the rules that join settings
   * and leaves the builder unchanged.
   */
  public static final class Builder {
    private final Transformer model;
    private Double requestsPerSecond;
    private Integer promptTokens;
    private Integer outputTokens;
    private Integer promptTokensP95;
    private Integer outputTokensP95;
    private final LatencyTargets.Builder targets = LatencyTargets.builder();
    private ExecutionMode engine;
    private Framework framework;
    private WeightQuantization quantization;
    private Precision kvCache;

    private Builder(Transformer model) {
      this.model = model;
    }

    private static void once(String field, Object earlier) {
      checkState(earlier == null, "%s was already set to %s", field, earlier);
    }

    private static int tokens(String field, int value, Object earlier) {
      once(field, earlier);
      checkArgument(value >= 1, "%s must be >= 1 token, was %s", field, value);
      return value;
    }

    /** Mean arrival rate over the deployment. */
    public Builder requestsPerSecond(double v) {
      once("requestsPerSecond", requestsPerSecond);
      checkArgument(v > 0 && Double.isFinite(v), "requestsPerSecond must be > 0 and finite, was %s", v);
      requestsPerSecond = v;
      return this;
    }

    /** Mean prompt length. */
    public Builder promptTokens(int v) {
      promptTokens = tokens("promptTokens", v, promptTokens);
      return this;
    }

    /** Mean output length. */
    public Builder outputTokens(int v) {
      outputTokens = tokens("outputTokens", v, outputTokens);
      return this;
    }

    /** 95th-percentile prompt length (>= the mean). */
    public Builder promptTokensP95(int v) {
      promptTokensP95 = tokens("promptTokensP95", v, promptTokensP95);
      return this;
    }

    /** 95th-percentile output length (>= the mean). */
    public Builder outputTokensP95(int v) {
      outputTokensP95 = tokens("outputTokensP95", v, outputTokensP95);
      return this;
    }

    /** The 95th-percentile time to first token. */
    public Builder ttft(Duration v) {
      targets.ttftP95(v);
      return this;
    }

    /** The 95th-percentile time per output token. */
    public Builder tpot(Duration v) {
      targets.tpotP95(v);
      return this;
    }

    /** The median time to first token. */
    public Builder ttftP50(Duration v) {
      targets.ttftP50(v);
      return this;
    }

    /** The median time per output token. */
    public Builder tpotP50(Duration v) {
      targets.tpotP50(v);
      return this;
    }

    /** The median TPOT at most {@code 1 / tokensPerSecond}. */
    public Builder minTokensPerSecondPerUser(double tokensPerSecond) {
      targets.minTokensPerSecondPerUser(tokensPerSecond);
      return this;
    }

    /** How the replicas serve: a serving engine (default), eager or compiled {@code generate}. */
    public Builder engine(ExecutionMode v) {
      once("engine", engine);
      engine = checkNotNull(v, "engine");
      return this;
    }

    /**
     * The inference framework (default {@link ServingTask#DEFAULT_FRAMEWORK}): its execution mode is the engine unless
     * {@link #engine} is given.
     */
    public Builder framework(Framework v) {
      once("framework", framework);
      framework = checkNotNull(v, "framework");
      return this;
    }

    /** How the weights are stored (default unquantised, at the compute precision). */
    public Builder quantization(WeightQuantization v) {
      once("quantization", quantization);
      quantization = checkNotNull(v, "quantization");
      return this;
    }

    /** The KV cache's element type (default BF16). */
    public Builder kvCache(Precision v) {
      once("kvCache", kvCache);
      checkNotNull(v, "kvCache");
      checkArgument(KV_CACHE_TYPES.contains(v), "kvCache must be one of %s, was %s", KV_CACHE_TYPES, v);
      kvCache = v;
      return this;
    }

    /**
     * Builds the task.
     *
     * @throws IllegalStateException if the rate, the prompt or the output length is missing
     * @throws IllegalArgumentException if a percentile is below its mean or the p95 context exceeds the model's
     */
    public ServingTask build() {
      checkState(requestsPerSecond != null, "requestsPerSecond is required");
      checkState(promptTokens != null, "promptTokens is required");
      checkState(outputTokens != null, "outputTokens is required");
      Traffic traffic = Traffic.of(requestsPerSecond, promptTokens, outputTokens);
      if (promptTokensP95 != null || outputTokensP95 != null) {
        traffic = traffic.withP95(promptTokensP95 != null ? promptTokensP95 : promptTokens,
            outputTokensP95 != null ? outputTokensP95 : outputTokens);
      }
      // an engine given without a framework names the stack it stands for: eager generate, gpt-fast, vLLM
      Framework stack = framework != null ? framework
          : engine == ExecutionMode.EAGER ? Framework.HF_GENERATE
          : engine == ExecutionMode.COMPILED ? Framework.GPT_FAST : DEFAULT_FRAMEWORK;
      return new ServingTask(model, traffic, targets.build(),
          engine != null ? engine : stack.profile().executionMode(),
          quantization != null ? quantization : WeightQuantization.NONE,
          kvCache != null ? kvCache : Precision.BF16, stack, framework == null);
    }
  }
}
