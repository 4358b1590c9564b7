package io.github.gpusizer.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import org.junit.jupiter.api.Test;

/** Image models: arithmetic and activations scale with the image area, parameters do not. */
class ConvNetProperties {

  @Test
  void forward_flops_and_activations_scale_with_resolution_squared() {
    ConvNet resnet = (ConvNet) Presets.get("resnet50");
    qt().forAll(integers().between(1, 2048), integers().between(1, 2048)).checkAssert((a, b) -> {
      double ratio = (double) b / a;
      assertThat(resnet.forwardFlops(b) / resnet.forwardFlops(a)).isCloseTo(ratio * ratio, within(1e-9 * ratio));
      assertThat(resnet.activationElements(b) / resnet.activationElements(a))
          .isCloseTo(ratio * ratio, within(1e-9 * ratio));
    });
  }

  @Test
  void walking_a_resnet_at_twice_the_side_quadruples_its_convolutions() {
    // Sides that are multiples of 32 halve exactly through all five strides, so every convolution sees 4× the
    // positions; only the final fully connected layer (2048 × 1000 MACs) stays the same.
    qt().forAll(integers().between(1, 12)).checkAssert(k -> {
      int side = 32 * k;
      LayerCalculator small = Architectures.resnet(true, new int[] {3, 4, 6, 3}, side);
      LayerCalculator large = Architectures.resnet(true, new int[] {3, 4, 6, 3}, 2 * side);
      long fc = 2048L * 1000;
      assertThat(large.macs() - fc).isEqualTo(4 * (small.macs() - fc));
      assertThat(large.parameters()).isEqualTo(small.parameters());
    });
  }

  @Test
  void rejects_non_positive_image_sizes() {
    ConvNet resnet = (ConvNet) Presets.get("resnet18");
    qt().forAll(integers().between(Integer.MIN_VALUE, 0)).checkAssert(side ->
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> resnet.forwardFlops(side))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("resnet18: image size must be > 0 px, was " + side));
  }
}
