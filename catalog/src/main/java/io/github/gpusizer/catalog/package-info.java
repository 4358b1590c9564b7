/**
 * GPUs, the instances clouds rent them in, and their prices. Everything here is an immutable value; a
 * {@link io.github.gpusizer.catalog.Catalog} is loaded once, strictly, from the bundled data or a user's files,
 * and may be shared by any number of threads.
 */
package io.github.gpusizer.catalog;
