package io.github.gpusizer.core.serving;

import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.estimate.KvCacheBudget;
import io.github.gpusizer.core.estimate.PassTime;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.WeightQuantization;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One replica: {@code tp} GPUs of one model holding one copy of the weights, serving its share of the traffic. The
 * pass times come from the estimator's roofline ({@link Estimator#prefill}, {@link Estimator#decodeStep}), the KV
 * room from {@link Estimator#kvCacheBudget}; this class adds the engine's scheduling and the queueing.
 *
 * <p>A serving engine ({@link ExecutionMode#SERVING_ENGINE}) batches continuously and schedules prefill first
 * without chunking (vLLM's V0 scheduler; V1 chunks long prefills, which smooths TPOT): each arriving prompt runs as
 * one prefill pass between decode steps, every running sequence waits for it. With {@code ρ = λ·T_prefill} of the
 * GPU's time in prefills, decode steps get the rest; the decoding batch {@code B} follows from Little's law,
 * {@code B = λ · output · TPOT}, with {@code TPOT = T_decode(B) / (1 − ρ)} solved as a fixed point. Prompts wait as
 * the high class of a non-pre-emptive priority queue behind the pass in progress.
 *
 * <p>Eager or compiled {@code generate} ({@link ExecutionMode#EAGER}, {@link ExecutionMode#COMPILED}) answers one
 * request at a time: an M/G/1 queue whose service is the prefill plus every decode step at batch 1.
 *
 * <p>Not thread-safe (pass times are memoised); one instance serves one search.
 */
final class ReplicaModel {
  /**
   * The most sequences a serving engine batches: vLLM's {@code max_num_seqs} defaults to 256 ("Maximum number of
   * sequences per iteration", vLLM engine arguments, docs.vllm.ai).
   */
  static final int MAX_NUM_SEQS = 256;

  /** Fixed-point iterations before the batch is declared not to settle. */
  private static final int MAX_ITERATIONS = 2_000;

  /** Relative change of the batch at which the fixed point counts as reached. */
  private static final double CONVERGED = 1e-9;

  private final ServingTask serving;
  private final Gpu gpu;
  private final int tp;
  private final Estimator estimator;
  private final Task base;
  private final Hardware hardware;
  private final Layout layout;
  private final int meanContext;
  private final double prefillSeconds;
  private final double prefillP95Seconds;
  private final KvCacheBudget kv;
  private final long kvTokens;
  private final int maxConcurrency;
  private final Map<Integer, PassTime> decode = new HashMap<>();
  private final Map<Integer, PassTime> decodeP95 = new HashMap<>();

  private ReplicaModel(ServingTask serving, Gpu gpu, int tp, Estimator estimator, Task base) {
    this.serving = serving;
    this.gpu = gpu;
    this.tp = tp;
    this.estimator = estimator;
    this.base = base;
    this.hardware = Hardware.of(gpu, tp, 1);
    this.layout = new Layout(1, tp, 1, ZeroStage.NONE, tp);
    Traffic traffic = serving.traffic();
    // Mean context a decoding sequence attends over: its prompt plus half its output.
    this.meanContext = traffic.promptTokens() + (traffic.outputTokens() + 1) / 2;
    this.prefillSeconds = prefill(traffic.promptTokens());
    this.prefillP95Seconds = prefill(traffic.promptP95());
    this.kv = estimator.kvCacheBudget(task(1, traffic.promptP95()), hardware, layout, serving.kvCacheBytes());
    this.kvTokens = kv.tokens();
    this.maxConcurrency = continuous()
        ? (int) Math.min(MAX_NUM_SEQS, kvTokens / Math.max(1, meanContext)) : (kvTokens > 0 ? 1 : 0);
  }

  /**
   * The replica model of {@code tp} GPUs of {@code gpu}, or the reason the GPU cannot run the task at all.
   */
  static Result<ReplicaModel> of(ServingTask serving, Gpu gpu, int tp, Estimator estimator) {
    Optional<String> unsupported = unsupported(serving, gpu);
    if (unsupported.isPresent()) {
      return Result.failure(unsupported.get());
    }
    Task base = Task.inference(serving.model()).framework(serving.framework())
        .executionMode(serving.engine()).generatedTokens(0)
        .quantization(fp8Compute(serving, gpu) ? WeightQuantization.NONE : serving.quantization())
        .build();
    base = fp8Compute(serving, gpu)
        ? base.toBuilder().precision(PrecisionMode.FP8_MIXED).build() : base.forGpu(gpu);
    try {
      return Result.success(new ReplicaModel(serving, gpu, tp, estimator, base));
    } catch (IllegalArgumentException e) {
      return Result.failure(e.getMessage());
    }
  }

  /**
   * FP8 weights multiply in FP8 on GPUs with FP8 tensor cores (W8A8, vLLM's {@code fp8} on compute capability 8.9
   * and later); elsewhere they are widened in the kernel.
   */
  private static boolean fp8Compute(ServingTask serving, Gpu gpu) {
    return serving.quantization() == WeightQuantization.FP8 && gpu.supports(Precision.FP8);
  }

  /**
   * Weight-only FP8 runs through vLLM's FP8 Marlin kernels, which need compute capability 8.0 (Ampere) or later
   * (vLLM docs, "FP8 W8A8": "Ampere GPUs are supported for W8A16 (weight-only FP8) utilizing Marlin kernels").
   */
  private static Optional<String> unsupported(ServingTask serving, Gpu gpu) {
    if (serving.quantization() == WeightQuantization.FP8 && !gpu.supports(Precision.FP8)
        && !gpu.supports(Precision.BF16)) {
      return Optional.of("FP8 weights need an Ampere or newer GPU (FP8 Marlin kernels); " + gpu.name() + " is "
          + gpu.architecture());
    }
    return Optional.empty();
  }

  private boolean continuous() {
    return serving.engine() == ExecutionMode.SERVING_ENGINE;
  }

  private Task task(int batch, int tokens) {
    return base.toBuilder().microBatch(batch).sequenceLength(tokens).build();
  }

  private double prefill(int promptTokens) {
    return estimator.prefill(task(1, promptTokens), hardware, layout).seconds();
  }

  private PassTime decodeAt(int batch, int context, Map<Integer, PassTime> cache) {
    return cache.computeIfAbsent(batch,
        b -> estimator.decodeStep(task(b, context), hardware, layout, serving.kvCacheBytes()));
  }

  /** Decode step seconds at a mean batch, interpolated linearly between whole batches (at least batch 1). */
  double decodeSeconds(double batch) {
    double b = Math.max(1, batch);
    int low = (int) Math.floor(b);
    double lowSeconds = decodeAt(low, meanContext, decode).seconds();
    if (b == low) {
      return lowSeconds;
    }
    double highSeconds = decodeAt(low + 1, meanContext, decode).seconds();
    return lowSeconds + (b - low) * (highSeconds - lowSeconds);
  }

  Gpu gpu() {
    return gpu;
  }

  int tensorParallel() {
    return tp;
  }

  KvCacheBudget kvCache() {
    return kv;
  }

  int maxConcurrency() {
    return maxConcurrency;
  }

  /** The longest context one sequence can hold: the KV room, at most the model's own context. */
  long maxContextTokens() {
    return Math.min(kvTokens, serving.model().maxPositions());
  }

  /** The replica under {@code requestsPerSecond}: its latencies, or why it cannot keep up. */
  Result<Load> at(double requestsPerSecond) {
    Traffic traffic = serving.traffic();
    long longest = (long) traffic.promptP95() + traffic.outputP95();
    if (kvTokens < longest) {
      return Result.failure(String.format(Locale.ROOT,
          "the KV cache holds %s tokens per replica, less than one p95 request (%s tokens): weights %s per GPU",
          kvTokens, longest, kv.memory().weights()));
    }
    return continuous() ? continuousBatching(requestsPerSecond) : oneAtATime(requestsPerSecond);
  }

  private Result<Load> continuousBatching(double rate) {
    Traffic traffic = serving.traffic();
    double busyPrefill = rate * prefillSeconds;
    if (busyPrefill >= 1) {
      return Result.failure(String.format(Locale.ROOT, "prefills alone need %.0f%% of the replica's time "
          + "(%s req/s × %s each)", busyPrefill * 100, ServingTexts.number(rate),
          ServingTexts.text(prefillSeconds)));
    }
    double perStep = rate * traffic.outputTokens() / (1 - busyPrefill);
    double batch = 0;
    boolean settled = false;
    for (int i = 0; i < MAX_ITERATIONS; i++) {
      double next = perStep * decodeSeconds(batch);
      if (next > maxConcurrency) {
        batch = next;
        break;
      }
      if (Math.abs(next - batch) <= CONVERGED * next) {
        batch = next;
        settled = true;
        break;
      }
      batch = next;
    }
    double batchP95 = Queueing.poissonP95(batch);
    if (!settled || batchP95 > maxConcurrency) {
      String limit = maxConcurrency == MAX_NUM_SEQS ? "the engine's " + MAX_NUM_SEQS + "-sequence batch limit"
          : "the KV cache's " + maxConcurrency + " sequences of " + meanContext + " tokens";
      return Result.failure(String.format(Locale.ROOT, "decoding %s req/s needs more than %s concurrent sequences "
          + "(p95), beyond %s", ServingTexts.number(rate), settled ? Math.round(batchP95) : maxConcurrency, limit));
    }
    PassTime step = decodeAt((int) Math.max(1, Math.round(batch)), meanContext, decode);
    double stepSeconds = decodeSeconds(batch);
    double tpot = stepSeconds / (1 - busyPrefill);
    // Prefills that arrive while a request decodes each stall it once.
    double stalls = rate * traffic.outputTokens() * tpot;
    double tpotP95 = stepSeconds + Queueing.poissonP95(stalls) * prefillSeconds / traffic.outputTokens();
    // Prompts queue ahead of decode steps, behind the pass in progress: residual of a prefill or a decode step.
    // The GPU decodes whenever it is not prefilling and a sequence is running (P(any) = 1 − e^−B, M/G/∞).
    double decoding = (1 - busyPrefill) * (1 - Math.exp(-batch));
    double variation = Queueing.squaredVariation(prefillSeconds, prefillP95Seconds);
    double residual = rate * prefillSeconds * prefillSeconds * (1 + variation) / 2 + decoding * stepSeconds / 2;
    double meanWait = residual / (1 - busyPrefill);
    double pWait = busyPrefill + decoding;
    Latency latency = new Latency(Queueing.waitQuantile(meanWait, pWait, 0.5) + prefillSeconds,
        Queueing.waitQuantile(meanWait, pWait, 0.95) + prefillP95Seconds, tpot, tpotP95);
    return Result.success(new Load(latency, batch, batchP95, busyPrefill, bottleneck(step, busyPrefill)));
  }

  private Result<Load> oneAtATime(double rate) {
    Traffic traffic = serving.traffic();
    int contextP95 = traffic.promptP95() + (traffic.outputP95() + 1) / 2;
    double tpot = decodeSeconds(1);
    double tpotP95 = decodeAt(1, contextP95, decodeP95).seconds();
    double service = prefillSeconds + traffic.outputTokens() * tpot;
    double serviceP95 = prefillP95Seconds + traffic.outputP95() * tpotP95;
    double busy = rate * service;
    if (busy >= 1) {
      return Result.failure(String.format(Locale.ROOT, "one request at a time takes %s each, so %s req/s need "
          + "%.0f%% of the replica", ServingTexts.text(service), ServingTexts.number(rate), busy * 100));
    }
    double meanWait = rate * service * service * (1 + Queueing.squaredVariation(service, serviceP95))
        / (2 * (1 - busy));
    Latency latency = new Latency(Queueing.waitQuantile(meanWait, busy, 0.5) + prefillSeconds,
        Queueing.waitQuantile(meanWait, busy, 0.95) + prefillP95Seconds, tpot, tpotP95);
    String bottleneck = bottleneck(decodeAt(1, meanContext, decode), 0);
    return Result.success(new Load(latency, 1, 1, busy, bottleneck));
  }

  /** What sets the decode pace: the largest part of a step, or prefill when it takes most of the time. */
  private static String bottleneck(PassTime step, double busyPrefill) {
    if (busyPrefill > 0.5) {
      return "prefill compute";
    }
    double max = Math.max(Math.max(step.computeSeconds(), step.memorySeconds()),
        Math.max(step.hostSeconds(), step.communicationSeconds()));
    if (max == step.memorySeconds()) {
      return "memory bandwidth (decode)";
    }
    if (max == step.computeSeconds()) {
      return "compute (decode)";
    }
    return max == step.hostSeconds() ? "host launch overhead" : "tensor-parallel all-reduces";
  }

  /**
   * A replica under load.
   *
   * @param latency TTFT and TPOT percentiles
   * @param batch mean sequences decoding together (Little's law)
   * @param batchP95 95th-percentile concurrent sequences
   * @param prefillShare share of the replica's time spent in prefills (or busy at all, one request at a time)
   * @param bottleneck what sets the decode pace
   */
  record Load(Latency latency, double batch, double batchP95, double prefillShare, String bottleneck) {}

  /** A value or the reason there is none. */
  record Result<T>(Optional<T> value, String reason) {
    static <T> Result<T> success(T value) {
      return new Result<>(Optional.of(value), "");
    }

    static <T> Result<T> failure(String reason) {
      return new Result<>(Optional.empty(), reason);
    }

    boolean ok() {
      return value.isPresent();
    }

    T get() {
      return value.orElseThrow();
    }
  }
}
