package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import org.junit.jupiter.api.Test;

/** The KV cache's element type is set apart from the weights' (issue #11: FP8 KV beside BF16 weights). */
class KvCacheTypeTest {
  private static final Hardware A100 = Hardware.single(TestGpus.A100_SXM4_80GB);

  private static Task.Builder decoding() {
    return Task.inference(Presets.get("llama-2-7b")).sequenceLength(4096).generatedTokens(256).microBatch(16)
        .tokens(1e6).executionMode(ExecutionMode.COMPILED);
  }

  @Test
  void an_fp8_kv_cache_takes_half_the_bytes_of_a_bf16_one_and_decodes_faster() {
    Task bf16 = decoding().build();
    Task fp8 = decoding().kvCache(Precision.FP8).build();
    assertThat(bf16.kvCacheBytes()).isEqualTo(2);
    assertThat(fp8.kvCacheBytes()).isEqualTo(1);
    MemoryEstimate m16 = Estimator.defaults().memory(bf16, A100, Layout.single());
    MemoryEstimate m8 = Estimator.defaults().memory(fp8, A100, Layout.single());
    assertThat(m8.breakdown().kvCache().bytes() * 2).isEqualTo(m16.breakdown().kvCache().bytes());
    // the weights stay 16-bit: only the cache shrinks
    assertThat(m8.breakdown().weights()).isEqualTo(m16.breakdown().weights());
    double t16 = Estimator.defaults().performance(bf16, A100, Layout.single()).stepTime().toNanos() / 1e9;
    double t8 = Estimator.defaults().performance(fp8, A100, Layout.single()).stepTime().toNanos() / 1e9;
    assertThat(t8).isLessThan(t16);
  }

  @Test
  void only_the_types_a_kv_cache_is_kept_in_are_accepted() {
    assertThatThrownBy(() -> decoding().kvCache(Precision.INT8).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("KV cache type must be one of");
  }
}
