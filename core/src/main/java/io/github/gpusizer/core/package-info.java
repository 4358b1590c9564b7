/**
 * The entry point: {@link io.github.gpusizer.core.GpuSizer#forTask} hands back the fluent
 * {@link io.github.gpusizer.core.Sizer}, which turns a task, a catalog and constraints into a
 * {@link io.github.gpusizer.core.Recommendation} of ranked {@link io.github.gpusizer.core.Option options}, each
 * with its layout, memory, time, cost, host sizing, warnings and rationale, plus every rejected offering with its
 * reason and, when nothing works, a {@link io.github.gpusizer.core.Suggestion}.
 *
 * <p>The engine behind the builder (candidate generation, memory-first pruning, the per-shape screen, pricing,
 * ranking, the Pareto front, rejection reasons and suggestions: {@code SizingEngine}, {@code Pass},
 * {@code Screen}, {@code LayoutSearch} and their helpers) is package-private here, so the public types of this
 * package are exactly the builder and its results.
 */
package io.github.gpusizer.core;
