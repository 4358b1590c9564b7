package io.github.gpusizer.core.model;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Limits of the model-file readers that hold while streaming: regular files only (a FIFO would block), sizes and
 * counts checked before anything grows, and one field never given twice, nested or dotted.
 */
class ModelFileLimitsTest {
  private static final Duration HANG = Duration.ofSeconds(20);

  @TempDir
  Path dir;

  private Path fifo(String name) throws Exception {
    Path fifo = dir.resolve(name);
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeThat(p.waitFor()).as("mkfifo available").isZero();
    return fifo;
  }

  @Test
  void a_fifo_as_config_fails_at_once_instead_of_blocking() throws Exception {
    Path fifo = fifo("config.json");
    assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> HuggingFaceConfig.read(fifo))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(fifo + ": is not a regular file (a FIFO, socket or device); give a JSON file on disk"));
  }

  @Test
  void a_fifo_as_safetensors_or_index_or_shard_fails_at_once() throws Exception {
    Path weights = fifo("model.safetensors");
    Path index = fifo("model.safetensors.index.json");
    assertTimeoutPreemptively(HANG, () -> {
      assertThatThrownBy(() -> Safetensors.read(weights)).isInstanceOf(ModelFileException.class)
          .hasMessage(weights + ": is not a regular file (a FIFO, socket or device); give a .safetensors file on disk");
      assertThatThrownBy(() -> Safetensors.read(index)).isInstanceOf(ModelFileException.class)
          .hasMessageContaining("is not a regular file");
    });
    // GIVEN a real index whose shard is a FIFO
    Path sub = Files.createDirectory(dir.resolve("sharded"));
    Path shard = sub.resolve("model-00001-of-00001.safetensors");
    Process p = new ProcessBuilder("mkfifo", shard.toString()).start();
    assumeThat(p.waitFor()).isZero();
    Path realIndex = Files.writeString(sub.resolve("model.safetensors.index.json"),
        "{\"weight_map\": {\"w\": \"model-00001-of-00001.safetensors\"}}");
    assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> Safetensors.read(realIndex))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(shard + ": is not a regular file (a FIFO, socket or device); give a .safetensors file on disk"));
  }

  @Test
  void nested_objects_with_long_names_fail_on_the_flattened_key_limit() throws Exception {
    // GIVEN 990 nested objects with 16,000-character names (flattened: gigabytes of dotted keys)
    Path file = dir.resolve("config.json");
    String name = "k".repeat(16_000);
    try (Writer w = Files.newBufferedWriter(file)) {
      w.write("{\"model_type\": \"llama\"");
      for (int i = 0; i < 990; i++) {
        w.write(", \"" + name + i + "\": {\"x\": 1");
      }
      for (int i = 0; i < 990; i++) {
        w.write("}");
      }
      w.write("}");
    }
    assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> HuggingFaceConfig.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessageContaining("has a dotted name of 16,001 characters, more than the limit of 1,000"));
  }

  @Test
  void a_config_with_too_many_fields_fails_while_reading() throws Exception {
    Path file = dir.resolve("config.json");
    try (Writer w = Files.newBufferedWriter(file)) {
      w.write("{\"model_type\": \"llama\"");
      for (int i = 0; i < 1_600_000; i++) { // 14.4 MB: within the 16 MiB limit
        w.write(",\"" + Integer.toString(i, 36) + "\":0");
      }
      w.write("}");
    }
    assertThatThrownBy(() -> HuggingFaceConfig.read(file)).isInstanceOf(ModelFileException.class)
        .hasMessageContaining("holds more than 100,000 fields");
  }

  @Test
  void a_dotted_key_beside_the_nested_object_is_a_duplicate() throws Exception {
    Path file = Files.writeString(dir.resolve("config.json"),
        "{\"model_type\": \"mpt\",\n \"attn_config\": {\"alibi\": false},\n \"attn_config.alibi\": true}");
    assertThatThrownBy(() -> HuggingFaceConfig.read(file)).isInstanceOf(ModelFileException.class)
        .hasMessage(file + ":3:2: field 'attn_config.alibi' is given twice: here and at line 2, column 27 (a dotted "
            + "name and a nested object name the same field)");
  }

  @Test
  void a_config_that_reports_size_zero_is_still_capped_while_read() throws Exception {
    // /proc files report size 0 however much they hold; /proc/self/maps of a JVM is tens of kilobytes
    Path proc = Path.of("/proc/self/maps");
    assumeThat(Files.isReadable(proc) && Files.size(proc) == 0).isTrue();
    // WHEN read with a small limit THEN the count while reading stops it
    assertThatThrownBy(() -> {
      try (var in = ModelFiles.open(proc, ModelFiles.CONFIG, 1024, "a test limit")) {
        in.readAllBytes();
      }
    }).isInstanceOf(ModelFileException.class).hasMessage(proc + ": holds more than a test limit of 1,024 bytes");
  }

  @Test
  void an_index_over_its_size_limit_is_refused_before_it_is_parsed() throws Exception {
    Path index = dir.resolve("model.safetensors.index.json");
    try (var ch = java.nio.channels.FileChannel.open(index, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {'{'}), Safetensors.MAX_INDEX_BYTES); // sparse: 64 MiB + 1
    }
    assertThatThrownBy(() -> Safetensors.read(index)).isInstanceOf(ModelFileException.class)
        .hasMessage(String.format("%s: is %,d bytes, more than an index's limit of %,d bytes", index,
            Safetensors.MAX_INDEX_BYTES + 1, Safetensors.MAX_INDEX_BYTES));
  }

  @Test
  void a_header_of_more_tensors_than_the_limit_is_refused() throws Exception {
    // GIVEN a header of zero-size tensors, one more than the limit
    StringBuilder json = new StringBuilder("{");
    for (int i = 0; i <= Safetensors.MAX_TENSORS; i++) {
      json.append(i == 0 ? "" : ",").append("\"t").append(i).append("\":{\"dtype\":\"F16\",\"shape\":[0],")
          .append("\"data_offsets\":[0,0]}");
    }
    json.append('}');
    byte[] header = json.toString().getBytes(StandardCharsets.UTF_8);
    Path file = dir.resolve("model.safetensors");
    try (OutputStream out = Files.newOutputStream(file)) {
      out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(header.length).array());
      out.write(header);
    }
    assertThatThrownBy(() -> Safetensors.read(file)).isInstanceOf(ModelFileException.class)
        .hasMessageContaining("holds more than 500,000 tensors, the limit of one file");
  }

  @Test
  void missing_file_is_still_named() throws IOException {
    Path missing = dir.resolve("nope.safetensors");
    assertThatThrownBy(() -> Safetensors.read(missing)).isInstanceOf(ModelFileException.class)
        .hasMessage(missing + ": file not found");
  }
}
