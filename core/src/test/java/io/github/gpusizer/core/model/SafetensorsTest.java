package io.github.gpusizer.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.google.common.testing.NullPointerTester;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Synthetic .safetensors files in the layout of the format's README (github.com/huggingface/safetensors). */
class SafetensorsTest {

  @TempDir Path dir;

  @Test
  void counts_elements_per_dtype_and_names_the_dominant_one() throws IOException {
    // GIVEN a BF16 matrix 4×8 (64 bytes), an F32 vector of 8 (32 bytes) and a BF16 scalar (2 bytes)
    Path file = safetensors("model.safetensors", """
        {"__metadata__": {"format": "pt"},
         "w": {"dtype": "BF16", "shape": [4, 8], "data_offsets": [0, 64]},
         "b": {"dtype": "F32", "shape": [8], "data_offsets": [64, 96]},
         "s": {"dtype": "BF16", "shape": [], "data_offsets": [96, 98]}}""", 98);
    // WHEN the header is read
    SafetensorsInfo info = Safetensors.read(file);
    // THEN every element is counted once, by dtype
    assertThat(info.parameters()).isEqualTo(32 + 8 + 1);
    assertThat(info.parametersByDtype()).containsExactly(entry("BF16", 33L), entry("F32", 8L));
    assertThat(info.dominantDtype()).isEqualTo("BF16");
    assertThat(info.headerBytes()).isEqualTo(Files.size(file) - 8 - 98);
  }

  @Test
  void empty_tensors_and_sub_byte_dtypes_are_allowed() throws IOException {
    Path file = safetensors("m.safetensors", """
        {"empty": {"dtype": "F16", "shape": [0, 5], "data_offsets": [0, 0]},
         "packed": {"dtype": "F4", "shape": [4, 4], "data_offsets": [0, 8]}}""", 8);
    SafetensorsInfo info = Safetensors.read(file);
    assertThat(info.parameters()).isEqualTo(16);
    assertThat(info.dominantDtype()).isEqualTo("F4");
  }

  @Test
  void ties_for_the_dominant_dtype_go_to_the_alphabetically_first() throws IOException {
    Path file = safetensors("m.safetensors", """
        {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
         "b": {"dtype": "BF16", "shape": [2], "data_offsets": [8, 12]}}""", 12);
    assertThat(Safetensors.read(file).dominantDtype()).isEqualTo("BF16");
  }

  @Test
  void header_longer_than_the_file_is_rejected_before_allocating() throws IOException {
    Path file = dir.resolve("short.safetensors");
    Files.write(file, prefix(1_000_000, "{}".getBytes(StandardCharsets.UTF_8)));
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(file + ": declares a header of 1,000,000 bytes but only 2 bytes follow the length field");
  }

  @Test
  void header_beyond_the_format_limit_is_rejected() throws IOException {
    Path file = dir.resolve("huge.safetensors");
    Files.write(file, prefix(100_000_001L, new byte[0]));
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(file + ": declares a header of 100000001 bytes, more than the format's limit of 100,000,000"
            + " bytes");
  }

  @Test
  void header_length_above_2_to_the_63_is_read_as_unsigned_and_rejected() throws IOException {
    Path file = dir.resolve("neg.safetensors");
    Files.write(file, prefix(-1L, new byte[0]));
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessageContaining("declares a header of 18446744073709551615 bytes");
  }

  @Test
  void file_shorter_than_the_length_field_is_rejected() throws IOException {
    Path file = dir.resolve("tiny.safetensors");
    Files.write(file, new byte[] {1, 2, 3});
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(file + ": is 3 bytes, too short for a safetensors file (8-byte header length, then the header)");
  }

  @Test
  void header_that_is_not_json_reports_line_and_column() throws IOException {
    Path file = safetensors("bad.safetensors", "{\"w\": {\"dtype\": \"F16\",, }}", 0);
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOfSatisfying(ModelFileException.class, e -> assertThat(e.column()).isPresent())
        .hasMessageStartingWith(file + ":1:")
        .hasMessageContaining("not valid JSON");
  }

  @Test
  void negative_shape_is_rejected() throws IOException {
    Path file = safetensors("m.safetensors", "{\"w\": {\"dtype\": \"F16\", \"shape\": [2, -1], "
        + "\"data_offsets\": [0, 4]}}", 4);
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessageContaining("tensor 'w': shape must hold non-negative integers that fit 64 bits, found -1");
  }

  @Test
  void shape_whose_element_count_overflows_is_rejected() throws IOException {
    Path file = safetensors("m.safetensors", "{\"w\": {\"dtype\": \"F16\", \"shape\": [4294967296, 4294967296],"
        + " \"data_offsets\": [0, 4]}}", 4);
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessageContaining("tensor 'w': shape [4294967296, 4294967296] has more elements than fit 64 bits");
  }

  @Test
  void offsets_that_disagree_with_dtype_size_times_elements_are_rejected() throws IOException {
    Path file = safetensors("m.safetensors", "{\"w\": {\"dtype\": \"F32\", \"shape\": [2, 3],"
        + " \"data_offsets\": [0, 12]}}", 12);
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessageEndingWith("tensor 'w': data_offsets [0, 12] span 12 bytes, but 6 elements of F32 take 24 bytes");
  }

  @Test
  void overlapping_tensors_are_rejected() throws IOException {
    Path file = safetensors("m.safetensors", """
        {"a": {"dtype": "U8", "shape": [4], "data_offsets": [0, 4]},
         "b": {"dtype": "U8", "shape": [4], "data_offsets": [2, 6]}}""", 6);
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessageEndingWith("tensor 'b' at bytes [2, 6) overlaps the tensor before it, which ends at 4");
  }

  @Test
  void holes_in_the_data_are_rejected() throws IOException {
    Path file = safetensors("m.safetensors", """
        {"a": {"dtype": "U8", "shape": [4], "data_offsets": [0, 4]},
         "b": {"dtype": "U8", "shape": [4], "data_offsets": [8, 12]}}""", 12);
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessageEndingWith("tensor 'b' starts at byte 8, leaving a hole after byte 4 (the format forbids holes)");
  }

  @Test
  void data_past_the_end_of_the_file_is_rejected() throws IOException {
    Path file = safetensors("m.safetensors", "{\"a\": {\"dtype\": \"U8\", \"shape\": [16], \"data_offsets\": [0, 16]}}",
        8);
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(file + ": tensors cover 16 bytes of data but 8 bytes follow the header");
  }

  @Test
  void unknown_dtype_missing_field_and_unexpected_field_are_rejected() throws IOException {
    Path unknown = safetensors("u.safetensors", "{\"a\": {\"dtype\": \"F12\", \"shape\": [1], \"data_offsets\": [0, 2]}}",
        2);
    assertThatThrownBy(() -> Safetensors.read(unknown))
        .isInstanceOf(ModelFileException.class)
        .hasMessageContaining("tensor 'a': dtype must be one of BOOL, F4,")
        .hasMessageEndingWith("was the string \"F12\"");
    Path missing = safetensors("m.safetensors", "{\"a\": {\"dtype\": \"U8\", \"data_offsets\": [0, 2]}}", 2);
    assertThatThrownBy(() -> Safetensors.read(missing))
        .isInstanceOf(ModelFileException.class)
        .hasMessageEndingWith("tensor 'a' has no shape");
    Path extra = safetensors("e.safetensors", "{\"a\": {\"dtype\": \"U8\", \"shape\": [2], \"data_offsets\": [0, 2],"
        + " \"stride\": [1]}}", 2);
    assertThatThrownBy(() -> Safetensors.read(extra))
        .isInstanceOf(ModelFileException.class)
        .hasMessageContaining("tensor 'a': unexpected field 'stride'");
  }

  @Test
  void metadata_must_map_text_to_text() throws IOException {
    Path file = safetensors("m.safetensors", "{\"__metadata__\": {\"epochs\": 3},"
        + " \"a\": {\"dtype\": \"U8\", \"shape\": [1], \"data_offsets\": [0, 1]}}", 1);
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessageEndingWith("__metadata__ maps text to text; 'epochs' is 3");
  }

  @Test
  void duplicate_tensor_names_are_rejected() throws IOException {
    Path file = safetensors("m.safetensors", """
        {"a": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1]},
         "a": {"dtype": "U8", "shape": [1], "data_offsets": [1, 2]}}""", 2);
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessageContaining("Duplicate field 'a'");
  }

  @Test
  void a_file_without_tensors_has_nothing_to_size() throws IOException {
    Path file = safetensors("m.safetensors", "{\"__metadata__\": {}}", 0);
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(file + ": holds no tensors");
  }

  @Test
  void missing_file_is_reported() {
    Path file = dir.resolve("absent.safetensors");
    assertThatThrownBy(() -> Safetensors.read(file))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(file + ": file not found");
  }

  @Test
  void sharded_index_adds_up_its_shards() throws IOException {
    // GIVEN two shards and the index that maps each tensor to its shard
    safetensors("model-00001-of-00002.safetensors",
        "{\"a\": {\"dtype\": \"BF16\", \"shape\": [3, 2], \"data_offsets\": [0, 12]}}", 12);
    safetensors("model-00002-of-00002.safetensors",
        "{\"b\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [0, 16]}}", 16);
    Path index = dir.resolve("model.safetensors.index.json");
    Files.writeString(index, """
        {"metadata": {"total_size": 28},
         "weight_map": {"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"}}""");
    // WHEN the index is read, THEN it reports both shards together
    SafetensorsInfo info = Safetensors.read(index);
    assertThat(info.parameters()).isEqualTo(10);
    assertThat(info.parametersByDtype()).containsExactly(entry("BF16", 6L), entry("F32", 4L));
    assertThat(info.dominantDtype()).isEqualTo("BF16");
  }

  @Test
  void index_naming_a_tensor_its_shard_lacks_is_rejected() throws IOException {
    safetensors("s1.safetensors", "{\"a\": {\"dtype\": \"U8\", \"shape\": [1], \"data_offsets\": [0, 1]}}", 1);
    Path index = dir.resolve("model.safetensors.index.json");
    Files.writeString(index, "{\"weight_map\": {\"a\": \"s1.safetensors\", \"z\": \"s1.safetensors\"}}");
    assertThatThrownBy(() -> Safetensors.read(index))
        .isInstanceOf(ModelFileException.class)
        .hasMessage(index + ": weight_map puts tensor 'z' in s1.safetensors, which does not hold it");
  }

  @Test
  void index_pointing_outside_its_folder_is_rejected() throws IOException {
    Path index = dir.resolve("model.safetensors.index.json");
    Files.writeString(index, "{\"weight_map\": {\"a\": \"../elsewhere.safetensors\"}}");
    assertThatThrownBy(() -> Safetensors.read(index))
        .isInstanceOf(ModelFileException.class)
        .hasMessageContaining("weight_map['a'] must name a .safetensors file in the same folder");
  }

  @Test
  void public_methods_reject_null() {
    new NullPointerTester().testAllPublicStaticMethods(Safetensors.class);
  }

  private Path safetensors(String name, String header, int dataBytes) throws IOException {
    Path file = dir.resolve(name);
    byte[] json = header.getBytes(StandardCharsets.UTF_8);
    // The reference writer pads the header with spaces to a multiple of 8 bytes.
    int padded = (json.length + 7) / 8 * 8;
    byte[] headerBytes = new byte[padded];
    java.util.Arrays.fill(headerBytes, (byte) ' ');
    System.arraycopy(json, 0, headerBytes, 0, json.length);
    byte[] prefixed = prefix(padded, headerBytes);
    byte[] all = new byte[prefixed.length + dataBytes];
    System.arraycopy(prefixed, 0, all, 0, prefixed.length);
    Files.write(file, all);
    return file;
  }

  private static byte[] prefix(long length, byte[] rest) {
    return ByteBuffer.allocate(8 + rest.length).order(ByteOrder.LITTLE_ENDIAN).putLong(length).put(rest).array();
  }
}
