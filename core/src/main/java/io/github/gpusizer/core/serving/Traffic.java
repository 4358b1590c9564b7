package io.github.gpusizer.core.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.OptionalInt;

/**
 * The load a deployment must carry: requests arriving at random (a Poisson stream) at a mean rate, with their mean
 * prompt and output lengths in tokens and, optionally, the 95th percentiles of those lengths.
 *
 * <pre>{@code
 * Traffic chat = Traffic.of(5, 1000, 200).withP95(3000, 600);
 * }</pre>
 *
 * @param requestsPerSecond mean arrival rate over the whole deployment, > 0
 * @param promptTokens mean prompt length in tokens, >= 1
 * @param outputTokens mean output length in tokens, >= 1
 * @param promptTokensP95 95th-percentile prompt length, >= the mean; empty: every prompt has the mean length
 * @param outputTokensP95 95th-percentile output length, >= the mean; empty: every output has the mean length
 */
public record Traffic(double requestsPerSecond, int promptTokens, int outputTokens, OptionalInt promptTokensP95,
                      OptionalInt outputTokensP95) {

  public Traffic {
    checkArgument(requestsPerSecond > 0 && Double.isFinite(requestsPerSecond),
        "requestsPerSecond must be > 0 and finite, was %s", requestsPerSecond);
    checkArgument(promptTokens >= 1, "promptTokens must be >= 1, was %s", promptTokens);
    checkArgument(outputTokens >= 1, "outputTokens must be >= 1, was %s", outputTokens);
    checkNotNull(promptTokensP95, "promptTokensP95");
    checkNotNull(outputTokensP95, "outputTokensP95");
    promptTokensP95.ifPresent(p -> checkArgument(p >= promptTokens,
        "promptTokensP95 must be >= the mean promptTokens %s, was %s", promptTokens, p));
    outputTokensP95.ifPresent(p -> checkArgument(p >= outputTokens,
        "outputTokensP95 must be >= the mean outputTokens %s, was %s", outputTokens, p));
  }

  /** Every request with the mean lengths. */
  public static Traffic of(double requestsPerSecond, int promptTokens, int outputTokens) {
    return new Traffic(requestsPerSecond, promptTokens, outputTokens, OptionalInt.empty(), OptionalInt.empty());
  }

  /** The same traffic with 95th-percentile prompt and output lengths. */
  public Traffic withP95(int promptTokensP95, int outputTokensP95) {
    return new Traffic(requestsPerSecond, promptTokens, outputTokens, OptionalInt.of(promptTokensP95),
        OptionalInt.of(outputTokensP95));
  }

  /** The same lengths at another rate. */
  public Traffic withRequestsPerSecond(double rate) {
    return new Traffic(rate, promptTokens, outputTokens, promptTokensP95, outputTokensP95);
  }

  /** The 95th-percentile prompt, or the mean when none is given. */
  public int promptP95() {
    return promptTokensP95.orElse(promptTokens);
  }

  /** The 95th-percentile output, or the mean when none is given. */
  public int outputP95() {
    return outputTokensP95.orElse(outputTokens);
  }

  /** Output tokens per second over the deployment: rate × mean output. */
  public double outputTokensPerSecond() {
    return requestsPerSecond * outputTokens;
  }
}
