/**
 * Estimators: how much memory a {@link io.github.gpusizer.core.task.Task} needs per GPU under a
 * {@link io.github.gpusizer.core.task.Layout}, how fast it runs on given {@link Hardware}, what limits it, and which
 * host (CPU cores, RAM, disk) keeps the GPUs fed. {@link Estimator} is the entry point; the physics lives in small
 * package-private models, each formula with its source next to it.
 */
package io.github.gpusizer.core.estimate;
