package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;
import static com.google.common.base.Preconditions.checkState;
import static java.lang.Math.addExact;
import static java.lang.Math.multiplyExact;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

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
 *   <li><b>Activation elements</b>: what autograd saves for the backward pass, counted as the output elements of
 *       every convolution, linear layer, norm, activation function, pooling layer, squeeze-excitation scaling,
 *       upsampling, and, for attention, of the query, key and value projections, the softmax probabilities
 *       ({@code heads × s × s}) and the attention context, each being the input the next layer saves. Two
 *       exceptions follow PyTorch's derivative formulas ({@code tools/autograd/derivatives.yaml}): ReLU and ReLU6
 *       compute their gradient from their <em>output</em> ({@code threshold_backward(grad, result, 0)};
 *       {@code hardtanh_backward(grad, result, …)} for the in-place form), so a tensor that only a ReLU reads (a
 *       convolution's output without batch norm, or a batch norm's output, since batch norm saves its input) is not
 *       kept besides the ReLU's output, which in place, as torchvision writes it, even takes its memory; and a
 *       residual addition ({@code out += identity}) saves neither operand, so a shortcut branch's batch-norm output
 *       is kept by nothing. Conv → BN → ReLU keeps two tensors, not three (the baseline Rota Bulò et al. 2018,
 *       "In-Place Activated BatchNorm for Memory-Optimized Training of DNNs", §3, start from). SiLU, GELU and
 *       sigmoid need their input, which is kept. Concatenations and reshapes add nothing.
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
  /**
   * Outputs counted in {@link #activations} that no operation has saved yet, by identity (every operation makes a
   * new {@link Shape}); a ReLU or a residual addition that consumes one un-counts it.
   */
  private final Set<Shape> unsaved = Collections.newSetFromMap(new IdentityHashMap<>());
  private long parameters;
  private long macs;
  /** The share of {@link #macs} in depthwise convolutions (one filter per channel). */
  private long depthwiseMacs;
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

  /**
   * Adds the current tensor (a shortcut branch's output) into {@code main} in place ({@code out += identity}) and
   * continues from {@code main}; the addition saves neither operand, so the current tensor stays counted only if
   * another operation saved it.
   */
  LayerCalculator addInto(Shape main) {
    checkNotNull(main, "main");
    checkArgument(main.equals(shape), "cannot add %s into %s", shape, main);
    if (unsaved.remove(shape)) {
      activations -= shape.elements();
    }
    shape = main;
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

  long depthwiseMacs() {
    return depthwiseMacs;
  }

  /** A convolution with "same" padding ({@code (k − 1) / 2}) for odd kernels and none for even ones (patchify). */
  LayerCalculator conv(int out, int kernel, int stride, boolean bias) {
    return conv(out, kernel, stride, kernel % 2 == 1 ? (kernel - 1) / 2 : 0, 1, bias);
  }

  /** A depthwise convolution: one filter per channel ({@code groups = channels}). */
  LayerCalculator depthwise(int kernel, int stride, boolean bias) {
    long before = macs;
    conv(shape.channels(), kernel, stride, (kernel - 1) / 2, shape.channels(), bias);
    depthwiseMacs = addExact(depthwiseMacs, macs - before);
    return this;
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
    output(next);
    return this;
  }

  /** A linear layer applied at every position (a 1×1 convolution for images, per token for sequences). */
  LayerCalculator linear(int out, boolean bias) {
    int in = shape.channels();
    addParameters(addExact(multiplyExact((long) in, out), bias ? out : 0));
    Shape next = new Shape(out, shape.height(), shape.width());
    addMacs(multiplyExact((long) in, next.elements()));
    output(next);
    return this;
  }

  /** Batch, group or layer norm over the channels: a scale and a shift per channel. */
  LayerCalculator norm() {
    addParameters(2L * shape.channels());
    output(copy(shape));
    return this;
  }

  /**
   * A frozen batch norm ({@code torchvision.ops.FrozenBatchNorm2d}, the detection models' backbones): a per-channel
   * scale and shift from buffers, no parameters.
   */
  LayerCalculator frozenNorm() {
    output(copy(shape));
    return this;
  }

  /**
   * A head whose weights are shared across inputs (a detector's head over every pyramid level): {@code head} is
   * walked from the current tensor, its MACs and activations counted, and its parameters counted only if
   * {@code countParameters} (the first level); the walk continues from the head's output.
   */
  LayerCalculator sharedHead(boolean countParameters, java.util.function.UnaryOperator<LayerCalculator> head) {
    long before = parameters;
    head.apply(this);
    if (!countParameters) {
      parameters = before;
    }
    return this;
  }

  /** An activation function whose gradient needs its input (SiLU, GELU, sigmoid): no parameters. */
  LayerCalculator act() {
    output(copy(shape));
    return this;
  }

  /**
   * ReLU or ReLU6, in place: its gradient needs only its output, so an input that nothing else saved is not kept
   * besides it (the output takes the input's place in the count).
   */
  LayerCalculator relu() {
    if (unsaved.remove(shape)) {
      kernels++;
      shape = copy(shape);
      unsaved.add(shape);
    } else {
      output(copy(shape));
    }
    return this;
  }

  /** GEGLU: the first half of the channels times GELU of the second half. */
  LayerCalculator gatedHalf() {
    checkArgument(shape.channels() % 2 == 0, "a gated unit needs an even channel count, was %s", shape.channels());
    output(new Shape(shape.channels() / 2, shape.height(), shape.width()));
    return this;
  }

  LayerCalculator maxPool(int kernel, int stride, int padding) {
    int h = (shape.height() + 2 * padding - kernel) / stride + 1;
    int w = (shape.width() + 2 * padding - kernel) / stride + 1;
    output(new Shape(shape.channels(), h, w));
    return this;
  }

  /** Adaptive average pooling to {@code side × side} (1 for global pooling). */
  LayerCalculator avgPool(int side) {
    output(new Shape(shape.channels(), side, side));
    return this;
  }

  /** Nearest-neighbour upsampling by {@code factor}. */
  LayerCalculator upsample(int factor) {
    output(new Shape(shape.channels(), shape.height() * factor, shape.width() * factor));
    return this;
  }

  /** Squeeze-excitation's channel-wise product of the saved feature map with the current gate. */
  LayerCalculator scale(Shape features) {
    checkArgument(features.channels() == shape.channels(), "gate of %s channels for %s channels",
        shape.channels(), features.channels());
    unsaved.remove(features); // the product saves both factors
    output(copy(features));
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
    output(copy(shape), s * c + 2L * contextTokens * c + multiplyExact(multiplyExact(heads, s), contextTokens)
        + 2 * s * c);
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

  private static Shape copy(Shape s) {
    return new Shape(s.channels(), s.height(), s.width());
  }

  /** An operator that saves its input (the current tensor) and writes {@code next}. */
  private void output(Shape next) {
    output(next, next.elements());
  }

  /** An operator that saves its input and writes {@code next}, keeping {@code saved} elements of its own. */
  private void output(Shape next, long saved) {
    kernels++; // every operator that writes an output is one eager kernel launch
    activations = addExact(activations, saved);
    unsaved.remove(shape);
    shape = next;
    unsaved.add(next);
  }

  /** The result as a {@link ConvNet} at the given reference resolution (FLOPs = 2 × MACs). */
  ConvNet toConvNet(String name, int referenceResolution) {
    return new ConvNet(name, parameters, 2.0 * macs, activations, referenceResolution, kernels, 2.0 * depthwiseMacs);
  }
}
