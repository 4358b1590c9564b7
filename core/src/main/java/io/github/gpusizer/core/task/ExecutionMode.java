package io.github.gpusizer.core.task;

/**
 * How the job's kernels reach the GPU, which decides the host overhead per step and who manages the GPU memory.
 *
 * <pre>{@code
 * Task serve = Task.inference(llama).sequenceLength(512).generatedTokens(256)
 *     .executionMode(ExecutionMode.SERVING_ENGINE).build();
 * }</pre>
 *
 * <p>Every mode pays a floor per kernel: a kernel cannot finish sooner than the GPU can start it (about 3 µs even
 * for an empty kernel), so a batch-1 CNN of some 170 small kernels is never faster than that sum.
 */
public enum ExecutionMode {
  /**
   * Eager PyTorch (the default): Python dispatches every operator, some 20 µs per kernel and about 1.2 ms per
   * transformer layer, and the GPU waits whenever its kernels are shorter than that; the PyTorch caching allocator
   * holds memory beyond what is allocated.
   */
  EAGER("eager"),
  /**
   * {@code torch.compile} with CUDA graphs ({@code mode="reduce-overhead"}) or hand-captured CUDA graphs: one launch
   * replays the whole pass, so the per-operator host time vanishes; still the PyTorch caching allocator.
   */
  COMPILED("compiled"),
  /**
   * A serving engine such as vLLM or TensorRT-LLM: CUDA graphs for decoding and fused kernels, no per-operator host
   * time, and its own memory pool (vLLM preallocates {@code gpu_memory_utilization}, 0.9 of the GPU by default, and
   * pages the KV cache) instead of PyTorch's caching allocator.
   */
  SERVING_ENGINE("serving engine"),
  /**
   * A TensorFlow graph without XLA (TensorFlow 1 {@code Session.run}, or a {@code tf.function}): TensorFlow's C++
   * executor dispatches the kernels, so no Python time per operator is charged, only the device's floor per kernel;
   * and TensorFlow's BFC allocator manages the memory. It takes the free memory as one pool at start-up, less what it
   * leaves to the system: {@code max(300 MiB, 5%)} of the free memory in TensorFlow 1.x ({@code MinSystemMemory} in
   * {@code tensorflow/core/common_runtime/gpu/gpu_device.cc}), which no tensor can use. Its executor runs an
   * operation as soon as its inputs exist, so an optimizer written in TensorFlow operations (BERT's AdamW, LAMB) holds
   * its terms that read only variables from the start of the step.
   */
  TENSORFLOW_GRAPH("TensorFlow graph");

  private final String label;

  ExecutionMode(String label) {
    this.label = label;
  }

  /** Whether Python dispatches each operator (eager PyTorch), so the host's time per kernel counts. */
  public boolean launchesFromPython() {
    return this == EAGER;
  }

  /**
   * Whether PyTorch's caching allocator manages the memory (eager and compiled PyTorch; not a serving engine, not
   * TensorFlow).
   */
  public boolean usesPyTorchAllocator() {
    return this == EAGER || this == COMPILED;
  }

  /** A short name for reports: "eager", "compiled", "serving engine", "TensorFlow graph". */
  public String label() {
    return label;
  }
}
