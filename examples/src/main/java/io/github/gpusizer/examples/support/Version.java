package io.github.gpusizer.examples.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of GpuSizer these examples were built with, as the build wrote it into {@code gpusizer.properties}.
 *
 * <pre>{@code
 * String v = Version.library();   // "0.1.0-SNAPSHOT"
 * }</pre>
 */
public final class Version {
  private static final String LIBRARY = read();

  private Version() {}

  /** The library's Maven version, e.g. {@code 0.1.0-SNAPSHOT}. */
  public static String library() {
    return LIBRARY;
  }

  private static String read() {
    try (InputStream in = Version.class.getResourceAsStream("gpusizer.properties")) {
      if (in == null) {
        throw new IllegalStateException("gpusizer.properties is missing beside " + Version.class.getName());
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "");
      if (v.isBlank() || v.contains("${")) {
        throw new IllegalStateException("gpusizer.properties was not filtered by the build: version=" + v);
      }
      return v;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
