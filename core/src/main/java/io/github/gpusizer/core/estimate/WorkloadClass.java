package io.github.gpusizer.core.estimate;

import io.github.gpusizer.core.model.ConvNet;

/**
 * The workload classes whose calibration errors give the error bands ({@code error-bands.tsv}): few enough that
 * each holds several calibration cases, apart enough that their errors differ (CNN kernels, transformer
 * training within a node and across nodes, adapters' host-bound steps, bandwidth-bound decoding).
 */
enum WorkloadClass {
  CNN_TRAINING("CNN (vision) training"),
  TRAINING_ONE_NODE("training of transformers and other sequence models, one node"),
  TRAINING_MULTI_NODE("training of transformers and other sequence models, several nodes"),
  ADAPTER_TRAINING("LoRA/QLoRA fine-tuning"),
  INFERENCE("inference (prefill and decode, any model)");

  private final String label;

  WorkloadClass(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }

  /** The class of a job: inference first, then adapters, CNNs, and the rest by the nodes its layout occupies. */
  static WorkloadClass of(Job job) {
    if (!job.training) {
      return INFERENCE;
    }
    if (job.adapter) {
      return ADAPTER_TRAINING;
    }
    if (job.model instanceof ConvNet) {
      return CNN_TRAINING;
    }
    return job.nodes > 1 ? TRAINING_MULTI_NODE : TRAINING_ONE_NODE;
  }
}
