package io.github.gpusizer.examples.localgpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class LocalGpuCheckTest {
  private static final Catalog CATALOG = Catalog.bundled();

  private static LocalGpu gpu(String name, long totalMiB, long usedMiB) {
    return new LocalGpu(0, name, DataSize.ofMiB(totalMiB), Optional.of(DataSize.ofMiB(usedMiB)), OptionalInt.empty(),
        Optional.empty(), Optional.empty());
  }

  @Test
  void matches_nvidia_smi_names_to_catalog_gpus() throws IOException {
    assertThat(CatalogMatch.find(CATALOG, NvidiaSmi.read(NvidiaSmiTest.recorded("h200.csv")).get(0)))
        .hasValueSatisfying(g -> assertThat(g.id()).isEqualTo("h200-sxm"));
    // names as nvidia-smi prints them for these boards
    assertThat(CatalogMatch.find(CATALOG, gpu("NVIDIA A100-SXM4-80GB", 81920, 0)).orElseThrow().id())
        .isEqualTo("a100-sxm4-80gb");
    assertThat(CatalogMatch.find(CATALOG, gpu("Tesla V100-SXM2-16GB", 16160, 0)).orElseThrow().id())
        .isEqualTo("v100-sxm2-16gb");
    assertThat(CatalogMatch.find(CATALOG, gpu("NVIDIA GeForce RTX 4090", 24564, 0)).orElseThrow().id())
        .isEqualTo("rtx-4090");
    // extra words the catalog does not list: the model word and the memory decide
    assertThat(CatalogMatch.find(CATALOG, gpu("NVIDIA H100 80GB HBM3", 81559, 0)).orElseThrow().id())
        .startsWith("h100");
    assertThat(CatalogMatch.find(CATALOG, gpu("Some Unknown Card", 1000, 0))).isEmpty();
  }

  @Test
  void lora_of_llama_2_7b_fits_an_idle_h200() throws IOException {
    Task task = Task.lora(Presets.get("llama-2-7b"), 8).sequenceLength(1024).tokens(50e6).build();
    LocalGpuCheck.Result r = LocalGpuCheck.check(CATALOG, NvidiaSmi.read(NvidiaSmiTest.recorded("h200.csv")), task,
        Layout.single(), Estimator.defaults());
    assertThat(r.fitsNow()).isTrue();
    assertThat(r.free()).isEqualTo(DataSize.ofMiB(143771));
    assertThat(r.verdict()).startsWith("fits on 1 x NVIDIA H200 (h200-sxm)");
  }

  @Test
  void memory_used_by_others_can_make_it_not_fit_now() {
    Task task = Task.lora(Presets.get("llama-2-7b"), 8).tokens(50e6).build();
    // an 80 GB A100 with only 4 GiB free
    LocalGpuCheck.Result r = LocalGpuCheck.check(CATALOG, List.of(gpu("NVIDIA A100-SXM4-80GB", 81920, 77824)), task,
        Layout.single(), Estimator.defaults());
    assertThat(r.fitsWhenIdle()).isTrue();
    assertThat(r.fitsNow()).isFalse();
    assertThat(r.verdict()).contains("only when it is idle");
  }

  @Test
  void unknown_card_needs_its_catalog_name() {
    Task task = Task.pretraining(Presets.get("gpt2")).precision(PrecisionMode.FP16_MIXED).build();
    assertThatThrownBy(() -> LocalGpuCheck.check(CATALOG, List.of(gpu("Mystery GPU", 16000, 0)), task,
        Layout.single(), Estimator.defaults()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'Mystery GPU' is not in the catalog");
    LocalGpuCheck.Result named = LocalGpuCheck.check(CATALOG, List.of(gpu("Mystery GPU", 16000, 0)),
        Optional.of("t4"), task, Layout.single(), Estimator.defaults());
    assertThat(named.gpu().id()).isEqualTo("t4");
  }
}
