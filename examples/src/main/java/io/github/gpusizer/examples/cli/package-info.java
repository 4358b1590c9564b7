/**
 * The {@code gpusizer} command-line tool (picocli): {@code gpus}, {@code offers}, {@code estimate}, {@code recommend},
 * {@code compare}, {@code serve}, {@code check} and {@code completion}, each printing a table, JSON or CSV.
 * {@link io.github.gpusizer.examples.cli.GpuSizerCli} is the entry point and
 * {@link io.github.gpusizer.examples.cli.JsonReports} gives other programs the same JSON; the quantities and words
 * people type are parsed by {@link io.github.gpusizer.examples.support}, which the HTTP service shares.
 */
package io.github.gpusizer.examples.cli;
