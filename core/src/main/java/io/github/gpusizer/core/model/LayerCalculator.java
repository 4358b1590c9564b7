package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;
import static java.lang.Math.addExact;
import static java.lang.Math.multiplyExact;

/**
 * Walks a network layer by layer for one sample and sums what its layer shapes imply: parameters, multiply-accumulates
 * and activation elements.
 *
 * <p>What is counted, per layer:
 *
 * <ul>
 *   <li><b>Parameters</b>: learned tensors only (weights, biases, norm scales and shifts, class tokens, position
 *       embeddings, layer scales); batch-norm running statistics are buffers, not parameters.
 *   <li><b>MACs</b>: multiply-accumulates of convolutions, linear layers and attention's two matrix products
 *       ({@code QKᵀ} and {@code softmax·V}); norms, activations, pooling and element-wise operations are not counted.
 *       This is what torchvision's published "GFLOPS" column counts (pytorch/vision PR #6936: a
 *       {@code TorchDispatchMode} counter of {@code aten} convolution and matrix-multiply ops, one per MAC), so the
 *       totals compare directly. FLOPs are 2 × MACs.
 *   <li><b>Activation elements</b>: the output elements of every convolution, linear layer, norm, activation
 *       function, pooling layer, squeeze-excitation scaling, upsampling, and, for attention, of the query, key and
 *       value projections, the softmax probabilities ({@code heads × s × s}) and the attention context. Residual
 *       additions, concatenations and reshapes add nothing (autograd keeps nothing for them). Each such tensor is an
 *       input that the next layer's backward pass needs, so the sum approximates what autograd keeps for one sample
 *       without recomputation; frameworks that run ReLU in place keep somewhat less, so this is an upper bound.
 * </ul>
 *
 * <p>The current tensor has a shape {@code channels × height × width}; token sequences are {@code dim × 1 × tokens}.
 * Branches (residual shortcuts, U-Net skips) are walked by saving a {@link Shape} and returning to it with
 * {@link #at(Shape)}.
 */
final class LayerCalculator {

  /** A tensor shape of one sample: channels (or token width) × height × width (or tokens). */
  record Shape(int channels, int height, int width) {
    Shape {
      checkArgument(channels > 0 && height > 0 && width > 0, "shape must be positive, was %sx%sx%s",
          channels, height, width);
    }

    long positions() {
      return (long) height * width;
    }

    long elements() {
      return multiplyExact(channels, positions());
    }
  }

  private Shape shape;
  private long parameters;
  private long macs;
  private long activations;
  /** Operators that write an output: convolutions, norms, activations, pooling, linear layers, attention. */
  private int kernels;

  /** Starts at an input of {@code channels × side × side}. */
  LayerCalculator(int channels, int side) {
    this.shape = new Shape(channels, side, side);
  }

  Shape shape() {
    return shape;
  }

  /** Continues from a saved shape (the start of a branch); the totals are kept. */
  LayerCalculator at(Shape saved) {
    this.shape = checkNotNull(saved, "saved");
    return this;
  }

  long parameters() {
    return parameters;
  }

  long macs() {
    return macs;
  }

  long activations() {
    return activations;
  }

  /** A convolution with "same" padding ({@code (k − 1) / 2}) for odd kernels and none for even ones (patchify). */
  LayerCalculator conv(int out, int kernel, int stride, boolean bias) {
    return conv(out, kernel, stride, kernel % 2 == 1 ? (kernel - 1) / 2 : 0, 1, bias);
  }

  /** A depthwise convolution: one filter per channel ({@code groups = channels}). */
  LayerCalculator depthwise(int kernel, int stride, boolean bias) {
    return conv(shape.channels(), kernel, stride, (kernel - 1) / 2, shape.channels(), bias);
  }

  /** {@code out} filters of {@code kernel × kernel} over {@code in / groups} channels each. */
  LayerCalculator conv(int out, int kernel, int stride, int padding, int groups, boolean bias) {
    int in = shape.channels();
    checkArgument(in % groups == 0 && out % groups == 0, "groups %s must divide %s in and %s out channels",
        groups, in, out);
    int h = (shape.height() + 2 * padding - kernel) / stride + 1;
    int w = (shape.width() + 2 * padding - kernel) / stride + 1;
    Shape next = new Shape(out, h, w);
    long weightsPerOutput = multiplyExact((long) in / groups, (long) kernel * kernel);
    addParameters(addExact(multiplyExact(weightsPerOutput, out), bias ? out : 0));
    addMacs(multiplyExact(weightsPerOutput, next.elements()));
    shape = next;
    addActivations(next.elements());
    return this;
  }

  /** A linear layer applied at every position (a 1×1 convolution for images, per token for sequences). */
  LayerCalculator linear(int out, boolean bias) {
    int in = shape.channels();
    addParameters(addExact(multiplyExact((long) in, out), bias ? out : 0));
    shape = new Shape(out, shape.height(), shape.width());
    addMacs(multiplyExact((long) in, shape.elements()));
    addActivations(shape.elements());
    return this;
  }

  /** Batch, group or layer norm over the channels: a scale and a shift per channel. */
  LayerCalculator norm() {
    addParameters(2L * shape.channels());
    addActivations(shape.elements());
    return this;
  }

  /** An activation function (ReLU, ReLU6, SiLU, GELU, sigmoid): no parameters. */
  LayerCalculator act() {
    addActivations(shape.elements());
    return this;
  }

  /** GEGLU: the first half of the channels times GELU of the second half. */
  LayerCalculator gatedHalf() {
    checkArgument(shape.channels() % 2 == 0, "a gated unit needs an even channel count, was %s", shape.channels());
    shape = new Shape(shape.channels() / 2, shape.height(), shape.width());
    addActivations(shape.elements());
    return this;
  }

  LayerCalculator maxPool(int kernel, int stride, int padding) {
    int h = (shape.height() + 2 * padding - kernel) / stride + 1;
    int w = (shape.width() + 2 * padding - kernel) / stride + 1;
    shape = new Shape(shape.channels(), h, w);
    addActivations(shape.elements());
    return this;
  }

  /** Adaptive average pooling to {@code side × side} (1 for global pooling). */
  LayerCalculator avgPool(int side) {
    shape = new Shape(shape.channels(), side, side);
    addActivations(shape.elements());
    return this;
  }

  /** Nearest-neighbour upsampling by {@code factor}. */
  LayerCalculator upsample(int factor) {
    shape = new Shape(shape.channels(), shape.height() * factor, shape.width() * factor);
    addActivations(shape.elements());
    return this;
  }

  /** Squeeze-excitation's channel-wise product of the saved feature map with the current gate. */
  LayerCalculator scale(Shape features) {
    checkArgument(features.channels() == shape.channels(), "gate of %s channels for %s channels",
        shape.channels(), features.channels());
    shape = features;
    addActivations(shape.elements());
    return this;
  }

  /** Concatenation along channels with a saved tensor of the same spatial size (a U-Net skip). */
  LayerCalculator concat(Shape skip) {
    checkArgument(skip.height() == shape.height() && skip.width() == shape.width(),
        "skip of %sx%s does not match %sx%s", skip.height(), skip.width(), shape.height(), shape.width());
    shape = new Shape(shape.channels() + skip.channels(), shape.height(), shape.width());
    return this;
  }

  /** Flattens {@code C × H × W} into one vector of {@code C·H·W} features. */
  LayerCalculator flatten() {
    shape = new Shape(Math.toIntExact(shape.elements()), 1, 1);
    return this;
  }

  /** Turns a feature map into a token sequence ({@code dim × 1 × H·W}), plus {@code extra} learned tokens. */
  LayerCalculator tokens(int extra) {
    addParameters(multiplyExact((long) extra, shape.channels()));
    shape = new Shape(shape.channels(), 1, Math.toIntExact(shape.positions() + extra));
    return this;
  }

  /** Back from a token sequence to a {@code side × side} feature map. */
  LayerCalculator toMap(int side) {
    checkState(shape.positions() == (long) side * side, "%s tokens are not a %sx%s map", shape.positions(), side,
        side);
    shape = new Shape(shape.channels(), side, side);
    return this;
  }

  /** Keeps only the first token (ViT's class token). */
  LayerCalculator firstToken() {
    shape = new Shape(shape.channels(), 1, 1);
    return this;
  }

  /**
   * Multi-head attention of the current tokens over {@code contextTokens} tokens of width {@code contextDim}
   * (self-attention: the tokens themselves). Query, key, value and output projections of width {@code channels};
   * biases on q/k/v and on the output as given.
   */
  LayerCalculator attention(int heads, int contextTokens, int contextDim, boolean qkvBias, boolean outBias) {
    long c = shape.channels();
    long s = shape.positions();
    checkArgument(c % heads == 0, "%s channels do not split into %s heads", c, heads);
    addParameters(c * c + 2 * contextDim * c + c * c + (qkvBias ? 3 * c : 0) + (outBias ? c : 0));
    long projections = multiplyExact(s, c * c) * 2 + multiplyExact((long) contextTokens, 2L * contextDim * c);
    long products = multiplyExact(multiplyExact(s, contextTokens), 2 * c);
    addMacs(addExact(projections, products));
    addActivations(s * c + 2L * contextTokens * c + multiplyExact(multiplyExact(heads, s), contextTokens) + 2 * s * c);
    return this;
  }

  /** Self-attention over the current tokens. */
  LayerCalculator selfAttention(int heads, boolean qkvBias, boolean outBias) {
    return attention(heads, Math.toIntExact(shape.positions()), shape.channels(), qkvBias, outBias);
  }

  /** A learned tensor outside any layer (position embedding, layer scale). */
  LayerCalculator addParameters(long count) {
    parameters = addExact(parameters, count);
    return this;
  }

  /** Multiply-accumulates outside any layer shape (U-Net's per-sample time-embedding projections). */
  LayerCalculator addMacs(long count) {
    macs = addExact(macs, count);
    return this;
  }

  private void addActivations(long count) {
    kernels++; // every operator that writes an output is one eager kernel launch
    activations = addExact(activations, count);
  }

  /** The result as a {@link ConvNet} at the given reference resolution (FLOPs = 2 × MACs). */
  ConvNet toConvNet(String name, int referenceResolution) {
    return new ConvNet(name, parameters, 2.0 * macs, activations, referenceResolution, kernels);
  }
}
