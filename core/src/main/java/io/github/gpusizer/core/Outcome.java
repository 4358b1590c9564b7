package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;

import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.Hardware;
import java.time.Duration;
import java.util.function.Function;

/** The result of searching layouts for one run on one piece of hardware: the best fit, or why none fits. */
sealed interface Outcome permits Outcome.Fit, Outcome.Miss {

  /**
   * The fastest layout that fits: its run time, and the full estimate of one run with the task as run
   * (micro-batch, checkpointing) and its layout, worked out on first use. A search times many layouts and keeps
   * few; the host sizing and warnings of the full estimate are needed only for the options shown.
   */
  final class Fit implements Outcome {
    private final Supplier<Estimate> estimate;
    /** The estimate of the same layout on other hardware, null where it cannot be asked for. */
    private final Function<Hardware, Estimate> estimateOn;
    private final Duration runTime;
    private final Object recipe;

    Fit(Estimate estimate, Duration runTime) {
      this(Suppliers.ofInstance(checkNotNull(estimate, "estimate")), runTime, null);
    }

    /**
     * A fit whose estimate {@code estimate} works out once, on first use.
     *
     * @param recipe what the layout search chose, apart from the data-parallel degree (equal for equal recipes)
     */
    Fit(Supplier<Estimate> estimate, Duration runTime, Object recipe) {
      this(estimate, null, runTime, recipe);
    }

    /** A fit on {@code hardware} whose estimate {@code estimateOn} works out for it once, on first use. */
    Fit(Function<Hardware, Estimate> estimateOn, Hardware hardware, Duration runTime, Object recipe) {
      this(() -> estimateOn.apply(hardware), checkNotNull(estimateOn, "estimateOn"), runTime, recipe);
    }

    private Fit(Supplier<Estimate> estimate, Function<Hardware, Estimate> estimateOn, Duration runTime,
        Object recipe) {
      this.estimate = Suppliers.memoize(checkNotNull(estimate, "estimate")::get);
      this.estimateOn = estimateOn;
      this.runTime = checkNotNull(runTime, "runTime");
      this.recipe = recipe;
    }

    /**
     * This fit on other hardware whose differences do not change the run time (the host's cores, for a task
     * whose input pipeline needs none): the same run time and recipe, the estimate worked out for {@code other}.
     */
    Fit on(Hardware other) {
      checkState(estimateOn != null, "a fit without its estimator cannot move to other hardware");
      return new Fit(estimateOn, other, runTime, recipe);
    }

    /** The recipe chosen (tensor and pipeline degrees, ZeRO stage, checkpointing, micro-batch), null if unknown. */
    Object recipe() {
      return recipe;
    }

    Estimate estimate() {
      return estimate.get();
    }

    Duration runTime() {
      return runTime;
    }

    @Override
    public String toString() {
      return "Fit[runTime=" + runTime + "]";
    }
  }

  /**
   * Nothing fits. Its reason is written on first use: a search compares many misses by kind and shortfall
   * ({@link Attempt#closer}) and reports few; writing every reason (sizes and layouts formatted) was 40 % of the
   * search of a 70B pre-training on up to 16,384 GPUs.
   */
  final class Miss implements Outcome {
    private final Rejection.Kind kind;
    private final Supplier<String> reason;
    private final double shortfall;
    /** The GPU the reason names and how to name another, or null if the reason names none. */
    private final Gpu gpu;
    private final Function<Gpu, String> reasonOn;

    /**
     * @param kind {@link Rejection.Kind#MEMORY} or {@link Rejection.Kind#LAYOUT}
     * @param reason specific, plain-language reason
     * @param shortfall how far the closest attempt was from fitting (needed ÷ available memory; larger is worse)
     */
    Miss(Rejection.Kind kind, String reason, double shortfall) {
      this(kind, written(checkNotNull(reason, "reason")), shortfall);
    }

    /** A miss whose reason {@code reason} writes once, when first asked for. */
    Miss(Rejection.Kind kind, java.util.function.Supplier<String> reason, double shortfall) {
      this.kind = checkNotNull(kind, "kind");
      this.reason = Suppliers.memoize(checkNotNull(reason, "reason")::get);
      this.shortfall = shortfall;
      this.gpu = null;
      this.reasonOn = null;
    }

    /**
     * A miss on {@code gpu} whose reason {@code reasonOn} writes for it once, when first asked for; {@link #on}
     * gives the same miss on another GPU of the same memory.
     */
    Miss(Rejection.Kind kind, Gpu gpu, Function<Gpu, String> reasonOn, double shortfall) {
      this.kind = checkNotNull(kind, "kind");
      this.gpu = checkNotNull(gpu, "gpu");
      this.reasonOn = checkNotNull(reasonOn, "reasonOn");
      this.reason = Suppliers.memoize(() -> reasonOn.apply(gpu));
      this.shortfall = shortfall;
    }

    /** This miss on {@code other}: the reason names {@code other} where it names a GPU at all. */
    Miss on(Gpu other) {
      return reasonOn == null || other == gpu ? this : new Miss(kind, other, reasonOn, shortfall);
    }

    private static java.util.function.Supplier<String> written(String reason) {
      return () -> reason;
    }

    Rejection.Kind kind() {
      return kind;
    }

    String reason() {
      return reason.get();
    }

    double shortfall() {
      return shortfall;
    }

    /** Whether this miss came closer to fitting than {@code other} (null: any miss is closer). */
    boolean closerThan(Miss other) {
      return other == null || Attempt.closer(kind, shortfall, other.kind, other.shortfall);
    }

    @Override
    public String toString() {
      return "Miss[" + kind + ", " + reason() + "]";
    }
  }
}
