package io.github.gpusizer.core.model;

import io.github.gpusizer.core.model.LayerCalculator.Shape;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.IntUnaryOperator;

/**
 * The layer lists of the image models among the presets, walked by a {@link LayerCalculator}. Each method follows
 * the reference implementation named in its comment layer for layer, so parameter counts come out exactly as
 * {@code sum(p.numel() for p in model.parameters())} there.
 */
final class Architectures {
  private Architectures() {}

  /** ImageNet classes of every torchvision classifier head. */
  private static final int IMAGENET_CLASSES = 1000;

  /** Input side at which torchvision publishes its FLOPs (the "GFLOPS" column of its model docs). */
  static final int IMAGENET_SIDE = 224;

  /**
   * torchvision {@code resnet.py} (ResNet v1.5: the stride sits in the 3×3 convolution of a bottleneck). He et al.
   * 2016, "Deep Residual Learning for Image Recognition", table 1.
   *
   * @param bottleneck bottleneck blocks (1×1, 3×3, 1×1; expansion 4) for ResNet-50 and deeper, else basic blocks
   * @param blocks blocks per stage
   */
  static LayerCalculator resnet(boolean bottleneck, int[] blocks, int side) {
    LayerCalculator c = new LayerCalculator(3, side);
    c.conv(64, 7, 2, false).norm().relu().maxPool(3, 2, 1);
    int expansion = bottleneck ? 4 : 1;
    for (int stage = 0; stage < blocks.length; stage++) {
      int planes = 64 << stage;
      for (int b = 0; b < blocks[stage]; b++) {
        int stride = stage > 0 && b == 0 ? 2 : 1;
        Shape in = c.shape();
        if (bottleneck) {
          c.conv(planes, 1, 1, false).norm().relu()
              .conv(planes, 3, stride, false).norm().relu()
              .conv(planes * expansion, 1, 1, false).norm();
        } else {
          c.conv(planes, 3, stride, false).norm().relu()
              .conv(planes, 3, 1, false).norm();
        }
        Shape out = c.shape();
        if (stride != 1 || in.channels() != planes * expansion) {
          c.at(in).conv(planes * expansion, 1, stride, false).norm().addInto(out); // downsample shortcut
        }
        c.at(out).relu(); // relu(out + identity), in place
      }
    }
    return c.avgPool(1).flatten().linear(IMAGENET_CLASSES, true);
  }

  /** Input side at which torchvision's detection models publish their FLOPs ({@code min_size = 800}). */
  static final int DETECTION_SIDE = 800;
  /** COCO categories as torchvision's detection heads count them (91 ids, background included). */
  private static final int TORCHVISION_COCO_CLASSES = 91;
  /** FPN output channels ({@code FeaturePyramidNetwork(..., out_channels=256)}). */
  private static final int FPN_CHANNELS = 256;
  /** Anchors per position: 3 aspect ratios in Faster R-CNN's RPN, 3 ratios × 3 scales in RetinaNet. */
  private static final int RPN_ANCHORS = 3;
  private static final int RETINANET_ANCHORS = 9;
  /**
   * Regions of interest the box head of Faster R-CNN runs on per image in training
   * ({@code box_batch_size_per_image = 512}); inference runs it on the 1,000 proposals that survive NMS.
   */
  static final int FASTER_RCNN_TRAINING_ROIS = 512;
  /** Proposals Faster R-CNN keeps after NMS at inference ({@code rpn_post_nms_top_n_test = 1000}). */
  static final int FASTER_RCNN_INFERENCE_ROIS = 1000;

  /**
   * The ResNet-50 body of torchvision's detection models ({@code resnet_fpn_backbone}): {@link #resnet}'s layers
   * without the classifier, with {@code FrozenBatchNorm2d} (no parameters), returning the outputs of the four
   * stages (C2 to C5 at strides 4 to 32).
   */
  private static Shape[] resnet50Body(LayerCalculator c) {
    c.conv(64, 7, 2, false).frozenNorm().relu().maxPool(3, 2, 1);
    int[] blocks = {3, 4, 6, 3};
    Shape[] stages = new Shape[blocks.length];
    for (int stage = 0; stage < blocks.length; stage++) {
      int planes = 64 << stage;
      for (int b = 0; b < blocks[stage]; b++) {
        int stride = stage > 0 && b == 0 ? 2 : 1;
        Shape in = c.shape();
        c.conv(planes, 1, 1, false).frozenNorm().relu()
            .conv(planes, 3, stride, false).frozenNorm().relu()
            .conv(planes * 4, 1, 1, false).frozenNorm();
        Shape out = c.shape();
        if (b == 0) {
          c.at(in).conv(planes * 4, 1, stride, false).frozenNorm().addInto(out);
        }
        c.at(out).relu();
      }
      stages[stage] = c.shape();
    }
    return stages;
  }

  /**
   * torchvision {@code ops/feature_pyramid_network.py} over the given stage outputs: a 1×1 lateral convolution per
   * stage, the top-down sum of each with the upsampled level above, a 3×3 output convolution per level (all with
   * biases). Returns the outputs from the finest level up.
   */
  private static Shape[] fpn(LayerCalculator c, Shape[] stages) {
    Shape[] inner = new Shape[stages.length];
    Shape[] out = new Shape[stages.length];
    for (int i = stages.length - 1; i >= 0; i--) {
      inner[i] = c.at(stages[i]).conv(FPN_CHANNELS, 1, 1, true).shape();
      if (i < stages.length - 1) {
        c.at(inner[i + 1]).upsample(2).addInto(inner[i]);
      }
    }
    for (int i = 0; i < stages.length; i++) {
      out[i] = c.at(inner[i]).conv(FPN_CHANNELS, 3, 1, true).shape();
    }
    return out;
  }

  /**
   * torchvision {@code fasterrcnn_resnet50_fpn} (v1; Ren et al. 2015, arXiv:1506.01497; Lin et al. 2017,
   * arXiv:1612.03144), one image of {@code side × side}: the ResNet-50 body, an FPN over C2 to C5 plus a max-pooled
   * P6 ({@code LastLevelMaxPool}), the RPN head (a 3×3 convolution, objectness and box deltas for 3 anchors, shared by
   * the five levels), and the box head on {@code rois} regions per image: {@code MultiScaleRoIAlign} to
   * 7×7, {@code TwoMLPHead} (two 1024-wide layers) and {@code FastRCNNPredictor} (91 scores, 91 × 4 box deltas).
   * Proposal generation, NMS and the losses are not matrix work and are not counted.
   */
  static LayerCalculator fasterRcnnResnet50Fpn(int side, int rois) {
    LayerCalculator c = new LayerCalculator(3, side);
    Shape[] levels = fpn(c, resnet50Body(c));
    Shape p6 = c.at(levels[levels.length - 1]).maxPool(1, 2, 0).shape();
    Shape[] all = {levels[0], levels[1], levels[2], levels[3], p6};
    for (int i = 0; i < all.length; i++) {
      Shape level = all[i];
      c.at(level).sharedHead(i == 0, h -> {
        Shape t = h.conv(FPN_CHANNELS, 3, 1, true).relu().shape();
        h.conv(RPN_ANCHORS, 1, 1, true);
        return h.at(t).conv(4 * RPN_ANCHORS, 1, 1, true);
      });
    }
    // One sample's regions as a sequence of ROI_ALIGN × ROI_ALIGN × 256 features, one per region.
    int pooled = 7 * 7 * FPN_CHANNELS;
    c.at(new Shape(pooled, 1, rois)).linear(1024, true).relu().linear(1024, true).relu();
    Shape features = c.shape();
    c.linear(TORCHVISION_COCO_CLASSES, true);
    return c.at(features).linear(4 * TORCHVISION_COCO_CLASSES, true);
  }

  /**
   * torchvision {@code retinanet_resnet50_fpn} (v1; Lin et al. 2017, "Focal Loss for Dense Object Detection",
   * arXiv:1708.02002), one image of {@code side × side}: the ResNet-50 body, an FPN over C3 to C5 with P6 and P7
   * from stride-2 3×3 convolutions of P5 ({@code LastLevelP6P7(256, 256)}), and the classification and regression
   * subnets shared by the five levels: four 3×3 convolutions with ReLU each, then 9 × 91 class logits and 9 × 4 box
   * deltas from a 3×3 convolution.
   */
  static LayerCalculator retinaNetResnet50Fpn(int side) {
    LayerCalculator c = new LayerCalculator(3, side);
    Shape[] stages = resnet50Body(c);
    Shape[] levels = fpn(c, new Shape[] {stages[1], stages[2], stages[3]});
    Shape p6 = c.at(levels[2]).conv(FPN_CHANNELS, 3, 2, true).shape();
    Shape p7 = c.relu().conv(FPN_CHANNELS, 3, 2, true).shape();
    Shape[] all = {levels[0], levels[1], levels[2], p6, p7};
    for (int i = 0; i < all.length; i++) {
      boolean first = i == 0;
      c.at(all[i]).sharedHead(first, h -> subnet(h).conv(RETINANET_ANCHORS * TORCHVISION_COCO_CLASSES, 3, 1, true));
      c.at(all[i]).sharedHead(first, h -> subnet(h).conv(RETINANET_ANCHORS * 4, 3, 1, true));
    }
    return c;
  }

  /** RetinaNet's subnet body: four 3×3 convolutions of 256 channels with biases, each followed by ReLU. */
  private static LayerCalculator subnet(LayerCalculator c) {
    for (int i = 0; i < 4; i++) {
      c.conv(FPN_CHANNELS, 3, 1, true).relu();
    }
    return c;
  }

  /** Side of an Atari observation after the standard preprocessing (grey scale, 84 × 84; Mnih et al. 2015). */
  static final int ATARI_SIDE = 84;
  /** Frames stacked into one Atari observation ({@code FrameStack(4)}). */
  private static final int ATARI_FRAMES = 4;

  /**
   * The Nature DQN network as CleanRL's PPO uses it for Atari ({@code cleanrl/ppo_atari.py}, {@code Agent}): three
   * convolutions without padding (32 of 8×8 stride 4, 64 of 4×4 stride 2, 64 of 3×3 stride 1, each with ReLU) over 4
   * stacked 84×84 frames, a 512-wide layer, and the actor (one logit per action) and critic (one value) heads
   * (Mnih et al. 2015, Nature 518:529, "Methods").
   */
  static LayerCalculator natureCnn(int actions, int side) {
    LayerCalculator c = new LayerCalculator(ATARI_FRAMES, side);
    c.conv(32, 8, 4, 0, 1, true).relu().conv(64, 4, 2, 0, 1, true).relu().conv(64, 3, 1, 0, 1, true).relu()
        .flatten().linear(512, true).relu();
    Shape features = c.shape();
    c.linear(actions, true);
    return c.at(features).linear(1, true);
  }

  /**
   * torchvision {@code vgg.py}, configuration "D" without batch norm. Simonyan &amp; Zisserman 2015, table 1.
   */
  static LayerCalculator vgg16(int side) {
    int[][] stages = {{64, 64}, {128, 128}, {256, 256, 256}, {512, 512, 512}, {512, 512, 512}};
    LayerCalculator c = new LayerCalculator(3, side);
    for (int[] stage : stages) {
      for (int width : stage) {
        c.conv(width, 3, 1, true).relu();
      }
      c.maxPool(2, 2, 0);
    }
    c.avgPool(7).flatten();
    c.linear(4096, true).relu().linear(4096, true).relu();
    return c.linear(IMAGENET_CLASSES, true);
  }

  /**
   * torchvision {@code mobilenetv2.py}, width 1.0: the inverted-residual settings (t, c, n, s) of Sandler et al.
   * 2018, "MobileNetV2: Inverted Residuals and Linear Bottlenecks", table 2.
   */
  static LayerCalculator mobileNetV2(int side) {
    int[][] settings = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2},
        {6, 320, 1, 1}};
    LayerCalculator c = new LayerCalculator(3, side);
    c.conv(32, 3, 2, false).norm().relu();
    for (int[] s : settings) {
      for (int i = 0; i < s[2]; i++) {
        int in = c.shape().channels();
        int hidden = in * s[0];
        if (s[0] != 1) {
          c.conv(hidden, 1, 1, false).norm().relu();
        }
        c.depthwise(3, i == 0 ? s[3] : 1, false).norm().relu();
        c.conv(s[1], 1, 1, false).norm(); // linear bottleneck; the residual add costs nothing
      }
    }
    c.conv(1280, 1, 1, false).norm().relu();
    return c.avgPool(1).flatten().linear(IMAGENET_CLASSES, true);
  }

  /**
   * torchvision {@code efficientnet.py}, B0 (width and depth 1.0): the MBConv stages (expand ratio, kernel, stride,
   * in, out, layers) of Tan &amp; Le 2019, "EfficientNet", table 1, with squeeze-excitation to
   * {@code max(1, in / 4)} channels.
   */
  static LayerCalculator efficientNetB0(int side) {
    int[][] stages = {{1, 3, 1, 32, 16, 1}, {6, 3, 2, 16, 24, 2}, {6, 5, 2, 24, 40, 2}, {6, 3, 2, 40, 80, 3},
        {6, 5, 1, 80, 112, 3}, {6, 5, 2, 112, 192, 4}, {6, 3, 1, 192, 320, 1}};
    LayerCalculator c = new LayerCalculator(3, side);
    c.conv(32, 3, 2, false).norm().act();
    for (int[] s : stages) {
      for (int i = 0; i < s[5]; i++) {
        int in = c.shape().channels();
        int expanded = in * s[0]; // already a multiple of 8 for B0
        if (expanded != in) {
          c.conv(expanded, 1, 1, false).norm().act();
        }
        c.depthwise(s[1], i == 0 ? s[2] : 1, false).norm().act();
        Shape features = c.shape();
        c.avgPool(1).conv(Math.max(1, in / 4), 1, 1, true).act().conv(expanded, 1, 1, true).act().scale(features);
        c.conv(s[4], 1, 1, false).norm();
      }
    }
    c.conv(1280, 1, 1, false).norm().act();
    return c.avgPool(1).flatten().linear(IMAGENET_CLASSES, true);
  }

  /**
   * torchvision {@code convnext.py}, ConvNeXt-T: stages of (3, 3, 9, 3) blocks of widths (96, 192, 384, 768); each
   * block is a 7×7 depthwise convolution, LayerNorm, a 4× MLP and a per-channel layer scale. Liu et al. 2022, "A
   * ConvNet for the 2020s".
   */
  static LayerCalculator convNextTiny(int side) {
    int[] depths = {3, 3, 9, 3};
    int[] widths = {96, 192, 384, 768};
    LayerCalculator c = new LayerCalculator(3, side);
    c.conv(widths[0], 4, 4, true).norm(); // patchify stem + LayerNorm2d
    for (int stage = 0; stage < depths.length; stage++) {
      if (stage > 0) {
        c.norm().conv(widths[stage], 2, 2, true); // LayerNorm2d + 2×2 stride-2 downsampling
      }
      int dim = widths[stage];
      for (int b = 0; b < depths[stage]; b++) {
        c.depthwise(7, 1, true).norm().linear(4 * dim, true).act().linear(dim, true).addParameters(dim);
      }
    }
    return c.avgPool(1).norm().flatten().linear(IMAGENET_CLASSES, true);
  }

  /**
   * torchvision {@code vision_transformer.py}: a 16×16 patchifying convolution, a class token, learned position
   * embeddings, pre-norm encoder blocks (multi-head attention with biases, GELU MLP), a final LayerNorm and a linear
   * head on the class token. Dosovitskiy et al. 2021, "An Image is Worth 16x16 Words", table 1.
   */
  static LayerCalculator vit(int layers, int hidden, int heads, int mlp, int side) {
    int patch = 16;
    LayerCalculator c = new LayerCalculator(3, side);
    c.conv(hidden, patch, patch, true).tokens(1);
    c.addParameters((long) c.shape().width() * hidden); // position embeddings
    for (int i = 0; i < layers; i++) {
      Shape in = c.shape();
      c.norm().selfAttention(heads, true, true);
      c.at(in).norm().linear(mlp, true).act().linear(hidden, true);
    }
    return c.norm().firstToken().linear(IMAGENET_CLASSES, true);
  }

  /** Latent channels of Stable Diffusion's autoencoder, which downsamples images 8× (Rombach et al. 2022). */
  static final int SD_LATENT_CHANNELS = 4;
  /** The autoencoder's downsampling factor: a 512×512 image is a 64×64 latent. */
  static final int SD_VAE_FACTOR = 8;
  /** Text-conditioning tokens: CLIP ViT-L/14's context of 77 tokens of width 768. */
  private static final int SD_CONTEXT_TOKENS = 77;
  private static final int SD_CONTEXT_DIM = 768;
  private static final int SD_TIME_DIM = 1280;

  /**
   * Stable Diffusion 1.5's {@code UNet2DConditionModel} (diffusers; config of runwayml/stable-diffusion-v1-5:
   * block widths 320/640/1280/1280, 2 layers per block, 8 attention heads, cross-attention to 77 × 768 CLIP tokens,
   * GroupNorm of 32 groups, GEGLU feed-forward), walked at a latent of {@code latentSide × latentSide × 4}.
   */
  static LayerCalculator stableDiffusionUnet(int latentSide) {
    int[] widths = {320, 640, 1280, 1280};
    LayerCalculator c = new LayerCalculator(SD_LATENT_CHANNELS, latentSide);
    // Time embedding: sinusoidal 320 -> Linear(320, 1280) -> SiLU -> Linear(1280, 1280), once per sample.
    c.addParameters(320L * SD_TIME_DIM + SD_TIME_DIM + (long) SD_TIME_DIM * SD_TIME_DIM + SD_TIME_DIM)
        .addMacs(320L * SD_TIME_DIM + (long) SD_TIME_DIM * SD_TIME_DIM);
    c.conv(widths[0], 3, 1, true);
    Deque<Shape> skips = new ArrayDeque<>();
    skips.push(c.shape());
    for (int block = 0; block < widths.length; block++) {
      boolean last = block == widths.length - 1;
      for (int layer = 0; layer < 2; layer++) {
        unetResnet(c, widths[block]);
        if (!last) {
          unetTransformer(c);
        }
        skips.push(c.shape());
      }
      if (!last) {
        c.conv(widths[block], 3, 2, true); // Downsample2D
        skips.push(c.shape());
      }
    }
    unetResnet(c, widths[3]);
    unetTransformer(c);
    unetResnet(c, widths[3]);
    for (int block = widths.length - 1; block >= 0; block--) {
      boolean first = block == widths.length - 1;
      for (int layer = 0; layer < 3; layer++) {
        c.concat(skips.pop());
        unetResnet(c, widths[block]);
        if (!first) {
          unetTransformer(c);
        }
      }
      if (block > 0) {
        c.upsample(2).conv(widths[block], 3, 1, true); // Upsample2D
      }
    }
    return c.norm().act().conv(SD_LATENT_CHANNELS, 3, 1, true);
  }

  /** diffusers {@code ResnetBlock2D}: GroupNorm, SiLU, 3×3 conv, + time projection, GroupNorm, SiLU, 3×3 conv. */
  private static void unetResnet(LayerCalculator c, int out) {
    Shape in = c.shape();
    c.norm().act().conv(out, 3, 1, true);
    c.addParameters((long) SD_TIME_DIM * out + out).addMacs((long) SD_TIME_DIM * out); // time_emb_proj
    c.norm().act().conv(out, 3, 1, true);
    Shape result = c.shape();
    if (in.channels() != out) {
      c.at(in).conv(out, 1, 1, true); // conv_shortcut
    }
    c.at(result);
  }

  /**
   * diffusers {@code Transformer2DModel} with one {@code BasicTransformerBlock}: GroupNorm, 1×1 projection in,
   * LayerNorm + self-attention, LayerNorm + cross-attention to the text, LayerNorm + GEGLU feed-forward (inner width
   * 4×), 1×1 projection out. Attention projections have no bias except the output.
   */
  private static void unetTransformer(LayerCalculator c) {
    Shape in = c.shape();
    int width = in.channels();
    c.norm().conv(width, 1, 1, true).tokens(0);
    Shape tokens = c.shape();
    c.norm().selfAttention(8, false, true);
    c.at(tokens).norm().attention(8, SD_CONTEXT_TOKENS, SD_CONTEXT_DIM, false, true);
    c.at(tokens).norm().linear(8 * width, true).gatedHalf().linear(width, true);
    c.toMap(in.height()).conv(width, 1, 1, true);
  }

  /** Input side at which Ultralytics trains YOLOv8 and publishes its FLOPs ({@code imgsz=640}). */
  static final int YOLO_SIDE = 640;

  /** COCO classes of the published YOLOv8 detection weights ({@code nc: 80} in {@code yolov8.yaml}). */
  private static final int COCO_CLASSES = 80;

  /** Bins of YOLOv8's distribution focal loss box regression ({@code reg_max = 16} in {@code head.py Detect}). */
  private static final int YOLO_REG_MAX = 16;

  /** Sides of a box the Detect head regresses (left, top, right, bottom distances). */
  private static final int BOX_SIDES = 4;

  /** Channel rounding of {@code parse_model} ({@code make_divisible(c, 8)} in {@code ultralytics/nn/tasks.py}). */
  private static final int YOLO_CHANNEL_DIVISOR = 8;

  /**
   * Ultralytics YOLOv8 detection ({@code ultralytics/cfg/models/v8/yolov8.yaml}, modules in
   * {@code ultralytics/nn/modules/conv.py}, {@code block.py} and {@code head.py}), walked at {@code side × side}.
   * Every {@code Conv} is Conv2d without bias, BatchNorm and SiLU; channels are {@code make_divisible(min(c, max) ×
   * width, 8)} and repeats {@code max(round(n × depth), 1)} as {@code parse_model} scales them.
   *
   * @param depth depth multiple of the scale (s: 0.33, m: 0.67)
   * @param width width multiple (s: 0.50, m: 0.75)
   * @param maxChannels channel cap before the width multiple (s: 1024, m: 768)
   */
  static LayerCalculator yolov8(double depth, double width, int maxChannels, int side) {
    IntUnaryOperator ch = c -> (int) Math.ceil(Math.min(c, maxChannels) * width
        / YOLO_CHANNEL_DIVISOR) * YOLO_CHANNEL_DIVISOR;
    IntUnaryOperator n = r -> r > 1 ? Math.max((int) Math.round(r * depth), 1) : r;
    LayerCalculator c = new LayerCalculator(3, side);
    // Backbone: yolov8.yaml layers 0-9.
    yoloConv(c, ch.applyAsInt(64), 3, 2);                                            // 0 P1/2
    yoloConv(c, ch.applyAsInt(128), 3, 2);                                           // 1 P2/4
    c2f(c, ch.applyAsInt(128), n.applyAsInt(3), true);                               // 2
    yoloConv(c, ch.applyAsInt(256), 3, 2);                                           // 3 P3/8
    c2f(c, ch.applyAsInt(256), n.applyAsInt(6), true);                               // 4
    Shape p3 = c.shape();
    yoloConv(c, ch.applyAsInt(512), 3, 2);                                           // 5 P4/16
    c2f(c, ch.applyAsInt(512), n.applyAsInt(6), true);                               // 6
    Shape p4 = c.shape();
    yoloConv(c, ch.applyAsInt(1024), 3, 2);                                          // 7 P5/32
    c2f(c, ch.applyAsInt(1024), n.applyAsInt(3), true);                              // 8
    sppf(c, ch.applyAsInt(1024));                                                    // 9
    Shape p5 = c.shape();
    // Head: layers 10-21 (top-down, then bottom-up), C2f without shortcuts.
    c.upsample(2).concat(p4);                                                        // 10, 11
    c2f(c, ch.applyAsInt(512), n.applyAsInt(3), false);                              // 12
    Shape topDown4 = c.shape();
    c.upsample(2).concat(p3);                                                        // 13, 14
    c2f(c, ch.applyAsInt(256), n.applyAsInt(3), false);                              // 15 P3 out
    Shape out3 = c.shape();
    yoloConv(c, ch.applyAsInt(256), 3, 2);                                           // 16
    c.concat(topDown4);                                                              // 17
    c2f(c, ch.applyAsInt(512), n.applyAsInt(3), false);                              // 18 P4 out
    Shape out4 = c.shape();
    yoloConv(c, ch.applyAsInt(512), 3, 2);                                           // 19
    c.concat(p5);                                                                    // 20
    c2f(c, ch.applyAsInt(1024), n.applyAsInt(3), false);                             // 21 P5 out
    Shape out5 = c.shape();
    // Detect (layer 22): per level a box branch cv2 and a class branch cv3, of the widths head.py sets:
    // c2, c3 = max((16, ch[0] // 4, self.reg_max * 4)), max(ch[0], min(self.nc, 100)).
    int boxWidth = Math.max(Math.max(16, out3.channels() / 4), YOLO_REG_MAX * BOX_SIDES);
    int classWidth = Math.max(out3.channels(), Math.min(COCO_CLASSES, 100));
    for (Shape level : new Shape[] {out3, out4, out5}) {
      c.at(level);
      yoloConv(c, boxWidth, 3, 1);
      yoloConv(c, boxWidth, 3, 1);
      c.conv(BOX_SIDES * YOLO_REG_MAX, 1, 1, true);
      c.at(level);
      yoloConv(c, classWidth, 3, 1);
      yoloConv(c, classWidth, 3, 1);
      c.conv(COCO_CLASSES, 1, 1, true);
    }
    // DFL: a fixed 1x1 convolution of reg_max weights (requires_grad False, still a parameter) that turns each
    // side's distribution into a distance at inference; its few MACs are left out.
    return c.addParameters(YOLO_REG_MAX);
  }

  /** Ultralytics {@code Conv}: Conv2d (padding k // 2, no bias), BatchNorm2d, SiLU. */
  private static void yoloConv(LayerCalculator c, int out, int kernel, int stride) {
    c.conv(out, kernel, stride, false).norm().act();
  }

  /**
   * Ultralytics {@code C2f(c1, c2, n, shortcut)}: a 1×1 {@code Conv} to {@code 2c} (c = c2 / 2) chunked in two
   * halves, {@code n} bottlenecks (two 3×3 {@code Conv} of c, e = 1.0) each on the previous output, and a 1×1
   * {@code Conv} over the concatenation of the {@code 2 + n} pieces. A shortcut {@code x + cv2(cv1(x))} allocates a
   * sum that stands in, in the count, for the SiLU output it consumes (the addition saves neither operand).
   *
   * @param shortcut whether the bottlenecks add their input (backbone) or not (head); it changes no count
   */
  private static void c2f(LayerCalculator c, int out, int bottlenecks, boolean shortcut) {
    int half = out / 2;
    yoloConv(c, 2 * half, 1, 1);
    Shape split = c.shape();
    c.at(new Shape(half, split.height(), split.width())); // chunk(2, 1): a view, nothing new
    for (int i = 0; i < bottlenecks; i++) {
      yoloConv(c, half, 3, 1);
      yoloConv(c, half, 3, 1);
    }
    c.at(new Shape((2 + bottlenecks) * half, split.height(), split.width())); // torch.cat of the pieces
    yoloConv(c, out, 1, 1);
  }

  /** SPPF's max-pool kernel ({@code [1024, 5]} in {@code yolov8.yaml}); stride 1, padding k // 2. */
  private static final int SPPF_KERNEL = 5;

  /** Ultralytics {@code SPPF(c1, c2, k)}: 1×1 {@code Conv} to c1 / 2, three chained k×k max pools, concat, 1×1. */
  private static void sppf(LayerCalculator c, int out) {
    int hidden = c.shape().channels() / 2;
    yoloConv(c, hidden, 1, 1);
    Shape first = c.shape();
    for (int i = 0; i < 3; i++) {
      c.maxPool(SPPF_KERNEL, 1, SPPF_KERNEL / 2);
    }
    c.at(new Shape(4 * hidden, first.height(), first.width())); // torch.cat of the input and the three pools
    yoloConv(c, out, 1, 1);
  }
}
