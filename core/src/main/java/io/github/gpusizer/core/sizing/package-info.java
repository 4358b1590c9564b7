/**
 * The machinery behind {@link io.github.gpusizer.core.GpuSizer}: candidate generation (offering × instances ×
 * run placement × parallel layout), memory-first pruning, a per-hardware cache of layout searches, pricing,
 * ranking, the Pareto front, rejection reasons and suggestions. Not exported: its types may change at any time.
 */
package io.github.gpusizer.core.sizing;
