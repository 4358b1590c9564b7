package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkNotNull;

import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * A model file ({@code config.json}, {@code .safetensors}) that cannot be read as a model: missing, not JSON, of an
 * unsupported kind, or with a field that is absent, of the wrong type or out of range. The message names the file,
 * the place (line and column where known) and the rule broken.
 *
 * <pre>{@code
 * try {
 *   HuggingFaceConfig.read(Path.of("config.json"));
 * } catch (ModelFileException e) {
 *   System.err.println(e.getMessage()); // config.json:3:18: field 'hidden_size' must be an integer, was "4096"
 * }
 * }</pre>
 */
public final class ModelFileException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final int line;
  private final int column;

  ModelFileException(Path file, int line, int column, String problem, Throwable cause) {
    super(place(file, line, column) + ": " + problem, cause);
    this.file = checkNotNull(file, "file");
    this.line = line;
    this.column = column;
  }

  ModelFileException(Path file, String problem) {
    this(file, 0, 0, problem, null);
  }

  ModelFileException(Path file, String problem, Throwable cause) {
    this(file, 0, 0, problem, cause);
  }

  private static String place(Path file, int line, int column) {
    return line > 0 ? file + ":" + line + ":" + column : String.valueOf(file);
  }

  /** The file that failed. */
  public Path file() {
    return file;
  }

  /**
   * The 1-based line of the problem, if it is tied to one; for a {@code .safetensors} file the line and column count
   * within its JSON header.
   */
  public OptionalInt line() {
    return line > 0 ? OptionalInt.of(line) : OptionalInt.empty();
  }

  /** The 1-based column of the problem, if it is tied to a line. */
  public OptionalInt column() {
    return line > 0 ? OptionalInt.of(column) : OptionalInt.empty();
  }
}
