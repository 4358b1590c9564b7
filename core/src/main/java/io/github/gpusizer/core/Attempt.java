package io.github.gpusizer.core;

import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.PricingMode;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * A failed attempt at a candidate, kept only if it came closer to working than the offering's other attempts: a
 * later check passed (by {@link Rejection.Kind} order) beats an earlier one, then the smaller {@code distance}
 * (memory shortfall, hours, cost) wins.
 */
record Attempt(
    Rejection.Kind kind, Supplier<String> why, double distance, OptionalInt gpus, OptionalInt instances,
    Optional<PricingMode> mode) {

  Attempt(Rejection.Kind kind, String reason, double distance, OptionalInt gpus, OptionalInt instances,
      Optional<PricingMode> mode) {
    this(kind, () -> reason, distance, gpus, instances, mode);
  }

  static Attempt of(Rejection.Kind kind, String reason) {
    return new Attempt(kind, reason, 0, OptionalInt.empty(), OptionalInt.empty(), Optional.empty());
  }

  /** Why it failed, in plain language; written when first asked for where {@code why} is a memoizing supplier. */
  String reason() {
    return why.get();
  }

  /** Whether this attempt came closer to working than {@code other} (null: any attempt is closer). */
  boolean closerThan(Attempt other) {
    return other == null || closer(kind, distance, other.kind, other.distance);
  }

  /**
   * The one rule for which of two failures came closer to working: the one that passed a later check (by
   * {@link Rejection.Kind} order), then strictly the smaller distance; on a tie the other (earlier) one stays.
   */
  static boolean closer(Rejection.Kind kind, double distance, Rejection.Kind otherKind, double otherDistance) {
    return kind != otherKind ? kind.ordinal() > otherKind.ordinal() : distance < otherDistance;
  }

  Rejection toRejection(Offering offering) {
    return new Rejection(offering, kind, reason(), gpus, instances, mode);
  }
}
