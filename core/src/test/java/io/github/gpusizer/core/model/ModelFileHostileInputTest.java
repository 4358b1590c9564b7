package io.github.gpusizer.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeout;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile model files: extreme dimensions, hostile lengths, deep nesting, binary and oversized files. Each fails with
 * a {@link ModelFileException} naming the file and the rule, quickly and without allocating what the file claims.
 */
class ModelFileHostileInputTest {
  @TempDir
  Path dir;

  private Path config(String json) throws IOException {
    Path file = dir.resolve("config.json");
    Files.writeString(file, json);
    return file;
  }

  private static String llama(String extra) {
    return "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
        + "\"intermediate_size\": 64, \"vocab_size\": 100" + extra + "}";
  }

  @Test
  void attention_wider_than_an_int_is_rejected_not_wrapped_to_zero() throws IOException {
    // GIVEN 65,536 heads of 65,536 dimensions: 2^32 attention width (kvDim() used to overflow to 0)
    Path file = config("{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 1, "
        + "\"num_attention_heads\": 65536, \"head_dim\": 65536, \"intermediate_size\": 64, \"vocab_size\": 64}");

    // WHEN read  THEN the rule is named
    assertThatThrownBy(() -> HuggingFaceConfig.read(file)).isInstanceOf(ModelFileException.class)
        .hasMessageStartingWith(file + ": does not describe a valid transformer: ")
        .hasMessageContaining("attention width heads × head dimension must be <= 2147483647, was 65536 × 65536");
  }

  @Test
  void default_ffn_width_that_overflows_an_int_is_named() {
    // GIVEN a hidden size of 2^30, whose default FFN size 4 × hidden is 2^32 (it used to wrap to 0)
    Transformer.Builder builder = Transformer.builder("wide").layers(1).hidden(1 << 30).heads(1).vocab(1);

    // WHEN built  THEN the message names the default and the way out, not "FFN size must be > 0, was 0"
    assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("wide: the default FFN size 4 × hidden must be <= 2147483647, was 4 × 1073741824; give the FFN "
            + "size explicitly");
  }

  @Test
  void dimensions_beyond_an_int_name_the_field_and_range() throws IOException {
    Path file = config(llama(", \"hidden_size\": 100000000000000000000000000000"));
    assertThatThrownBy(() -> HuggingFaceConfig.read(file)).isInstanceOf(ModelFileException.class)
        .hasMessageContaining("field 'hidden_size' must be an integer from 1 to 2,147,483,647, was "
            + "100000000000000000000000000000");
  }

  @Test
  void nan_infinity_and_negative_numbers_are_rejected() throws IOException {
    // JSON has no NaN: the parser stops at it, with the line and column
    Path nan = config(llama(", \"hidden_size\": NaN"));
    assertThatThrownBy(() -> HuggingFaceConfig.read(nan)).isInstanceOf(ModelFileException.class)
        .hasMessageContaining("not valid JSON").satisfies(e -> assertThat(((ModelFileException) e).line()).hasValue(1));
    Path negative = config(llama(", \"hidden_size\": -4096"));
    assertThatThrownBy(() -> HuggingFaceConfig.read(negative)).isInstanceOf(ModelFileException.class)
        .hasMessageContaining("field 'hidden_size' must be an integer from 1 to 2,147,483,647, was -4096");
    Path fraction = config(llama(", \"hidden_size\": 1e3"));
    assertThatThrownBy(() -> HuggingFaceConfig.read(fraction)).isInstanceOf(ModelFileException.class)
        .hasMessageContaining("field 'hidden_size' must be an integer");
  }

  @Test
  void deeply_nested_json_fails_cleanly_without_a_stack_overflow() throws IOException {
    // GIVEN a config with 100,000 nested objects (a recursive reader would overflow its stack)
    Path file = config("{\"model_type\": \"gpt2\", \"x\": " + "{\"a\": ".repeat(100_000) + "1"
        + "}".repeat(100_000) + "}");

    // WHEN read  THEN the limit on flattened keys (or the JSON parser's nesting limit) stops it
    assertThatThrownBy(() -> HuggingFaceConfig.read(file)).isInstanceOf(ModelFileException.class)
        .hasMessageContaining("has a dotted name of 1,001 characters, more than the limit of 1,000");
  }

  @Test
  void binary_and_oversized_files_are_not_configs() throws IOException {
    Path binary = dir.resolve("config.json");
    Files.write(binary, new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, (byte) 0xff});
    assertThatThrownBy(() -> HuggingFaceConfig.read(binary)).isInstanceOf(ModelFileException.class)
        .hasMessageStartingWith(binary.toString());

    // A sparse 17 MB file: rejected from its size, before reading
    Path big = dir.resolve("big.json");
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
      f.setLength(17L << 20);
    }
    assertThatThrownBy(() -> HuggingFaceConfig.read(big)).isInstanceOf(ModelFileException.class)
        .hasMessage(big + ": is 17,825,792 bytes, more than a configuration file's limit of 16,777,216 bytes");
  }

  @Test
  void a_2_gb_header_length_is_rejected_before_anything_is_allocated() throws IOException {
    // GIVEN a 10-byte file whose length field claims a 2 GiB header
    Path file = dir.resolve("hostile.safetensors");
    Files.write(file, ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN).putLong(1L << 31).put((byte) '{')
        .put((byte) '}').array());

    // WHEN read  THEN it fails at once, from the length field alone
    ModelFileException e = assertTimeout(Duration.ofSeconds(5),
        () -> org.assertj.core.api.Assertions.catchThrowableOfType(ModelFileException.class,
            () -> Safetensors.read(file)));
    assertThat(e).hasMessage(file + ": declares a header of 2147483648 bytes, more than the format's limit of "
        + "100,000,000 bytes");
  }

  @Test
  void deeply_nested_safetensors_header_fails_cleanly() throws IOException {
    byte[] json = ("{\"t\": {\"shape\": " + "[".repeat(5000) + "]".repeat(5000) + "}}")
        .getBytes(StandardCharsets.UTF_8);
    Path file = dir.resolve("nested.safetensors");
    Files.write(file, ByteBuffer.allocate(8 + json.length).order(ByteOrder.LITTLE_ENDIAN).putLong(json.length)
        .put(json).array());
    assertThatThrownBy(() -> Safetensors.read(file)).isInstanceOf(ModelFileException.class)
        .hasMessageContaining("shape must hold non-negative integers");
  }

  @Test
  void bytes_the_parser_takes_for_utf_32_are_bad_content_not_an_io_error() throws IOException {
    // GIVEN text starting with three zero bytes, so that the JSON parser guesses UTF-32 and meets an invalid
    // character (found by fuzzing: it escaped as UncheckedIOException "cannot read")
    byte[] bytes = {0, 0, 0, 0x1e, 'n', '_', 0x10, 's', 'i', 'z', 'e', '"', ':', ' ', '4', '5', '3', '0', '}'};
    Path json = dir.resolve("config.json");
    Files.write(json, bytes);
    assertThatThrownBy(() -> HuggingFaceConfig.read(json)).isInstanceOf(ModelFileException.class)
        .hasMessageStartingWith(json + ": not valid JSON text: Invalid UTF-32 character");

    Path tensors = dir.resolve("model.safetensors");
    Files.write(tensors, ByteBuffer.allocate(8 + bytes.length).order(ByteOrder.LITTLE_ENDIAN).putLong(bytes.length)
        .put(bytes).array());
    assertThatThrownBy(() -> Safetensors.read(tensors)).isInstanceOf(ModelFileException.class)
        .hasMessageStartingWith(tensors + ": not valid JSON text: Invalid UTF-32 character");
  }
}
