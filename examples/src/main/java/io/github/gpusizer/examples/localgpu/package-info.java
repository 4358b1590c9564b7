/**
 * Example: will my job fit on the GPU I have? Parses {@code nvidia-smi}'s CSV query output (nvidia-smi itself is
 * never required), matches the cards to the catalog and checks a task against their free and total memory.
 */
package io.github.gpusizer.examples.localgpu;
