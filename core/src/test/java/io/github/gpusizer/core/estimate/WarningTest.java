package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import org.junit.jupiter.api.Test;

/** Warnings carry a stable code, a severity and a fix in each interface's terms. */
class WarningTest {
  private static final Task DECODE = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).generatedTokens(200)
      .build();

  @Test
  void rejects_a_code_that_is_not_lower_case_hyphenated_words() {
    assertThatIllegalArgumentException().isThrownBy(() -> Warning.of("Cuda_Version", Warning.Severity.INFO, "x"))
        .withMessage("warning code must be lower-case words joined by hyphens, was 'Cuda_Version'");
  }

  @Test
  void the_fix_is_given_in_the_terms_of_the_interface() {
    Warning w = Warning.of("cuda-version", Warning.Severity.WARNING, "needs CUDA 11.8", "give --cuda VERSION",
        "give cudaVersion(\"12.1\")");
    assertThat(w.text(Warning.Surface.CLI)).isEqualTo("needs CUDA 11.8; give --cuda VERSION");
    assertThat(w.text(Warning.Surface.API)).isEqualTo("needs CUDA 11.8; give cudaVersion(\"12.1\")");
    assertThat(w).hasToString(w.text(Warning.Surface.API));
  }

  @Test
  void an_eager_launch_bound_estimate_warning_reads_back_with_its_code_and_both_fixes() {
    // GIVEN eager decoding on an A100, launch-bound
    Estimate e = Estimator.defaults().estimate(DECODE, Hardware.single(TestGpus.A100_SXM4_80GB), Layout.single());
    // WHEN its texts are read back
    Warning eager = e.warnings().stream().filter(w -> w.code().equals("eager-launch-bound"))
        .findFirst().orElseThrow();
    // THEN the message holds no interface's terms; the CLI fix names the flag, the API fix the method
    assertThat(eager.severity()).isEqualTo(Warning.Severity.WARNING);
    assertThat(eager.message()).contains("eager PyTorch").doesNotContain("ExecutionMode").doesNotContain("--engine");
    assertThat(eager.text(Warning.Surface.CLI)).contains("--engine compiled");
    assertThat(eager.text(Warning.Surface.API)).contains("executionMode(ExecutionMode.COMPILED)");
  }

  @Test
  void every_estimate_warning_has_a_code_of_its_own() {
    Task fp32 = Task.pretraining(TestModels.RESNET50).precision(PrecisionMode.FP32).build();
    Estimate e = Estimator.defaults().estimate(fp32, Hardware.of(TestGpus.RTX_4090, 2, 1), Layout.dataParallel(2));
    assertThat(e.warnings()).isNotEmpty();
    assertThat(e.warnings()).map(Warning::code).doesNotContain("estimate");
  }

  @Test
  void a_tpu_is_never_told_about_eager_pytorch() {
    // GIVEN eager decoding on a TPU v4, where the estimate charges host time per layer
    Gpu tpu = Catalog.bundled().gpu("tpu-v4");
    Task decode = DECODE.toBuilder().precision(PrecisionMode.BF16_PURE).executionMode(ExecutionMode.EAGER).build();
    Estimate e = Estimator.defaults().estimate(decode, Hardware.single(tpu), Layout.single());
    // THEN no warning names eager PyTorch or CUDA graphs; the fix is still to size it compiled
    assertThat(e.warnings())
        .map(Warning::toString).noneMatch(w -> w.contains("eager PyTorch") || w.contains("CUDA graphs"));
    assertThat(e.warnings()).filteredOn(w -> w.code().equals("eager-model-on-tpu")).hasSize(1)
        .allSatisfy(w -> assertThat(w.text(Warning.Surface.CLI)).contains("--engine compiled"));
  }

  @Test
  void tpus_are_not_told_about_pcie_without_nvlink() {
    Gpu tpu = Catalog.bundled().gpu("tpu-v4");
    Task lora = Task.lora(TestModels.LLAMA2_7B, 8).microBatch(1).sequenceLength(512).build();
    Estimate e = Estimator.defaults().estimate(lora, Hardware.of(tpu, 4, 1), Layout.dataParallel(4));
    assertThat(e.warnings()).map(Warning::toString).noneMatch(w -> w.contains("NVLink") || w.contains("PCIe"));
  }
}
