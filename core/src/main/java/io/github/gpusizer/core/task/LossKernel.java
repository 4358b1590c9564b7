package io.github.gpusizer.core.task;

/**
 * How a language model's output layer and cross-entropy loss hold their logits, which with a 128k-token vocabulary is
 * often the largest buffer of a training step.
 *
 * <pre>{@code
 * Task tune = Task.lora(llama3, 8).microBatch(2).sequenceLength(2048)
 *     .loss(LossKernel.CHUNKED).build(); // torchtune's CEWithChunkedOutputLoss
 * }</pre>
 */
public enum LossKernel {
  /**
   * The whole {@code tokens × vocabulary} logits in the compute format, upcast to FP32 for the log-softmax that
   * cross-entropy keeps, with its FP32 gradients at the start of the backward pass (Hugging Face Transformers and
   * LitGPT call {@code .float()} on the logits). The default.
   */
  MATERIALIZED,
  /**
   * The logits kept in the compute format, upcast and reduced one of 8 chunks of tokens at a time (torchtune's
   * {@code CEWithChunkedOutputLoss}, "saves memory by only upcasting one chunk at a time", {@code num_output_chunks}
   * 8; the loss of its LoRA and full fine-tuning recipes, compiled with it).
   */
  CHUNKED,
  /**
   * The output projection and cross-entropy fused and chunked over tokens so that the logits are never whole: Liger
   * Kernel's {@code FusedLinearCrossEntropy} (also Unsloth's) sizes each chunk so that its logits take about the
   * memory of the {@code tokens × hidden} input ({@code chunk_size = next_power_of_2(ceil(BT / ceil(V / H)))},
   * liger_kernel/ops/fused_linear_cross_entropy.py), up to twice that after rounding, and writes the input's gradient
   * ({@code tokens × hidden}) during the forward pass.
   */
  FUSED;
}
