package io.github.gpusizer.core.task;

/**
 * The optimizer, which decides the state kept per trainable parameter (in FP32 unless the precision is pure BF16).
 */
public enum Optimizer {
  /** Plain SGD: no state. */
  SGD(0),
  /** SGD with momentum: one buffer. */
  SGD_MOMENTUM(1),
  /** Adam: first and second moments. */
  ADAM(2),
  /** AdamW: first and second moments. */
  ADAMW(2),
  /** bitsandbytes 8-bit Adam: two moments in one byte each (counted separately). */
  ADAM_8BIT(2),
  /** Adafactor: factored second moment, about O(rows + cols) per matrix; counted as ~0 per parameter. */
  ADAFACTOR(0),
  /** LAMB: Adam's two moments. */
  LAMB(2),
  /**
   * RMSprop (Tieleman &amp; Hinton 2012, COURSERA "Neural Networks for Machine Learning", lecture 6.5): one running
   * average of squared gradients; PyTorch's {@code torch.optim.RMSprop} defaults (no momentum, not centred) keep
   * only that {@code square_avg} buffer.
   */
  RMSPROP(1);

  private final int stateTensors;

  Optimizer(int stateTensors) {
    this.stateTensors = stateTensors;
  }

  /** Full-size state tensors per parameter. */
  public int stateTensors() {
    return stateTensors;
  }
}
