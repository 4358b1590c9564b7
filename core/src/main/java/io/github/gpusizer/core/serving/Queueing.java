package io.github.gpusizer.core.serving;

/**
 * The queueing formulas the engine models use, each a textbook result.
 *
 * <ul>
 *   <li>Mean wait in an M/G/1 queue (Pollaczek–Khinchine): {@code W = λ·E[S²] / (2(1 − ρ))}; with a second,
 *       lower-priority class served without pre-emption (prefills ahead of decode steps) the high class waits
 *       {@code W = R / (1 − ρ_high)} with {@code R} the mean residual work found in service (Cobham 1954, "Priority
 *       Assignment in Waiting Line Problems"; Kleinrock 1976, "Queueing Systems" vol. 2, §3.7).
 *   <li>Percentiles of the wait: an arrival waits with probability {@code π}, and a wait, when there is one, is taken
 *       as exponential with mean {@code W / π}: {@code P(wait > t) = π·exp(−π·t / W)}, exact for M/M/1 and the
 *       heavy-traffic limit of M/G/1 (Kingman 1961, "The single server queue in heavy traffic").
 *   <li>A count of Poisson events and the number of requests in an M/G/∞ system (concurrent sequences) have
 *       variance equal to the mean; their 95th percentile is taken as {@code mean + 1.645·√mean} (the normal
 *       approximation).
 * </ul>
 */
final class Queueing {
  /** The standard normal distribution's 95th percentile, Φ⁻¹(0.95). */
  static final double Z95 = 1.6448536269514722;

  private Queueing() {}

  /** The {@code q}-quantile of a wait with mean {@code meanWait} that happens with probability {@code pWait}. */
  static double waitQuantile(double meanWait, double pWait, double q) {
    if (meanWait <= 0 || pWait <= 1 - q) {
      return 0;
    }
    return meanWait / pWait * Math.log(pWait / (1 - q));
  }

  /** 95th percentile of a Poisson count (or of an M/G/∞ occupancy) of mean {@code mean}. */
  static double poissonP95(double mean) {
    return mean + Z95 * Math.sqrt(Math.max(0, mean));
  }

  /**
   * The squared coefficient of variation of a service time whose mean and 95th percentile are given, read as a
   * normal distribution: {@code σ = (p95 − mean) / 1.645}.
   */
  static double squaredVariation(double mean, double p95) {
    double cv = Math.max(0, p95 - mean) / Z95 / mean;
    return cv * cv;
  }
}
