package io.github.gpusizer.core.task;

/** What is done with the model. */
public enum TaskKind {
  /** Training from scratch. */
  PRETRAINING,
  /** Training all weights of a pre-trained model. */
  FULL_FINE_TUNING,
  /** Low-rank adapters on frozen 16-bit base weights. */
  LORA,
  /** Low-rank adapters on frozen 4-bit (NF4) base weights. */
  QLORA,
  /** Serving: forward passes only, with a KV cache for generation. */
  INFERENCE;

  public boolean isTraining() {
    return this != INFERENCE;
  }

  public boolean isAdapter() {
    return this == LORA || this == QLORA;
  }

  /**
   * Whether the model's layers can be split between GPUs (tensor, pipeline or context parallelism). Not for QLoRA:
   * its 4-bit base weights are bitsandbytes {@code Linear4bit} layers, which the trainers that run QLoRA spread over
   * GPUs only by data parallelism and by sharding them whole (Hugging Face PEFT 0.10.0 release notes, 2024-03-21:
   * "Support for QLoRA with DeepSpeed ZeRO3 and FSDP", a 70B Llama on two 24 GB GPUs; PEFT's DeepSpeed guide lists
   * ZeRO-1, -2 and -3 as compatible with bitsandbytes quantization + LoRA); Megatron-LM and NeMo, which split layers,
   * train LoRA on 16-bit weights only.
   */
  public boolean splitsLayers() {
    return this != QLORA;
  }
}
