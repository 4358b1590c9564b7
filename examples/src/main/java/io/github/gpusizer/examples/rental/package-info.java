/**
 * Example: the seeds' rent-versus-rent question (a short rental of a high-end card against a long rental of a
 * mid-range one), first with seed 001's worked numbers, then with the estimator's hours for a real task.
 */
package io.github.gpusizer.examples.rental;
