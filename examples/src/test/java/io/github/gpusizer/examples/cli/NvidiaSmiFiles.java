package io.github.gpusizer.examples.cli;

import java.net.URISyntaxException;
import java.nio.file.Path;

final class NvidiaSmiFiles {
  private NvidiaSmiFiles() {}

  static String path(String name) {
    try {
      return Path.of(NvidiaSmiFiles.class.getResource("/nvidia-smi/" + name).toURI()).toString();
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }
}
