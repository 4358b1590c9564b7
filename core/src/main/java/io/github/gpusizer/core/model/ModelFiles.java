package io.github.gpusizer.core.model;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opening a model file safely: only an existing regular file (never a FIFO, a device or a directory, which would
 * block or never end), and never more than a stated number of bytes, counted while reading, so that the limit also
 * holds for a file that reports size 0 ({@code /proc}) or grows while read.
 */
final class ModelFiles {
  static final String CONFIG = "a JSON file";

  private ModelFiles() {}

  /**
   * Checks that {@code file} is a regular file (links followed) of at most {@code maxBytes} as the file system
   * reports it.
   *
   * @param what what the file should be, for the message ("a JSON file", "a .safetensors file")
   * @throws ModelFileException if it is missing, a directory, not a regular file, or larger than the limit
   */
  static void checkRegular(Path file, String what, long maxBytes, String limitName) throws IOException {
    if (!Files.exists(file)) {
      throw new ModelFileException(file, "file not found");
    }
    if (Files.isDirectory(file)) {
      throw new ModelFileException(file, "is a directory, not " + what
          + (what.equals(CONFIG) ? " (give the config.json inside it)" : ""));
    }
    if (!Files.isRegularFile(file)) {
      throw new ModelFileException(file, "is not a regular file (a FIFO, socket or device); give " + what
          + " on disk");
    }
    long size = Files.size(file);
    if (size > maxBytes) {
      throw new ModelFileException(file, tooLarge(size, maxBytes, limitName));
    }
  }

  static String tooLarge(long size, long maxBytes, String limitName) {
    return String.format("is %,d bytes, more than %s of %,d bytes", size, limitName, maxBytes);
  }

  /**
   * Opens {@code file} after {@link #checkRegular}; the stream fails with a {@link ModelFileException} as soon as
   * more than {@code maxBytes} are read.
   */
  static InputStream open(Path file, String what, long maxBytes, String limitName) throws IOException {
    checkRegular(file, what, maxBytes, limitName);
    return new Bounded(Files.newInputStream(file), file, maxBytes, limitName);
  }

  private static final class Bounded extends FilterInputStream {
    private final Path file;
    private final long max;
    private final String limitName;
    private long read;

    Bounded(InputStream in, Path file, long max, String limitName) {
      super(in);
      this.file = file;
      this.max = max;
      this.limitName = limitName;
    }

    private void count(long n) {
      if (n > 0) {
        read += n;
        if (read > max) {
          throw new ModelFileException(file, String.format("holds more than %s of %,d bytes", limitName, max));
        }
      }
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      count(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      count(n);
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long s = super.skip(n);
      count(s);
      return s;
    }
  }
}
