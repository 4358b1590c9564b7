package io.github.gpusizer.core.estimate;

import io.github.gpusizer.core.model.ConvNet;
import io.github.gpusizer.core.model.Norm;
import io.github.gpusizer.core.model.Positions;
import io.github.gpusizer.core.model.Stack;
import io.github.gpusizer.core.model.Transformer;

/** Models of the calibration rows, built here from their published architecture dimensions. */
final class TestModels {
  private TestModels() {}

  /** Llama 2 7B (Touvron et al. 2023; Hugging Face meta-llama/Llama-2-7b-hf config.json). */
  static final Transformer LLAMA2_7B = llama("llama-2-7b", 32, 4096, 32, 11008);

  /**
   * Llama 3.1 8B (Hugging Face meta-llama/Llama-3.1-8B config.json; torchtitan's {@code llama3} "8B" flavour): 32
   * layers, width 4096, 32 query and 8 key/value heads, FFN 14336, vocabulary 128256, untied head.
   */
  static final Transformer LLAMA3_8B = Transformer.builder("llama-3.1-8b").layers(32).hidden(4096).heads(32)
      .kvHeads(8).ffn(14336).vocab(128256).maxPositions(131072).gatedMlp(true).norm(Norm.RMS_NORM)
      .positions(Positions.ROTARY).bias(false).tiedEmbeddings(false).build();

  /** Llama 2 13B: 40 layers, width 5120, 40 heads, FFN 13824. */
  static final Transformer LLAMA2_13B = llama("llama-2-13b", 40, 5120, 40, 13824);

  /**
   * The "llama2_34b" of IBM's fms-fsdp ({@code fms_fsdp/utils/config_utils.py}: 48 layers, width 8192, 64 query and
   * 8 key/value heads, FFN 22016, Llama 2's vocabulary of 32000): Code Llama 34B's shape, as Llama 2 34B was never
   * released.
   */
  static final Transformer LLAMA2_34B = llama("llama-2-34b", 48, 8192, 64, 22016).toBuilder().kvHeads(8).build();

  /** Llama 2 70B (fms-fsdp's "llama2_70b", as Meta's config): 80 layers, width 8192, 64 + 8 heads, FFN 28672. */
  static final Transformer LLAMA2_70B = llama("llama-2-70b", 80, 8192, 64, 28672).toBuilder().kvHeads(8).build();

  /** BERT-large as NVIDIA DeepLearningExamples pads it: 24 layers, 1024 wide, 16 heads, vocabulary 30528. */
  static final Transformer BERT_LARGE_DLE = bert(30528);

  /**
   * The same BERT-large as NVIDIA's TensorFlow 1 scripts run it: Google's {@code modeling.py} writes GELU as the tanh
   * approximation in TensorFlow operations ({@code cdf = 0.5 * (1.0 + tf.tanh(...)); return x * cdf}), whose
   * intermediates the graph keeps for the backward pass (NVIDIA/DeepLearningExamples
   * TensorFlow/LanguageModeling/BERT/modeling.py, {@code gelu}), and its {@code dropout} calls {@code tf.nn.dropout},
   * which keeps a float mask, and its {@code layer_norm} calls {@code tf.contrib.layers.layer_norm}, which keeps a
   * full-width {@code rsqrt(variance)·scale} ({@code Norm.COMPOSED_LAYER_NORM}).
   */
  static final Transformer BERT_LARGE_TF1 = BERT_LARGE_DLE.toBuilder()
      .activation(io.github.gpusizer.core.model.Activation.COMPOSED_TANH_GELU)
      .dropout(io.github.gpusizer.core.model.Dropout.SCALED_FLOAT_MASK)
      .norm(Norm.COMPOSED_LAYER_NORM).build();

  /** BERT-large uncased as Hugging Face ships it: vocabulary 30522. */
  static final Transformer BERT_LARGE = bert(30522);

  /** Megatron-LM GPT 1.7B (Narayanan et al. 2021, Table 1): 24 layers, width 2304, 24 heads, vocabulary 51200. */
  static final Transformer GPT_1_7B = Transformer.builder("gpt-1.7b").layers(24).hidden(2304).heads(24)
      .vocab(51200).maxPositions(2048).tiedEmbeddings(true).build();

  /** Megatron-LM GPT 7.1B (Megatron-LM README model table): 30 layers, width 4096, 32 heads, vocabulary 131072. */
  static final Transformer GPT_7_1B = Transformer.builder("gpt-7.1b").layers(30).hidden(4096).heads(32)
      .vocab(131072).maxPositions(4096).tiedEmbeddings(false).build();

  /** MPT-7B (mosaicml/mpt-7b config.json): 32 layers, d_model 4096, 32 heads, expansion 4, vocabulary 50368, ALiBi. */
  static final Transformer MPT_7B = Transformer.builder("mpt-7b").layers(32).hidden(4096).heads(32).ffn(16384)
      .vocab(50368).maxPositions(2048).positions(Positions.ALIBI).bias(false).tiedEmbeddings(true).build();

  /**
   * bigscience/T0_3B, a T5 v1.1 XL (LM-adapted): 24 + 24 layers, d_model 2048, 32 heads of 64, gated-GELU FFN 5120,
   * vocabulary 32128, untied, RMS-style norm, relative position bias.
   */
  static final Transformer T0_3B = Transformer.builder("t0-3b").stack(Stack.ENCODER_DECODER).layers(24)
      .decoderLayers(24).hidden(2048).heads(32).headDim(64).ffn(5120).gatedMlp(true).vocab(32128)
      .maxPositions(512).positions(Positions.RELATIVE_BIAS).norm(Norm.RMS_NORM).bias(false).tiedEmbeddings(false)
      .build();

  private static Transformer llama(String name, int layers, int hidden, int heads, int ffn) {
    return Transformer.builder(name).layers(layers).hidden(hidden).heads(heads).ffn(ffn).vocab(32000)
        .maxPositions(4096).gatedMlp(true).norm(Norm.RMS_NORM).positions(Positions.ROTARY).bias(false)
        .tiedEmbeddings(false).build();
  }

  private static Transformer bert(int vocab) {
    return Transformer.builder("bert-large").stack(Stack.ENCODER).layers(24).hidden(1024).heads(16).ffn(4096)
        .vocab(vocab).maxPositions(512).typeVocab(2).pooler(true).tiedEmbeddings(true).build();
  }

  /** ResNet-50 v1.5 (torchvision {@code resnet50}) counted layer by layer at 224 px. */
  static final ConvNet RESNET50 = ResNetCounter.resnet50();

  /**
   * Counts a bottleneck ResNet (He et al. 2016, Table 1; v1.5 puts the stride in the 3×3 convolution): parameters
   * (convolutions without bias, two per batch-norm channel, the classifier), forward FLOPs (2 per multiply-add) and the
   * activation elements PyTorch keeps for the backward pass with in-place ReLU: the image, every convolution's
   * output (batch norm saves its input), every ReLU's output (the next convolution's input) and the classifier input.
   */
  static final class ResNetCounter {
    private long params;
    private double macs;
    private long saved;
    /** Eager kernels of one forward pass: convolution + batch norm each, ReLUs, residual adds, pools, classifier. */
    private int kernels;

    static ConvNet resnet50() {
      ResNetCounter c = new ResNetCounter();
      int side = 224;
      c.saved += 3L * side * side;                       // the image, saved by conv1 for its weight gradient
      side = c.conv(3, 64, 7, side, 2);                    // conv1 + bn1
      c.saved += 64L * side * side;                        // relu
      c.kernels += 2;                                      // relu, max-pool
      side = side / 2;                                     // max-pool 3×3/2 (its output is the next input)
      c.saved += 64L * side * side;
      int in = 64;
      int[] blocks = {3, 4, 6, 3};
      int[] planes = {64, 128, 256, 512};
      for (int stage = 0; stage < 4; stage++) {
        for (int block = 0; block < blocks[stage]; block++) {
          int stride = stage > 0 && block == 0 ? 2 : 1;
          int p = planes[stage];
          int s1 = c.conv(in, p, 1, side, 1);
          c.saved += (long) p * s1 * s1;                  // relu
          int s2 = c.conv(p, p, 3, s1, stride);
          c.saved += (long) p * s2 * s2;                  // relu
          int s3 = c.conv(p, 4 * p, 1, s2, 1);
          if (block == 0) {
            c.conv(in, 4 * p, 1, side, stride);           // downsample + bn
          }
          c.saved += 4L * p * s3 * s3;                    // relu after the residual add
          c.kernels += 4;                                  // two inner ReLUs, the residual add, the last ReLU
          in = 4 * p;
          side = s3;
        }
      }
      c.params += 2048L * 1000 + 1000;                     // classifier
      c.macs += 2048.0 * 1000;
      c.saved += 2048;
      c.kernels += 2;                                      // average pool, classifier
      return new ConvNet("resnet50-v1.5", c.params, 2 * c.macs, c.saved, 224, c.kernels);
    }

    /** A convolution and its batch norm; returns the output side. */
    private int conv(int in, int out, int kernel, int side, int stride) {
      int outSide = side / stride;
      params += (long) in * out * kernel * kernel + 2L * out;
      macs += (double) outSide * outSide * kernel * kernel * in * out;
      saved += (long) out * outSide * outSide;             // conv output = batch-norm input
      kernels += 2;                                        // convolution, batch norm
      return outSide;
    }
  }
}
