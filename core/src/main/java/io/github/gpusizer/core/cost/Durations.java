package io.github.gpusizer.core.cost;

import java.time.Duration;

/** Durations for people: {@code "20 h"}, {@code "2 h 30 min"}, {@code "45 s"}. */
final class Durations {
  private Durations() {}

  static String describe(Duration d) {
    long seconds = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
    long hours = seconds / 3600;
    long minutes = seconds % 3600 / 60;
    long rest = seconds % 60;
    if (hours > 0) {
      return minutes == 0 ? hours + " h" : hours + " h " + minutes + " min";
    }
    if (minutes > 0) {
      return rest == 0 ? minutes + " min" : minutes + " min " + rest + " s";
    }
    return rest + " s";
  }
}
