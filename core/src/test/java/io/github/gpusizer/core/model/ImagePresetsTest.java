package io.github.gpusizer.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Image-model presets walked from their layer lists. Parameter counts are pinned exactly to torchvision's weight
 * metadata ("num_params" in github.com/pytorch/vision torchvision/models/*.py) and forward MACs to within 2% of its
 * "_ops" (the "GFLOPS" column of the torchvision model docs, which counts multiply-accumulates: PR #6936).
 */
class ImagePresetsTest {

  @ParameterizedTest(name = "{0}: {1} parameters, {2} GMACs at 224x224")
  @CsvSource(delimiter = '|', textBlock = """
      resnet18        | 11689512  | 1.814
      resnet34        | 21797672  | 3.664
      resnet50        | 25557032  | 4.089
      resnet101       | 44549160  | 7.801
      resnet152       | 60192808  | 11.514
      vgg16           | 138357544 | 15.47
      mobilenet-v2    | 3504872   | 0.301
      efficientnet-b0 | 5288548   | 0.386
      convnext-tiny   | 28589128  | 4.456
      vit-b-16        | 86567656  | 17.564
      vit-l-16        | 304326632 | 61.555
      """)
  void layer_walk_reproduces_torchvision_parameters_exactly_and_macs_within_two_percent(
      String id, long parameters, double gmacs) {
    // GIVEN the preset walked layer by layer at 224x224
    ConvNet net = (ConvNet) Presets.get(id);
    // THEN the parameters are torchvision's exactly, and forward FLOPs are 2 × its MACs within 2%
    assertThat(net.parameters()).isEqualTo(parameters);
    assertThat(net.referenceResolution()).isEqualTo(224);
    assertThat(net.forwardFlops(224) / 2e9 / gmacs).isCloseTo(1.0, within(0.02));
  }

  @ParameterizedTest(name = "{0}: {1} parameters, {2} GFLOPs at 640x640")
  @CsvSource(delimiter = '|', textBlock = """
      yolov8s | 11166560 | 28.6
      yolov8m | 25902640 | 78.9
      """)
  void yolov8_walk_reproduces_the_ultralytics_summary_exactly_and_gflops_within_one_percent(
      String id, long parameters, double gflops) {
    // GIVEN the detector walked from yolov8.yaml at its training resolution
    ConvNet net = (ConvNet) Presets.get(id);
    // THEN the parameters are the yaml's model summary exactly (BatchNorm scales and shifts and the DFL's 16 fixed
    // weights included), and forward FLOPs are the docs' fused figure within 1%
    assertThat(net.parameters()).isEqualTo(parameters);
    assertThat(net.referenceResolution()).isEqualTo(640);
    assertThat(net.forwardFlops(640) / 1e9 / gflops).isCloseTo(1.0, within(0.01));
  }

  @ParameterizedTest(name = "{0}: {1} parameters")
  @CsvSource(delimiter = '|', textBlock = """
      fasterrcnn-resnet50-fpn | 41755286
      retinanet-resnet50-fpn  | 34014999
      """)
  void detection_walks_reproduce_torchvisions_parameter_counts_exactly(String id, long parameters) {
    // GIVEN the detector walked from torchvision's layers at min_size 800
    ConvNet net = (ConvNet) Presets.get(id);
    // THEN the parameters are torchvision's num_params exactly (FrozenBatchNorm2d has none; heads shared by the
    // pyramid levels count once)
    assertThat(net.parameters()).isEqualTo(parameters);
    assertThat(net.referenceResolution()).isEqualTo(800);
  }

  @Test
  void detection_walks_reproduce_torchvisions_multiply_accumulates_at_800_pixels() {
    // GIVEN torchvision's _ops (GMACs at min_size 800, inference: Faster R-CNN's box head on 1,000 proposals)
    double faster = Architectures.fasterRcnnResnet50Fpn(800, Architectures.FASTER_RCNN_INFERENCE_ROIS).macs() / 1e9;
    double retina = ((ConvNet) Presets.get("retinanet-resnet50-fpn")).forwardFlops(800) / 2e9;
    // THEN the walks land on them within 0.1%
    assertThat(faster / 134.38).isCloseTo(1.0, within(0.001));
    assertThat(retina / 151.54).isCloseTo(1.0, within(0.001));
    // AND the preset, sized for training, runs the box head on the 512 regions a training image samples: 488 fewer
    // regions of 12544 x 1024 + 1024 x 1024 + 1024 x 455 MACs each
    double preset = ((ConvNet) Presets.get("fasterrcnn-resnet50-fpn")).forwardFlops(800) / 2e9;
    assertThat((faster - preset) * 1e9).isCloseTo(488.0 * (12544 * 1024 + 1024 * 1024 + 1024 * 455), within(1e3));
  }

  @Test
  void resnet50_forward_pass_is_8_2_gflops_per_image() {
    // 4.089 GMACs (torchvision) = 8.18 GFLOPs
    assertThat(Presets.get("resnet50")).isInstanceOfSatisfying(ConvNet.class,
        net -> assertThat(net.forwardFlops(224) / 1e9).isCloseTo(8.18, within(0.02)));
  }

  @Test
  void resnet18_keeps_what_autograd_saves_two_tensors_per_conv_bn_relu() {
    // GIVEN ResNet-18 at 224 as torchvision writes it (in-place ReLU, out += identity). Autograd keeps each
    // convolution's output (batch norm saves its input) and each ReLU's output (ReLU's gradient reads its result);
    // the batch-norm output is overwritten by the ReLU, and a shortcut's batch-norm output is read only by the add.
    // Stem: conv and ReLU 2 × 64×112×112, max-pool 64×56×56; per basic block conv, ReLU, conv, ReLU; a downsampling
    // shortcut adds its convolution's output; avgpool 512, fc 1000.
    long stem = 2L * 64 * 112 * 112 + 64L * 56 * 56;
    long stage1 = 2 * 4L * 64 * 56 * 56;
    long stage2 = 2 * 4L * 128 * 28 * 28 + 128L * 28 * 28;
    long stage3 = 2 * 4L * 256 * 14 * 14 + 256L * 14 * 14;
    long stage4 = 2 * 4L * 512 * 7 * 7 + 512L * 7 * 7;
    long head = 512 + 1000;
    ConvNet net = (ConvNet) Presets.get("resnet18");
    assertThat(net.activationElementsAtReference()).isEqualTo(stem + stage1 + stage2 + stage3 + stage4 + head);
  }

  @Test
  void resnet50_keeps_21_million_activation_elements_per_image_as_counted_by_hand() {
    // The hand count of the calibration tests (every convolution's and ReLU's output, the max-pool output and the
    // classifier input: 21.1 M at 224 px, 11.82 GB allocated measured at batch 256 on an H200 with AMP) less the
    // image, plus the classifier's 1000 logits.
    ConvNet net = (ConvNet) Presets.get("resnet50");
    assertThat(net.activationElementsAtReference() / 1e6).isCloseTo(21.0, within(0.2));
  }

  @Test
  void efficientnet_keeps_its_batch_norm_outputs_because_silu_reads_its_input() {
    // SiLU's gradient needs its input, so conv -> BN -> SiLU keeps three tensors; ReLU networks keep two.
    LayerCalculator silu = new LayerCalculator(8, 16).conv(8, 3, 1, false).norm().act();
    LayerCalculator relu = new LayerCalculator(8, 16).conv(8, 3, 1, false).norm().relu();
    assertThat(silu.activations()).isEqualTo(3L * 8 * 16 * 16);
    assertThat(relu.activations()).isEqualTo(2L * 8 * 16 * 16);
  }

  @Test
  void stable_diffusion_unet_has_its_published_parameter_count() {
    // diffusers UNet2DConditionModel of runwayml/stable-diffusion-v1-5: 859,520,964 parameters (onnx-tool's
    // model-zoo table, github.com/ThanatosShinji/onnx-tool README: "UNet2DCondition | 859.52" M parameters)
    ConvNet unet = (ConvNet) Presets.get("stable-diffusion-unet");
    assertThat(unet.parameters()).isEqualTo(859_520_964L);
    assertThat(unet.referenceResolution()).isEqualTo(512);
  }

  @Test
  void stable_diffusion_unet_step_is_within_ten_percent_of_onnx_tools_count() {
    // onnx-tool profiles the SD 1.4 ONNX UNet (same architecture) at 888,870 MMACs for a batch of 2 latents of
    // 64×64 (classifier-free guidance), i.e. 444.4 GMACs per sample, including the MACs of norms, softmax and
    // element-wise ops that this model does not count; the layer walk gives 401.6 GMACs of convolutions and
    // matrix products, 9.6% less.
    ConvNet unet = (ConvNet) Presets.get("stable-diffusion-unet");
    double gmacs = unet.forwardFlops(512) / 2e9;
    assertThat(gmacs).isCloseTo(401.64, within(0.01));
    assertThat(gmacs / 444.435).isBetween(0.90, 1.0);
  }

  @Test
  void vit_b_16_counts_patch_embedding_class_token_and_position_embeddings() {
    // conv_proj 768×3×16×16 + 768, class token 768, 197 × 768 positions, 12 layers of 12h² + 13h, final LN, head
    long h = 768;
    long expected = h * 3 * 16 * 16 + h + h + 197 * h + 12 * (12 * h * h + 13 * h) + 2 * h + h * 1000 + 1000;
    assertThat(Presets.get("vit-b-16").parameters()).isEqualTo(expected);
  }
}
