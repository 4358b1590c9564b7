/**
 * What a job costs: {@link io.github.gpusizer.core.cost.CostModel} turns an offering, a number of instances and a
 * wall time into billed time and {@link io.github.gpusizer.catalog.Money} (on-demand, spot with interruptions,
 * monthly or yearly subscriptions, storage), weighs buying against renting, and ranks GPUs by throughput per unit
 * of money. {@link io.github.gpusizer.core.cost.RentalComparison} answers "is a short rental of a fast card cheaper
 * than a long rental of a slow one?"; {@link io.github.gpusizer.core.cost.ExchangeRates} converts between
 * currencies explicitly, and every converted amount says so.
 */
package io.github.gpusizer.core.cost;
