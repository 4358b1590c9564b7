package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * A convolutional network (or any image model) described by what its layer shapes add up to at a reference
 * resolution; FLOPs and activations scale with the image area.
 *
 * <pre>{@code
 * ConvNet resnet50 = (ConvNet) Presets.get("resnet50");
 * double gflops = resnet50.forwardFlops(224) / 1e9; // about 8.2 (4.1 GMACs)
 * }</pre>
 *
 * @param name short name
 * @param parameters all parameters
 * @param forwardFlopsAtReference FLOPs of one forward pass of one sample at the reference resolution (2 per
 *     multiply-accumulate)
 * @param activationElementsAtReference elements of all layer outputs one sample keeps for the backward pass at the
 *     reference resolution
 * @param referenceResolution image side in pixels the two figures above are for
 * @param kernels GPU kernels one forward pass of a batch launches in eager PyTorch (every convolution, norm,
 *     activation, pooling and linear layer); 0 when not known, which charges no launch floor
 * @param depthwiseFlopsAtReference the part of {@code forwardFlopsAtReference} in depthwise convolutions (one
 *     filter per channel, as in MobileNet, EfficientNet and ConvNeXt), which cannot use tensor cores; 0 when none
 */
public record ConvNet(
    String name,
    long parameters,
    double forwardFlopsAtReference,
    long activationElementsAtReference,
    int referenceResolution,
    int kernels,
    double depthwiseFlopsAtReference) implements ModelSpec {

  public ConvNet {
    checkArgument(!checkNotNull(name, "name").isBlank(), "model needs a name");
    checkArgument(parameters > 0, "%s: parameters must be > 0, was %s", name, parameters);
    checkArgument(forwardFlopsAtReference > 0 && Double.isFinite(forwardFlopsAtReference),
        "%s: forward FLOPs must be > 0, was %s", name, forwardFlopsAtReference);
    checkArgument(activationElementsAtReference > 0,
        "%s: activation elements must be > 0, was %s", name, activationElementsAtReference);
    checkArgument(referenceResolution > 0, "%s: reference resolution must be > 0 px, was %s", name, referenceResolution);
    checkArgument(kernels >= 0, "%s: kernels per forward pass must be >= 0 (0: not known), was %s", name, kernels);
    checkArgument(depthwiseFlopsAtReference >= 0 && depthwiseFlopsAtReference <= forwardFlopsAtReference,
        "%s: depthwise FLOPs must be in 0..%s (the forward FLOPs), was %s", name, forwardFlopsAtReference,
        depthwiseFlopsAtReference);
  }

  /** A network without depthwise convolutions. */
  public ConvNet(String name, long parameters, double forwardFlopsAtReference, long activationElementsAtReference,
                 int referenceResolution, int kernels) {
    this(name, parameters, forwardFlopsAtReference, activationElementsAtReference, referenceResolution, kernels, 0);
  }

  /** A network whose kernel count is not known (no launch floor is charged for it). */
  public ConvNet(String name, long parameters, double forwardFlopsAtReference, long activationElementsAtReference,
                 int referenceResolution) {
    this(name, parameters, forwardFlopsAtReference, activationElementsAtReference, referenceResolution, 0, 0);
  }

  /** Forward FLOPs per sample at an image side of {@code resolution} pixels (scales with the area). */
  public double forwardFlops(int resolution) {
    return forwardFlopsAtReference * areaRatio(resolution);
  }

  /** Depthwise-convolution FLOPs per sample at an image side of {@code resolution} pixels. */
  public double depthwiseFlops(int resolution) {
    return depthwiseFlopsAtReference * areaRatio(resolution);
  }

  /** Activation elements per sample at an image side of {@code resolution} pixels. */
  public double activationElements(int resolution) {
    return activationElementsAtReference * areaRatio(resolution);
  }

  private double areaRatio(int resolution) {
    checkArgument(resolution > 0, "%s: image size must be > 0 px, was %s", name, resolution);
    double r = (double) resolution / referenceResolution;
    return r * r;
  }
}
