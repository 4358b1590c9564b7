package io.github.gpusizer.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Fuzz targets for the model-file readers. The contract: any bytes either read into a valid model (positive
 * parameter count, active parameters no more than all of them) or fail with a {@link ModelFileException} naming the
 * file; nothing else escapes, and a hostile length field never makes the reader allocate what it declares.
 *
 * <p>Without {@code JAZZER_FUZZ} each target runs its seed corpus ({@code ModelFileFuzzTestInputs/<method>/}) as a
 * regression test. With {@code JAZZER_FUZZ=1} one target fuzzes for its {@code maxDuration}, e.g. {@code
 * JAZZER_FUZZ=1 mvn -pl core test -Dtest=ModelFileFuzzTest#huggingFaceConfig}. libFuzzer takes its largest input
 * length from the largest seed (4 KiB without one, at most 1 MiB), so {@code huggingFaceConfig/large-label2id.json}
 * (about 300 KB) lets mutations reach sizes where the field and key limits of {@link JsonConfig} matter.
 */
class ModelFileFuzzTest {
  private static final Path DIR = tempDir();

  private static Path tempDir() {
    try {
      Path dir = Files.createTempDirectory("gpusizer-fuzz");
      dir.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path write(String name, byte[] data) {
    Path file = DIR.resolve(name);
    try {
      Files.write(file, data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    file.toFile().deleteOnExit();
    return file;
  }

  /** Bytes of a Hugging Face {@code config.json}. */
  @FuzzTest(maxDuration = "2m")
  void huggingFaceConfig(byte[] data) {
    Path file = write("config.json", data);
    Transformer model;
    try {
      model = HuggingFaceConfig.read(file);
    } catch (ModelFileException e) {
      assertThat(e.getMessage()).startsWith(file.toString());
      assertThat(e.file()).isEqualTo(file);
      return;
    }
    assertThat(model.parameters()).isPositive();
    assertThat(model.activeParameters()).isPositive().isLessThanOrEqualTo(model.parameters());
    assertThat(model.kvDim()).isPositive();
    assertThat(model.totalLayers()).isPositive();
  }

  /**
   * A safetensors header: the input is the JSON header followed by two bytes (little-endian) giving the size of the
   * data section; the target writes the 8-byte length field itself, so that mutations explore the JSON rather than
   * break the length.
   */
  @FuzzTest(maxDuration = "2m")
  void safetensorsHeader(byte[] data) {
    if (data.length < 2) {
      return;
    }
    byte[] header = Arrays.copyOf(data, data.length - 2);
    int dataBytes = (data[data.length - 2] & 0xff) | (data[data.length - 1] & 0xff) << 8;
    byte[] file = ByteBuffer.allocate(8 + header.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN)
        .putLong(header.length).put(header).array();
    readsOrFailsCleanly(write("model.safetensors", file));
  }

  /** A whole {@code .safetensors} file, length field included (hostile lengths, truncation). */
  @FuzzTest(maxDuration = "2m")
  void safetensorsFile(byte[] data) {
    readsOrFailsCleanly(write("model.safetensors", data));
  }

  private static void readsOrFailsCleanly(Path file) {
    SafetensorsInfo info;
    try {
      info = Safetensors.read(file);
    } catch (ModelFileException e) {
      assertThat(e.getMessage()).startsWith(file.toString());
      return;
    }
    long size;
    try {
      size = Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // The header and the tensors it declares fit in the file; 4-bit dtypes are the densest (2 elements a byte).
    assertThat(info.headerBytes()).isLessThanOrEqualTo(size - 8);
    assertThat(info.parameters()).isNotNegative().isLessThanOrEqualTo(2 * (size - 8 - info.headerBytes()));
    assertThat(info.parametersByDtype().values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(info.parameters());
  }
}
