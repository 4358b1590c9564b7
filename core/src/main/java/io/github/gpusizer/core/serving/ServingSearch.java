package io.github.gpusizer.core.serving;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.ExchangeRates;
import io.github.gpusizer.core.cost.UnknownExchangeRateException;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.KvCacheBudget;
import io.github.gpusizer.core.estimate.MemoryBreakdown;
import io.github.gpusizer.core.serving.ReplicaModel.Load;
import io.github.gpusizer.core.serving.ReplicaModel.Result;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Currency;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The search: every offering × tensor-parallel degree (a power of two dividing the instance's GPUs and the model's
 * heads) × the fewest replicas, on whole instances, that meet the targets within the GPU bound. Replicas are
 * independent copies behind a load balancer, so instances need no fabric between them.
 */
final class ServingSearch {
  /** Seconds in an hour, for tokens per hour. */
  private static final BigDecimal SECONDS_PER_HOUR = BigDecimal.valueOf(3600);
  /** Tokens in the "per million tokens" of a price. */
  private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);
  /** Bisection steps for the traffic one deployment can carry (2^-30 relative). */
  private static final int RATE_STEPS = 30;

  private final ServingTask task;
  private final List<Offering> offerings;
  private final int maxGpus;
  private final Estimator estimator;
  private final ExchangeRates rates;
  private final Currency currency;
  private final Map<String, Result<ReplicaModel>> replicas = new HashMap<>();

  ServingSearch(ServingTask task, List<Offering> offerings, int maxGpus, Estimator estimator, ExchangeRates rates,
                Currency currency) {
    this.task = task;
    this.offerings = offerings;
    this.maxGpus = maxGpus;
    this.estimator = estimator;
    this.rates = rates;
    this.currency = currency;
  }

  static String label(Offering offering, int tp, int replicas) {
    return String.format(Locale.ROOT, "%d× %s (%s %s, TP %d, %d replica%s)", tp * replicas, offering.gpu().name(),
        offering.provider(), offering.instanceType(), tp, replicas, replicas == 1 ? "" : "s");
  }

  ServingRecommendation run() {
    List<ServingPlan> options = new ArrayList<>();
    List<ServingRejection> rejected = new ArrayList<>();
    for (Offering offering : offerings) {
      for (int tp = 1; tp <= offering.gpuCount(); tp *= 2) {
        if (offering.gpuCount() % tp != 0 || task.model().heads() % tp != 0) {
          continue;
        }
        Result<ServingPlan> plan = plan(offering, tp);
        if (plan.ok()) {
          options.add(plan.get());
        } else {
          rejected.add(new ServingRejection(offering, tp, plan.reason()));
        }
      }
    }
    options.sort(Comparator.comparing(ServingPlan::costPerHour).thenComparingInt(ServingPlan::gpuCount)
        .thenComparing(ServingPlan::ttftP95));
    List<ServingPlan> front = paretoFront(options);
    Optional<String> suggestion = options.isEmpty() ? Optional.of(suggestion()) : Optional.empty();
    List<ServingPlan> ranked = new ArrayList<>();
    for (int i = 0; i < options.size(); i++) {
      ranked.add(i == 0 ? withRationale(options.get(0), options) : options.get(i));
    }
    return new ServingRecommendation(task, currency, ImmutableList.copyOf(ranked), ImmutableList.copyOf(
        front.stream().map(p -> p == options.get(0) ? ranked.get(0) : p).toList()),
        ImmutableList.copyOf(rejected), suggestion);
  }

  private Result<ReplicaModel> replica(Gpu gpu, int tp) {
    return replicas.computeIfAbsent(gpu.id() + "/" + tp, k -> ReplicaModel.of(task, gpu, tp, estimator));
  }

  /** The fewest whole instances of {@code offering} at TP {@code tp} that meet the targets, or a rejection. */
  private Result<ServingPlan> plan(Offering offering, int tp) {
    Result<ReplicaModel> model = replica(offering.gpu(), tp);
    if (!model.ok()) {
      return Result.failure(model.reason() + " on " + label(offering, tp, 1));
    }
    ReplicaModel replica = model.get();
    int perInstance = offering.gpuCount() / tp;
    int maxInstances = maxGpus / offering.gpuCount();
    if (maxInstances < 1) {
      return Result.failure(String.format(Locale.ROOT, "one instance has %d GPUs, more than the bound of %d",
          offering.gpuCount(), maxGpus));
    }
    Result<Load> atMost = meets(replica, maxInstances * perInstance);
    if (!atMost.ok()) {
      return Result.failure(atMost.reason() + " on " + label(offering, tp, maxInstances * perInstance));
    }
    int low = 0;
    int high = maxInstances; // meets
    while (high - low > 1) {
      int mid = (low + high) >>> 1;
      if (meets(replica, mid * perInstance).ok()) {
        high = mid;
      } else {
        low = mid;
      }
    }
    int count = high * perInstance;
    Load load = meets(replica, count).get();
    Optional<Money> hourly = costPerHour(offering, high);
    if (hourly.isEmpty()) {
      return Result.failure("no exchange rate from " + offering.onDemandPerHour().currency() + " to " + currency);
    }
    return Result.success(toPlan(offering, tp, high, count, replica, load, hourly.get()));
  }

  /** The load on each of {@code count} replicas, when it keeps up and meets every target. */
  private Result<Load> meets(ReplicaModel replica, int count) {
    Result<Load> load = replica.at(task.traffic().requestsPerSecond() / count);
    if (!load.ok()) {
      return load;
    }
    List<String> misses = task.targets().misses(load.get().latency());
    if (!misses.isEmpty()) {
      return Result.failure(String.join(", ", misses) + " at batch " + Math.round(load.get().batch()));
    }
    return load;
  }

  private Optional<Money> costPerHour(Offering offering, int instances) {
    try {
      return Optional.of(rates.convert(offering.onDemandPerHour().times(instances), currency).amount());
    } catch (UnknownExchangeRateException e) {
      return Optional.empty();
    }
  }

  /** {@code costPerHour} over the traffic's output tokens per hour, per million. */
  static Money perMillionTokens(Money costPerHour, double outputTokensPerSecond) {
    BigDecimal millionsPerHour = BigDecimal.valueOf(outputTokensPerSecond).multiply(SECONDS_PER_HOUR)
        .divide(MILLION, MathContext.DECIMAL128);
    return Money.of(costPerHour.amount().divide(millionsPerHour, MathContext.DECIMAL64), costPerHour.currency());
  }

  private ServingPlan toPlan(Offering offering, int tp, int instances, int count, ReplicaModel replica, Load load,
                             Money hourly) {
    Latency l = load.latency();
    KvCacheBudget kv = replica.kvCache();
    MemoryBreakdown without = kv.memory();
    MemoryBreakdown memory = new MemoryBreakdown(without.weights(), without.gradients(), without.optimizer(),
        without.activations(), kv.capacity(), without.temporary(), without.overhead());
    List<String> warnings = new ArrayList<>();
    if (load.prefillShare() > 0.5) {
      warnings.add(String.format(Locale.ROOT, "prefills take %.0f%% of each replica's time: chunked prefill or "
          + "a separate prefill pool would steady TPOT", load.prefillShare() * 100));
    }
    if (tp > task.model().kvHeads()) {
      warnings.add("tensor parallelism " + tp + " exceeds the " + task.model().kvHeads()
          + " KV heads: engines replicate KV heads, so the KV cache per GPU is larger than counted");
    }
    String rationale = String.format(Locale.ROOT, "%s: TTFT p95 %s, TPOT p95 %s at batch %s per replica, %s; %s",
        label(offering, tp, count), ServingTexts.text(l.ttftP95Seconds()),
        ServingTexts.text(l.tpotP95Seconds()), ServingTexts.number(load.batch()), load.bottleneck(),
        task.framework().sentence(task.frameworkAssumed()));
    return new ServingPlan(offering, instances, tp, count, hourly,
        perMillionTokens(hourly, task.traffic().outputTokensPerSecond()),
        ServingTexts.duration(l.ttftP50Seconds()), ServingTexts.duration(l.ttftP95Seconds()),
        ServingTexts.duration(l.tpotP50Seconds()), ServingTexts.duration(l.tpotP95Seconds()), load.batch(),
        Math.max(1, replica.maxConcurrency()), replica.maxContextTokens(), memory, load.bottleneck(),
        ImmutableList.copyOf(warnings), rationale);
  }

  private static ServingPlan withRationale(ServingPlan best, List<ServingPlan> options) {
    String why = "cheapest of " + options.size() + " plan" + (options.size() == 1 ? "" : "s")
        + " that meet the targets; " + best.rationale();
    return new ServingPlan(best.offering(), best.instances(), best.tensorParallel(), best.replicas(),
        best.costPerHour(), best.costPerMillionOutputTokens(), best.ttftP50(), best.ttftP95(), best.tpotP50(),
        best.tpotP95(), best.batch(), best.maxConcurrency(), best.maxContextTokens(), best.memoryPerGpu(),
        best.bottleneck(), best.warnings(), why);
  }

  /** Options no other beats on cost, TTFT p95 and TPOT p95 at once (options are sorted cheapest first). */
  static List<ServingPlan> paretoFront(List<ServingPlan> options) {
    List<ServingPlan> front = new ArrayList<>();
    for (ServingPlan p : options) {
      boolean dominated = false;
      for (ServingPlan q : options) {
        if (q != p && dominates(q, p)) {
          dominated = true;
          break;
        }
      }
      if (!dominated) {
        front.add(p);
      }
    }
    return ImmutableList.copyOf(front);
  }

  private static boolean dominates(ServingPlan q, ServingPlan p) {
    int cost = q.costPerHour().compareTo(p.costPerHour());
    int ttft = q.ttftP95().compareTo(p.ttftP95());
    int tpot = q.tpotP95().compareTo(p.tpotP95());
    return cost <= 0 && ttft <= 0 && tpot <= 0 && (cost < 0 || ttft < 0 || tpot < 0);
  }

  /**
   * When nothing meets the targets: the traffic the best deployment within the bound carries while meeting them,
   * or, when none meets them even under light load, the lowest latencies any offering reaches.
   */
  private String suggestion() {
    double bestRate = 0;
    String bestLabel = "";
    double bestTtft = Double.MAX_VALUE;
    double bestTpot = Double.MAX_VALUE;
    String ttftWhere = "";
    String tpotWhere = "";
    for (Offering offering : offerings) {
      for (int tp = 1; tp <= offering.gpuCount(); tp *= 2) {
        if (offering.gpuCount() % tp != 0 || task.model().heads() % tp != 0) {
          continue;
        }
        Result<ReplicaModel> model = replica(offering.gpu(), tp);
        int count = (maxGpus / offering.gpuCount()) * (offering.gpuCount() / tp);
        if (!model.ok() || count < 1) {
          continue;
        }
        ReplicaModel replica = model.get();
        double light = task.traffic().requestsPerSecond() * 1e-6;
        Result<Load> idle = replica.at(light);
        if (!idle.ok()) {
          continue;
        }
        Latency floor = idle.get().latency();
        if (floor.ttftP95Seconds() < bestTtft) {
          bestTtft = floor.ttftP95Seconds();
          ttftWhere = label(offering, tp, 1);
        }
        if (floor.tpotP95Seconds() < bestTpot) {
          bestTpot = floor.tpotP95Seconds();
          tpotWhere = label(offering, tp, 1);
        }
        if (!task.targets().misses(floor).isEmpty()) {
          continue;
        }
        double carried = carried(replica, count, light);
        if (carried > bestRate) {
          bestRate = carried;
          bestLabel = label(offering, tp, count);
        }
      }
    }
    if (bestRate > 0) {
      return String.format(Locale.ROOT, "within %d GPUs the targets hold up to %s req/s (on %s), not the %s asked "
          + "for: raise the GPU bound or lower the traffic", maxGpus, ServingTexts.number(bestRate), bestLabel,
          ServingTexts.number(task.traffic().requestsPerSecond()));
    }
    if (bestTtft == Double.MAX_VALUE) {
      return "no offering can hold the model and one p95 request: quantise the weights or the KV cache, or "
          + "shorten the context";
    }
    return String.format(Locale.ROOT, "no offering meets the targets even under light load; the lowest reached "
        + "are TTFT p95 %s (%s) and TPOT p95 %s (%s): loosen the targets to these", ServingTexts.text(bestTtft),
        ttftWhere, ServingTexts.text(bestTpot), tpotWhere);
  }

  /** The largest total rate {@code count} replicas carry within the targets, by bisection. */
  private double carried(ReplicaModel replica, int count, double low) {
    double high = task.traffic().requestsPerSecond();
    for (int i = 0; i < RATE_STEPS; i++) {
      double mid = (low + high) / 2;
      Result<Load> load = replica.at(mid / count);
      if (load.ok() && task.targets().misses(load.get().latency()).isEmpty()) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
