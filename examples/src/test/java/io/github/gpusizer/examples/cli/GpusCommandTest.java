package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Precision;
import java.util.List;
import org.junit.jupiter.api.Test;

class GpusCommandTest {
  private static final Catalog CATALOG = Catalog.bundled();

  @Test
  void table_lists_every_gpu_with_its_specs() {
    Cli.Run run = Cli.run("gpus");
    assertThat(run.exit()).isZero();
    assertThat(run.out()).contains("GPU", "MEMORY", "BF16", "h100-sxm", "rtx-4090");
    assertThat(run.out().lines().filter(l -> l.startsWith("h100-sxm ")).count()).isEqualTo(1);
  }

  @Test
  void json_has_the_documented_fields_with_catalog_values() {
    JsonNode document = Cli.run("gpus", "--format", "json").json();
    assertThat(document.get("schemaVersion").asInt()).isEqualTo(Json.SCHEMA_VERSION);
    assertThat(document.has("gpusizerVersion")).isTrue();
    JsonNode gpus = document.get("gpus");
    assertThat(gpus.isArray()).isTrue();
    assertThat(gpus.size()).isEqualTo(CATALOG.gpus().size());
    for (int i = 0; i < gpus.size(); i++) {
      JsonNode node = gpus.get(i);
      Gpu gpu = CATALOG.gpus().get(i);
      assertThat(node.get("id").asText()).isEqualTo(gpu.id());
      assertThat(node.get("name").asText()).isEqualTo(gpu.name());
      assertThat(node.get("aliases").size()).isEqualTo(gpu.aliases().size());
      assertThat(node.get("memoryBytes").asLong()).isEqualTo(gpu.memory().bytes());
      assertThat(node.get("memoryBandwidthGBps").asDouble()).isEqualTo(gpu.memoryBandwidthGBps());
      for (Precision p : List.of(Precision.FP32, Precision.TF32, Precision.FP16, Precision.BF16, Precision.FP8,
          Precision.INT8)) {
        JsonNode value = node.get("denseTflops").get(p.name().toLowerCase(java.util.Locale.ROOT));
        assertThat(value).as("%s %s", gpu.id(), p).isNotNull();
        if (gpu.supports(p)) {
          assertThat(value.asDouble()).isEqualTo(gpu.denseTflops(p));
        } else {
          assertThat(value.isNull()).isTrue();
        }
      }
      assertThat(node.get("computeCapability").isNull()).isEqualTo(gpu.computeCapability().isEmpty());
    }
  }

  @Test
  void csv_has_one_row_per_gpu_and_dotted_columns() {
    Cli.Run run = Cli.run("gpus", "--format", "csv");
    List<String> lines = run.out().lines().toList();
    assertThat(lines.get(0)).startsWith("id,name,aliases,").contains("denseTflops.bf16", "computeCapability");
    assertThat(lines).hasSize(CATALOG.gpus().size() + 1);
  }

  @Test
  void one_gpu_by_alias() {
    JsonNode gpus = Cli.run("gpus", "--gpu", "A100-80GB", "--format", "json").json().get("gpus");
    assertThat(gpus.size()).isEqualTo(1);
    assertThat(gpus.get(0).get("id").asText()).isEqualTo("a100-sxm4-80gb");
  }
}
