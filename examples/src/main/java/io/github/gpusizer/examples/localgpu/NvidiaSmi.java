package io.github.gpusizer.examples.localgpu;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.DataSize;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the local GPUs from {@code nvidia-smi}'s CSV query output:
 *
 * <pre>{@code
 * nvidia-smi --query-gpu=name,memory.total,memory.used,utilization.gpu,driver_version,compute_cap --format=csv
 * }</pre>
 *
 * <pre>{@code
 * List<LocalGpu> gpus = NvidiaSmi.parse(Files.readString(Path.of("smi.csv")));
 * Optional<String> live = NvidiaSmi.queryIfPresent();   // empty where nvidia-smi is not on PATH
 * }</pre>
 *
 * <p>With a header row ({@code --format=csv}) the columns are found by name, so more or reordered fields are fine;
 * without one ({@code csv,noheader}) the columns must be in the order of {@link #QUERY_FIELDS}. Memory is in MiB, as
 * nvidia-smi always reports it (with or without the {@code MiB} unit, i.e. {@code nounits}). {@code [N/A]} and
 * {@code [Not Supported]} become empty values.
 */
public final class NvidiaSmi {
  /** The fields queried, in order. {@code compute_cap} needs driver 510 or later. */
  public static final List<String> QUERY_FIELDS =
      List.of("name", "memory.total", "memory.used", "utilization.gpu", "driver_version", "compute_cap");
  /** The command line that produces what {@link #parse} reads. */
  public static final List<String> COMMAND =
      List.of("nvidia-smi", "--query-gpu=" + String.join(",", QUERY_FIELDS), "--format=csv");

  private static final Splitter COMMA = Splitter.on(',').trimResults();
  private static final Pattern HEADER_FIELD = Pattern.compile("([a-z_.]+)(?:\\s*\\[(.*)])?");
  private static final Pattern MEMORY = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(KiB|MiB|GiB)?");
  private static final Pattern PERCENT = Pattern.compile("(\\d+)\\s*%?");
  /** How long nvidia-smi may take; a hung driver otherwise hangs the caller. */
  public static final Duration TIMEOUT = Duration.ofSeconds(10);
  /** Bytes of output read at most, from the command or a recorded file: a GPU's line is under 200 bytes. */
  public static final int MAX_OUTPUT_BYTES = 1 << 20;

  private NvidiaSmi() {}

  /**
   * Parses nvidia-smi's CSV output.
   *
   * @param source where the text came from, named in error messages (a file name, or {@code nvidia-smi})
   * @throws IllegalArgumentException naming the source, the line and the field when the text is not such output
   */
  public static ImmutableList<LocalGpu> parse(String source, String csv) {
    List<String> lines = csv.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    if (lines.isEmpty()) {
      throw new IllegalArgumentException(source + ": no GPU rows; expected the output of " + String.join(" ", COMMAND));
    }
    Map<String, Integer> columns = new HashMap<>();
    int first = 0;
    if (lines.get(0).startsWith("name")) {
      List<String> header = COMMA.splitToList(lines.get(0));
      for (int i = 0; i < header.size(); i++) {
        Matcher m = HEADER_FIELD.matcher(header.get(i));
        if (!m.matches()) {
          throw new IllegalArgumentException(String.format(Locale.ROOT,
              "%s line 1: header field '%s' is not an nvidia-smi field name", source, header.get(i)));
        }
        columns.put(m.group(1), i);
      }
      first = 1;
      for (String field : List.of("name", "memory.total")) {
        if (!columns.containsKey(field)) {
          throw new IllegalArgumentException(String.format(Locale.ROOT,
              "%s line 1: header lacks the '%s' column; query at least name,memory.total (%s)", source, field,
              String.join(" ", COMMAND)));
        }
      }
    } else {
      for (int i = 0; i < QUERY_FIELDS.size(); i++) {
        columns.put(QUERY_FIELDS.get(i), i);
      }
    }
    ImmutableList.Builder<LocalGpu> gpus = ImmutableList.builder();
    for (int row = first; row < lines.size(); row++) {
      gpus.add(parseRow(source, row + 1, row - first, COMMA.splitToList(lines.get(row)), columns));
    }
    ImmutableList<LocalGpu> result = gpus.build();
    if (result.isEmpty()) {
      throw new IllegalArgumentException(source + ": header but no GPU rows (is the driver loaded?)");
    }
    return result;
  }

  private static LocalGpu parseRow(String source, int line, int index, List<String> cells,
                                   Map<String, Integer> columns) {
    int needed = columns.values().stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
    if (cells.size() != needed) {
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "%s line %d: expected %d comma-separated fields, found %d in '%s'", source, line, needed, cells.size(),
          String.join(", ", cells)));
    }
    try {
      String name = cell(cells, columns, "name").orElseThrow(() -> new IllegalArgumentException("name is missing"));
      DataSize total = cell(cells, columns, "memory.total").map(v -> memory("memory.total", v))
          .orElseThrow(() -> new IllegalArgumentException("memory.total is missing"));
      Optional<DataSize> used = cell(cells, columns, "memory.used").map(v -> memory("memory.used", v));
      OptionalInt utilization = cell(cells, columns, "utilization.gpu").map(NvidiaSmi::percent)
          .map(OptionalInt::of).orElse(OptionalInt.empty());
      Optional<String> driver = cell(cells, columns, "driver_version");
      Optional<ComputeCapability> capability = cell(cells, columns, "compute_cap").map(ComputeCapability::parse);
      return new LocalGpu(index, name, total, used, utilization, driver, capability);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "%s line %d: %s", source, line, e.getMessage()), e);
    }
  }

  private static Optional<String> cell(List<String> cells, Map<String, Integer> columns, String field) {
    Integer column = columns.get(field);
    if (column == null) {
      return Optional.empty();
    }
    String value = cells.get(column);
    if (value.isEmpty() || value.startsWith("[")) { // [N/A], [Not Supported], [Unknown Error]
      return Optional.empty();
    }
    return Optional.of(value);
  }

  private static DataSize memory(String field, String value) {
    Matcher m = MEMORY.matcher(value);
    if (!m.matches()) {
      throw new IllegalArgumentException(field + " must be a size such as '81920 MiB', was '" + value + "'");
    }
    double amount = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "MiB" : m.group(2);
    switch (unit) {
      case "KiB":
        return DataSize.ofBytes(amount * 1024);
      case "GiB":
        return DataSize.ofGiB(amount);
      default:
        return DataSize.ofMiB(amount);
    }
  }

  private static int percent(String value) {
    Matcher m = PERCENT.matcher(value);
    if (!m.matches()) {
      throw new IllegalArgumentException("utilization.gpu must be a percentage such as '37 %', was '" + value + "'");
    }
    return Integer.parseInt(m.group(1));
  }

  /**
   * Reads and parses a file holding recorded nvidia-smi output.
   *
   * @throws IllegalArgumentException naming the file if it is not a regular file (a FIFO or {@code /dev/zero}
   *     would block or never end), holds more than {@link #MAX_OUTPUT_BYTES}, or is not such output
   */
  public static ImmutableList<LocalGpu> read(Path file) throws IOException {
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      throw new IllegalArgumentException(file + (Files.isDirectory(file) ? " is a directory"
          : " is not a regular file (a FIFO, socket or device)") + "; give a file holding nvidia-smi's output");
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_OUTPUT_BYTES + 1);
    }
    if (bytes.length > MAX_OUTPUT_BYTES) {
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "%s holds more than %,d bytes, more than nvidia-smi prints for any machine", file, MAX_OUTPUT_BYTES));
    }
    return parse(file.toString(), new String(bytes, StandardCharsets.UTF_8));
  }

  /**
   * Runs {@link #COMMAND} if {@code nvidia-smi} is an executable on {@code PATH}; never needed, so every failure
   * (absent, no driver, timeout) is an empty result.
   *
   * @return the raw CSV, or empty where nvidia-smi is absent or fails
   */
  public static Optional<String> queryIfPresent() {
    return queryIfPresent(problem -> { });
  }

  /**
   * As {@link #queryIfPresent()}, telling {@code problems} why there is no output where nvidia-smi was found but
   * failed: a non-zero exit, no answer within {@link #TIMEOUT}, more than {@link #MAX_OUTPUT_BYTES} of output.
   */
  public static Optional<String> queryIfPresent(Consumer<String> problems) {
    Optional<Path> executable = findOnPath(System.getenv("PATH"));
    if (executable.isEmpty()) {
      problems.accept("nvidia-smi is not on PATH");
      return Optional.empty();
    }
    List<String> command = new ArrayList<>(COMMAND);
    command.set(0, executable.get().toString());
    return run(command, TIMEOUT, MAX_OUTPUT_BYTES, problems);
  }

  static Optional<Path> findOnPath(String path) {
    if (path == null) {
      return Optional.empty();
    }
    boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    for (String dir : Splitter.on(java.io.File.pathSeparatorChar).omitEmptyStrings().split(path)) {
      Path candidate = Path.of(dir, windows ? "nvidia-smi.exe" : "nvidia-smi");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * Runs {@code command} with its output read on another thread, so the timeout applies however the command
   * behaves (a hung one, one that floods its output, one whose children keep the pipe open): the whole process tree
   * is killed when it runs past {@code timeout} or prints more than {@code maxBytes}.
   */
  static Optional<String> run(List<String> command, Duration timeout, int maxBytes, Consumer<String> problems) {
    String name = Path.of(command.get(0)).getFileName().toString();
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().close();
    } catch (IOException e) {
      problems.accept(name + " could not be started: " + e.getMessage());
      return Optional.empty();
    }
    CompletableFuture<byte[]> output = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (InputStream in = process.getInputStream()) {
        output.complete(in.readNBytes(maxBytes + 1));
      } catch (IOException e) {
        output.completeExceptionally(e);
      }
    }, "nvidia-smi-output");
    reader.setDaemon(true);
    reader.start();
    try {
      byte[] out;
      try {
        out = output.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        problems.accept(String.format(Locale.ROOT, "%s did not finish within %s s", name, timeout.toSeconds()));
        return Optional.empty();
      } catch (ExecutionException e) {
        problems.accept(name + "'s output could not be read: " + e.getCause().getMessage());
        return Optional.empty();
      }
      if (out.length > maxBytes) {
        problems.accept(String.format(Locale.ROOT, "%s printed more than %,d bytes", name, maxBytes));
        return Optional.empty();
      }
      // The output ended; the process exits at once unless it closed its output early and hangs.
      if (!process.waitFor(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS)) {
        problems.accept(String.format(Locale.ROOT, "%s did not exit within %s s", name, timeout.toSeconds()));
        return Optional.empty();
      }
      if (process.exitValue() != 0) {
        problems.accept(name + " exited with status " + process.exitValue());
        return Optional.empty();
      }
      return Optional.of(new String(out, StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } finally {
      if (process.isAlive()) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    }
  }
}
