package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrecisionTest {

  @Test
  void tensor_formats_start_with_their_architectures() {
    assertThat(Precision.FP16.minComputeCapability()).contains(ComputeCapability.parse("7.0"));
    assertThat(Precision.BF16.minComputeCapability()).contains(ComputeCapability.parse("8.0"));
    assertThat(Precision.TF32.minComputeCapability()).contains(ComputeCapability.parse("8.0"));
    assertThat(Precision.FP8.minComputeCapability()).contains(ComputeCapability.parse("8.9"));
    assertThat(Precision.FP32.minComputeCapability()).isEmpty();
  }

  @Test
  void bf16_on_a_v100_names_the_needed_capability_and_the_gpus_that_have_it() {
    assertThat(Precision.BF16.unsupportedReason("Tesla V100", ComputeCapability.parse("7.0")))
        .hasValueSatisfying(reason -> assertThat(reason)
            .startsWith("BF16 needs compute capability 8.0 (Ampere and later: A100")
            .endsWith("the Tesla V100 has 7.0"));
  }

  @Test
  void fp8_on_an_a100_is_refused_and_on_an_h100_allowed() {
    assertThat(Precision.FP8.unsupportedReason("A100", ComputeCapability.parse("8.0"))).get().asString()
        .contains("FP8 needs compute capability 8.9");
    assertThat(Precision.FP8.unsupportedReason("H100", ComputeCapability.parse("9.0"))).isEmpty();
    assertThat(Precision.FP32.unsupportedReason("K80", ComputeCapability.parse("3.7"))).isEmpty();
  }
}
