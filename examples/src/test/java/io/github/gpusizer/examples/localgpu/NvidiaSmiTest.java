package io.github.gpusizer.examples.localgpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.DataSize;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NvidiaSmiTest {

  static Path recorded(String name) {
    try {
      return Path.of(NvidiaSmiTest.class.getResource("/nvidia-smi/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void parses_output_recorded_on_an_h200() throws IOException {
    // GIVEN the output nvidia-smi printed on an H200 (driver 580.159.04)
    // WHEN it is parsed
    ImmutableList<LocalGpu> gpus = NvidiaSmi.read(recorded("h200.csv"));
    // THEN every field is read with its unit
    assertThat(gpus).containsExactly(new LocalGpu(0, "NVIDIA H200", DataSize.ofMiB(143771), Optional.of(DataSize.ZERO),
        OptionalInt.of(0), Optional.of("580.159.04"), Optional.of(ComputeCapability.parse("9.0"))));
    assertThat(gpus.get(0).memoryTotal().bytes()).isEqualTo(143771L * 1024 * 1024);
  }

  @Test
  void noheader_nounits_output_reads_the_same() throws IOException {
    assertThat(NvidiaSmi.read(recorded("h200-noheader-nounits.csv"))).isEqualTo(NvidiaSmi.read(recorded("h200.csv")));
  }

  @Test
  void extra_columns_are_found_by_header_name() throws IOException {
    assertThat(NvidiaSmi.read(recorded("h200-extra-columns.csv"))).isEqualTo(NvidiaSmi.read(recorded("h200.csv")));
  }

  @Test
  void reads_several_gpus_and_free_memory() throws IOException {
    ImmutableList<LocalGpu> gpus = NvidiaSmi.read(recorded("two-a100-one-busy.csv"));
    assertThat(gpus).extracting(LocalGpu::index).containsExactly(0, 1);
    assertThat(gpus.get(0).memoryFree()).isEqualTo(DataSize.ofMiB(81920 - 40123));
    assertThat(gpus.get(0).utilizationPercent()).hasValue(97);
  }

  @Test
  void not_applicable_fields_are_empty_and_free_memory_is_all_of_it() throws IOException {
    LocalGpu gpu = NvidiaSmi.read(recorded("rtx4090-not-supported.csv")).get(0);
    assertThat(gpu.memoryUsed()).isEmpty();
    assertThat(gpu.utilizationPercent()).isEmpty();
    assertThat(gpu.memoryFree()).isEqualTo(DataSize.ofMiB(24564));
  }

  @Test
  void malformed_memory_names_file_line_and_field() {
    assertThatThrownBy(() -> NvidiaSmi.read(recorded("malformed-memory.csv")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("malformed-memory.csv line 2")
        .hasMessageContaining("memory.total must be a size such as '81920 MiB', was '16 GB'");
  }

  @Test
  void wrong_number_of_fields_is_rejected() {
    assertThatThrownBy(() -> NvidiaSmi.parse("smi", "NVIDIA H200, 143771 MiB\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("smi line 1: expected 6");
  }

  @Test
  void empty_output_is_rejected_with_the_command_to_run() {
    assertThatThrownBy(() -> NvidiaSmi.parse("smi", "\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--query-gpu=name,memory.total");
  }

  @Test
  void header_without_memory_column_is_rejected() {
    assertThatThrownBy(() -> NvidiaSmi.parse("smi", "name, driver_version\nNVIDIA H200, 580.159.04\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lacks the 'memory.total' column");
  }

  @Test
  void finds_nvidia_smi_only_as_executable_on_path(@TempDir Path dir) throws IOException {
    assertThat(NvidiaSmi.findOnPath(dir.toString())).isEmpty();
    Path tool = Files.createFile(dir.resolve("nvidia-smi"));
    assertThat(tool.toFile().setExecutable(true)).isTrue();
    assertThat(NvidiaSmi.findOnPath("/nonexistent" + java.io.File.pathSeparator + dir)).contains(tool);
    assertThat(NvidiaSmi.findOnPath(null)).isEmpty();
  }
}
