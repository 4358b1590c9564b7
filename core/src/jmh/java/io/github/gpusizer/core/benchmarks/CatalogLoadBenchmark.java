package io.github.gpusizer.core.benchmarks;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.core.testing.SyntheticCatalogs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link Catalog#load} of a SkyPilot {@code vms.csv} of {@code rows} data rows, written once per trial into a temp
 * folder named {@code aws} (the default options take the provider from it). Sampled, so JMH reports the median.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CatalogLoadBenchmark {
  @Param({"100000"})
  int rows;

  private Path folder;
  private Path file;

  @Setup(Level.Trial)
  public void writeCsv() throws IOException {
    folder = Files.createTempDirectory("gpusizer-bench");
    Path provider = Files.createDirectory(folder.resolve("aws"));
    file = provider.resolve("vms.csv");
    Files.writeString(file, SyntheticCatalogs.skyPilotCsv(rows, SyntheticCatalogs.SEED), StandardCharsets.UTF_8);
    Catalog.bundled(); // loaded once per JVM in real use; not part of what is measured
  }

  @TearDown(Level.Trial)
  public void deleteCsv() throws IOException {
    Files.deleteIfExists(file);
    Files.deleteIfExists(file.getParent());
    Files.deleteIfExists(folder);
  }

  @Benchmark
  public Catalog loadSkyPilotCsv() {
    return Catalog.load(file);
  }
}
