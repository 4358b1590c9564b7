package io.github.gpusizer.core.task;

/** How data-parallel ranks share training state (DeepSpeed ZeRO; FSDP full shard is stage 3). */
public enum ZeroStage {
  /** Plain DDP: every rank keeps everything. */
  NONE,
  /** Optimizer state sharded. */
  STAGE_1,
  /** Optimizer state and gradients sharded. */
  STAGE_2,
  /** Optimizer state, gradients and weights sharded (FSDP FULL_SHARD). */
  STAGE_3;

  /** Stage 0 to 3. */
  public static ZeroStage of(int stage) {
    if (stage < 0 || stage > 3) {
      throw new IllegalArgumentException("ZeRO stage must be 0, 1, 2 or 3 (3 = FSDP full shard), was " + stage);
    }
    return values()[stage];
  }

  public int number() {
    return ordinal();
  }
}
