package io.github.gpusizer.core.task;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

/**
 * How a job is spread over GPUs: data-parallel ranks (with a ZeRO stage), tensor-parallel, pipeline-parallel and
 * context-parallel degrees, and how many GPUs sit in one node.
 *
 * <pre>{@code
 * Layout eight = Layout.dataParallel(8);                          // DDP on one 8-GPU node
 * Layout fsdp = Layout.dataParallel(16).withZero(ZeroStage.STAGE_3).withGpusPerNode(8); // two nodes
 * Layout hsdp = fsdp.withShardGroup(8);            // shard within each node, replicate across the two
 * Layout interleaved = new Layout(8, 1, 4, ZeroStage.STAGE_1, 8).withVirtualStages(2);
 * Layout longContext = new Layout(2, 8, 1, ZeroStage.STAGE_1, 8).withContextParallel(4); // 64 GPUs, 8 nodes
 * }</pre>
 *
 * @param dataParallel data-parallel ranks
 * @param tensorParallel tensor-parallel degree (kept within a node)
 * @param pipelineParallel pipeline stages
 * @param zero how data-parallel ranks shard training state
 * @param gpusPerNode GPUs in one node; the job spans {@code gpus() / gpusPerNode} nodes
 * @param shardGroup data-parallel ranks that share one copy of the ZeRO-sharded state: {@code dataParallel} for full
 *     sharding; fewer for hybrid sharding (FSDP {@code HYBRID_SHARD} / HSDP, DeepSpeed's hierarchical partitioning),
 *     where each group of {@code shardGroup} ranks shards the state and the {@code dataParallel / shardGroup} groups
 *     all-reduce their gradient shards; always {@code dataParallel} without ZeRO
 * @param virtualStages model chunks per pipeline rank in an interleaved 1F1B schedule (Megatron-LM's virtual
 *     pipeline stages; Narayanan et al. 2021, §2.2.2): the bubble shrinks {@code virtualStages}-fold and each
 *     micro-batch crosses the stage boundaries {@code virtualStages} times as often; 1 without interleaving
 * @param contextParallel GPUs that split each sequence between them (context parallelism: Megatron-LM's
 *     {@code --context-parallel-size}, ring attention after Liu et al. 2023, arXiv:2310.01889): each holds
 *     {@code 1/contextParallel} of every sample's tokens and their activations, the key/value blocks travel around
 *     the ring while attention computes, the weights are replicated, and gradients are reduced (and ZeRO state
 *     sharded) over {@code dataParallel × contextParallel} ranks, as Megatron-LM's data-parallel group with context
 *     parallelism; 1 without
 */
public record Layout(int dataParallel, int tensorParallel, int pipelineParallel, ZeroStage zero, int gpusPerNode,
                     int shardGroup, int virtualStages, int contextParallel) {

  public Layout {
    checkArgument(dataParallel >= 1, "data-parallel ranks must be >= 1, was %s", dataParallel);
    checkArgument(tensorParallel >= 1, "tensor-parallel degree must be >= 1, was %s", tensorParallel);
    checkArgument(pipelineParallel >= 1, "pipeline-parallel degree must be >= 1, was %s", pipelineParallel);
    checkNotNull(zero, "zero");
    checkArgument(gpusPerNode >= 1, "GPUs per node must be >= 1, was %s", gpusPerNode);
    checkArgument(contextParallel >= 1, "context-parallel degree must be >= 1, was %s", contextParallel);
    long gpus = (long) dataParallel * tensorParallel * pipelineParallel * contextParallel;
    checkArgument(gpus <= 1_000_000, "a layout of %s GPUs is beyond any cluster (at most 1,000,000)", gpus);
    checkArgument(gpus <= gpusPerNode || gpus % gpusPerNode == 0,
        "%s GPUs do not fill whole nodes of %s GPUs", gpus, gpusPerNode);
    checkArgument(tensorParallel <= gpusPerNode, "tensor parallelism (%s) must stay within a node of %s GPUs",
        tensorParallel, gpusPerNode);
    checkArgument(shardGroup >= 1 && shardGroup <= dataParallel && dataParallel % shardGroup == 0,
        "shard group must divide the %s data-parallel ranks, was %s", dataParallel, shardGroup);
    if (zero == ZeroStage.NONE) {
      shardGroup = dataParallel; // nothing is sharded: every rank is its own replica
    }
    checkArgument(virtualStages >= 1, "virtual pipeline stages must be >= 1, was %s", virtualStages);
    checkArgument(virtualStages == 1 || pipelineParallel > 1,
        "virtual pipeline stages (%s) need pipeline parallelism, which is 1", virtualStages);
  }

  /** No context parallelism. */
  public Layout(int dataParallel, int tensorParallel, int pipelineParallel, ZeroStage zero, int gpusPerNode,
                int shardGroup, int virtualStages) {
    this(dataParallel, tensorParallel, pipelineParallel, zero, gpusPerNode, shardGroup, virtualStages, 1);
  }

  /** Full sharding over all data-parallel ranks, no interleaving and no context parallelism. */
  public Layout(int dataParallel, int tensorParallel, int pipelineParallel, ZeroStage zero, int gpusPerNode) {
    this(dataParallel, tensorParallel, pipelineParallel, zero, gpusPerNode, dataParallel, 1, 1);
  }

  /** One GPU. */
  public static Layout single() {
    return new Layout(1, 1, 1, ZeroStage.NONE, 1);
  }

  /** Plain DDP over {@code gpus} GPUs in one node. */
  public static Layout dataParallel(int gpus) {
    return new Layout(gpus, 1, 1, ZeroStage.NONE, gpus);
  }

  /** This layout with another ZeRO stage; a hybrid shard group is kept (full sharding when it was unsharded). */
  public Layout withZero(ZeroStage stage) {
    int group = zero == ZeroStage.NONE ? dataParallel : shardGroup;
    return new Layout(dataParallel, tensorParallel, pipelineParallel, stage, gpusPerNode, group, virtualStages,
        contextParallel);
  }

  public Layout withGpusPerNode(int perNode) {
    return new Layout(dataParallel, tensorParallel, pipelineParallel, zero, perNode, shardGroup, virtualStages,
        contextParallel);
  }

  public Layout withTensorParallel(int degree) {
    return new Layout(dataParallel, degree, pipelineParallel, zero, gpusPerNode, shardGroup, virtualStages,
        contextParallel);
  }

  public Layout withPipelineParallel(int degree) {
    return new Layout(dataParallel, tensorParallel, degree, zero, gpusPerNode, shardGroup,
        degree > 1 ? virtualStages : 1, contextParallel);
  }

  /**
   * Hybrid sharding: groups of {@code ranks} data-parallel ranks each shard the ZeRO state, and the groups
   * all-reduce their gradient shards (FSDP {@code HYBRID_SHARD}); {@code dataParallel} is full sharding.
   *
   * @throws IllegalArgumentException if {@code ranks} does not divide the data-parallel ranks
   */
  public Layout withShardGroup(int ranks) {
    return new Layout(dataParallel, tensorParallel, pipelineParallel, zero, gpusPerNode, ranks, virtualStages,
        contextParallel);
  }

  /**
   * An interleaved pipeline schedule with {@code chunks} model chunks per pipeline rank.
   *
   * @throws IllegalArgumentException if {@code chunks < 1}, or {@code chunks > 1} without pipeline parallelism
   */
  public Layout withVirtualStages(int chunks) {
    return new Layout(dataParallel, tensorParallel, pipelineParallel, zero, gpusPerNode, shardGroup, chunks,
        contextParallel);
  }

  /**
   * Context parallelism of {@code degree} GPUs per sequence: each of them holds {@code 1/degree} of every sample's
   * tokens; the layout's GPUs grow {@code degree}-fold. Whether the degree divides the task's sequence, and whether
   * the task can be split so (a transformer trained with FlashAttention), the estimator checks.
   *
   * @throws IllegalArgumentException if {@code degree < 1}
   */
  public Layout withContextParallel(int degree) {
    return new Layout(dataParallel, tensorParallel, pipelineParallel, zero, gpusPerNode, shardGroup, virtualStages,
        degree);
  }

  /** Whether the ZeRO state is sharded in groups smaller than the data-parallel ranks (hybrid sharding). */
  public boolean hybridSharded() {
    return shardGroup < dataParallel;
  }

  /** All GPUs: {@code dataParallel × tensorParallel × pipelineParallel × contextParallel}. */
  public int gpus() {
    return dataParallel * tensorParallel * pipelineParallel * contextParallel;
  }

  /**
   * Ranks that reduce each gradient (and share the ZeRO-sharded state when fully sharded):
   * {@code dataParallel × contextParallel}.
   */
  public int gradientRanks() {
    return dataParallel * contextParallel;
  }

  /** Nodes the layout spans. */
  public int nodes() {
    return Math.max(1, gpus() / gpusPerNode);
  }

  /**
   * The layout in a few words, as tables show it: {@link #toString} for training ({@code "FSDP/ZeRO-3 x8, TP 2, 2
   * nodes"}); for inference the data-parallel ranks are replicas that share nothing ({@code "4 replicas, TP 2"},
   * {@code "1 replica"}).
   */
  public String describe(boolean training) {
    if (training) {
      return toString();
    }
    StringBuilder s = new StringBuilder().append(dataParallel).append(dataParallel == 1 ? " replica" : " replicas");
    appendSplits(s);
    return s.toString();
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    s.append(zero == ZeroStage.NONE ? "DDP" : zero == ZeroStage.STAGE_3 ? "FSDP/ZeRO-3" : "ZeRO-" + zero.number())
        .append(" x").append(dataParallel);
    if (hybridSharded()) {
      s.append(" (hybrid, shard groups of ").append(shardGroup).append(')');
    }
    appendSplits(s);
    return s.toString();
  }

  /** The model splits (tensor, context, pipeline) and the nodes, each where there is more than one. */
  private void appendSplits(StringBuilder s) {
    if (tensorParallel > 1) {
      s.append(", TP ").append(tensorParallel);
    }
    if (contextParallel > 1) {
      s.append(", CP ").append(contextParallel);
    }
    if (pipelineParallel > 1) {
      s.append(", PP ").append(pipelineParallel);
      if (virtualStages > 1) {
        s.append(" (interleaved x").append(virtualStages).append(')');
      }
    }
    if (nodes() > 1) {
      s.append(", ").append(nodes()).append(" nodes");
    }
  }
}
