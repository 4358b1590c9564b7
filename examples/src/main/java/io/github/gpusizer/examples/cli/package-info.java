/**
 * The {@code gpusizer} command-line tool (picocli): {@code gpus}, {@code offers}, {@code estimate}, {@code recommend}
 * and {@code check}, each printing a table, JSON or CSV. {@link io.github.gpusizer.examples.cli.GpuSizerCli} is the
 * entry point; {@link io.github.gpusizer.examples.cli.Quantities} parses the numbers, durations and money people
 * type, and {@link io.github.gpusizer.examples.cli.JsonReports} gives other programs the same JSON.
 */
package io.github.gpusizer.examples.cli;
