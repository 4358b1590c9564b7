package io.github.gpusizer.catalog;

/**
 * A number format a GPU can do arithmetic in, as datasheets list peak throughput.
 *
 * <pre>{@code
 * double tflops = gpu.denseTflops(Precision.BF16);
 * }</pre>
 *
 * <p>For the 16-bit and 8-bit tensor formats the figure the catalog stores is the rate with 32-bit (FP32)
 * accumulation, the mode mixed-precision training uses; see {@link Gpu#denseTflops(Precision)}.
 */
public enum Precision {
  FP64,
  FP32,
  /** TensorFloat-32: FP32 inputs on tensor cores, 10-bit mantissa (Ampere and later). */
  TF32,
  FP16,
  BF16,
  FP8,
  INT8
}
