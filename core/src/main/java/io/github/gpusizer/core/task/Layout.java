package io.github.gpusizer.core.task;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * How a job is spread over GPUs: data-parallel ranks (with a ZeRO stage), tensor-parallel and pipeline-parallel
 * degrees, and how many GPUs sit in one node.
 *
 * <pre>{@code
 * Layout eight = Layout.dataParallel(8);                          // DDP on one 8-GPU node
 * Layout fsdp = Layout.dataParallel(16).withZero(ZeroStage.STAGE_3).withGpusPerNode(8); // two nodes
 * }</pre>
 *
 * @param dataParallel data-parallel ranks
 * @param tensorParallel tensor-parallel degree (kept within a node)
 * @param pipelineParallel pipeline stages
 * @param zero how data-parallel ranks shard training state
 * @param gpusPerNode GPUs in one node; the job spans {@code gpus() / gpusPerNode} nodes
 */
public record Layout(int dataParallel, int tensorParallel, int pipelineParallel, ZeroStage zero, int gpusPerNode) {

  public Layout {
    checkArgument(dataParallel >= 1, "data-parallel ranks must be >= 1, was %s", dataParallel);
    checkArgument(tensorParallel >= 1, "tensor-parallel degree must be >= 1, was %s", tensorParallel);
    checkArgument(pipelineParallel >= 1, "pipeline-parallel degree must be >= 1, was %s", pipelineParallel);
    checkNotNull(zero, "zero");
    checkArgument(gpusPerNode >= 1, "GPUs per node must be >= 1, was %s", gpusPerNode);
    long gpus = (long) dataParallel * tensorParallel * pipelineParallel;
    checkArgument(gpus <= 1_000_000, "a layout of %s GPUs is beyond any cluster (at most 1,000,000)", gpus);
    checkArgument(gpus <= gpusPerNode || gpus % gpusPerNode == 0,
        "%s GPUs do not fill whole nodes of %s GPUs", gpus, gpusPerNode);
    checkArgument(tensorParallel <= gpusPerNode, "tensor parallelism (%s) must stay within a node of %s GPUs",
        tensorParallel, gpusPerNode);
  }

  /** One GPU. */
  public static Layout single() {
    return new Layout(1, 1, 1, ZeroStage.NONE, 1);
  }

  /** Plain DDP over {@code gpus} GPUs in one node. */
  public static Layout dataParallel(int gpus) {
    return new Layout(gpus, 1, 1, ZeroStage.NONE, gpus);
  }

  public Layout withZero(ZeroStage stage) {
    return new Layout(dataParallel, tensorParallel, pipelineParallel, stage, gpusPerNode);
  }

  public Layout withGpusPerNode(int perNode) {
    return new Layout(dataParallel, tensorParallel, pipelineParallel, zero, perNode);
  }

  public Layout withTensorParallel(int degree) {
    return new Layout(dataParallel, degree, pipelineParallel, zero, gpusPerNode);
  }

  public Layout withPipelineParallel(int degree) {
    return new Layout(dataParallel, tensorParallel, degree, zero, gpusPerNode);
  }

  /** All GPUs: {@code dataParallel × tensorParallel × pipelineParallel}. */
  public int gpus() {
    return dataParallel * tensorParallel * pipelineParallel;
  }

  /** Nodes the layout spans. */
  public int nodes() {
    return Math.max(1, gpus() / gpusPerNode);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    s.append(zero == ZeroStage.NONE ? "DDP" : zero == ZeroStage.STAGE_3 ? "FSDP/ZeRO-3" : "ZeRO-" + zero.number())
        .append(" x").append(dataParallel);
    if (tensorParallel > 1) {
      s.append(", TP ").append(tensorParallel);
    }
    if (pipelineParallel > 1) {
      s.append(", PP ").append(pipelineParallel);
    }
    if (nodes() > 1) {
      s.append(", ").append(nodes()).append(" nodes");
    }
    return s.toString();
  }
}
