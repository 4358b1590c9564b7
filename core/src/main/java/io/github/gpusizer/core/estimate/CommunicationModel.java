package io.github.gpusizer.core.estimate;

import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.ZeroStage;

/**
 * Traffic between GPUs and how much of it the computation hides.
 *
 * <ul>
 *   <li>Data parallelism: a ring all-reduce moves {@code 2(n−1)/n} of the gradient bytes through every GPU (Patarasuk
 *       &amp; Yuan 2009); ZeRO-1/2 replace it with a reduce-scatter and an all-gather of the same volume, ZeRO-3 adds
 *       a second all-gather of the weights, 1.5× the volume (Rajbhandari et al. 2020, "ZeRO", §7). DDP starts
 *       reducing 25 MB buckets while the backward pass goes on (Li et al. 2020, "PyTorch Distributed", §3.2.3), so
 *       only what outlasts the last micro-batch's backward pass, and the last bucket, is exposed. ZeRO-3/FSDP
 *       gathers each layer ahead of use in the forward and backward passes of every micro-batch; its last
 *       reduce-scatter, like DDP's last bucket, is exposed.
 *   <li>Tensor parallelism: 4 all-reduces of the {@code b·s·h} activations per layer per micro-batch (2 forward,
 *       2 backward; Shoeybi et al. 2019, "Megatron-LM", §3; 6 with full recomputation), not overlapped.
 *   <li>Pipeline parallelism: each stage boundary sends the activations forward and their gradients back.
 *   <li>Context parallelism: ring attention passes key/value blocks around the {@code cp} ranks of a sequence,
 *       overlapped with the attention of each block; the gradients are reduced over {@code dp × cp} ranks.
 * </ul>
 *
 * A group spread over nodes is limited by the node's network, shared by the node's groups.
 */
final class CommunicationModel {
  /** PyTorch DDP's default {@code bucket_cap_mb = 25}. */
  static final double DDP_BUCKET_BYTES = 25e6;

  private CommunicationModel() {}

  /** Seconds of communication per training step that the computation does not hide. */
  record Exposed(double dataParallel, double tensorParallel, double pipeline, double contextParallel) {
    double seconds() {
      return dataParallel + tensorParallel + pipeline + contextParallel;
    }
  }

  static Exposed training(Job job, ComputeModel.Micro micro) {
    double m = job.accumulation;
    double dataParallel = 0;
    if (job.gradientRanks > 1) {
      // data-parallel ranks, and with context parallelism their context-parallel ranks: dp × cp reduce each gradient
      double trainable = MemoryModel.trainableParameters(job) * job.modelShard(1);
      double gradientBytes = trainable * reducedGradientBytes(job);
      boolean hybrid = job.zero != ZeroStage.NONE && job.shard < job.gradientRanks;
      // ZeRO's collectives run within a shard group: all data-parallel ranks, or one group of a hybrid layout
      double bandwidth = hybrid ? shardGroupBandwidth(job) : dataParallelBandwidth(job);
      double ranks = hybrid ? job.shard : job.gradientRanks;
      double ring = (ranks - 1.0) / ranks;
      int dpNodes = hybrid ? shardGroupNodes(job) : dataParallelNodes(job);
      double replicas = hybrid ? replicaAllReduceSeconds(job, gradientBytes / job.shard) : 0;
      if (job.zero == ZeroStage.STAGE_3) {
        double weightBytes = job.parameters * job.modelShard(1) * job.computeBytes;
        // FSDP gathers and reduces each wrapped unit (a transformer block) on its own: one collective's latency each
        double units = job.model instanceof Transformer t ? Math.ceil((double) t.totalLayers() / job.pp) : 1;
        double latency = units * Links.ringLatencySeconds(job.gpu, job.gradientRanks, dpNodes);
        double gather = ring * weightBytes / bandwidth + latency;
        double reduceScatter = ring * gradientBytes / bandwidth + latency;
        if (hostStaged(job)) {
          dataParallel = m * (2 * gather + reduceScatter) + replicas;
        } else {
          double perMicro = Math.max(0, gather - micro.forwardSeconds())
              + Math.max(0, gather + reduceScatter - micro.backwardSeconds());
          // As with DDP, the gradients reduced last leave nothing to overlap with: counted at DDP's bucket size.
          double lastBucket = reduceScatter * Math.min(1, DDP_BUCKET_BYTES / Math.max(1, gradientBytes));
          // HSDP all-reduces each unit's gradient shard across the groups after its reduce-scatter, overlapped
          // with the rest of the last micro-batch's backward pass like DDP's buckets
          double replicaExposed = replicas == 0 ? 0 : Math.max(0, replicas - micro.backwardSeconds())
              + replicas * Math.min(1, DDP_BUCKET_BYTES / Math.max(1, gradientBytes / job.shard));
          dataParallel = m * perMicro + lastBucket + replicaExposed;
        }
      } else if (hybrid) {
        // ZeRO-1/2 in groups: reduce-scatter and all-gather within the group, the gradient shard all-reduced across
        double inGroup = 2 * ring * gradientBytes / bandwidth;
        double total = inGroup + replicas;
        double lastBucket = total * Math.min(1, DDP_BUCKET_BYTES / Math.max(1, gradientBytes));
        dataParallel = hostStaged(job) ? total : Math.max(0, total - micro.backwardSeconds()) + lastBucket;
      } else {
        // No latency term: NCCL reduces the buckets over its tree (latency growing with log2 of the nodes), and
        // they overlap the backward pass; the flat ring's per-step latency matters for ZeRO-3's gathers above.
        double allReduce = 2 * ring * gradientBytes / bandwidth;
        double lastBucket = allReduce * Math.min(1, DDP_BUCKET_BYTES / Math.max(1, gradientBytes));
        dataParallel = hostStaged(job) ? allReduce : Math.max(0, allReduce - micro.backwardSeconds()) + lastBucket;
      }
    }
    double tensorParallel = 0;
    double pipeline = 0;
    double contextParallel = 0;
    if (job.model instanceof Transformer t) {
      double activation = job.microTokens() * t.hidden() * job.activationBytes;
      double stageLayers = (double) t.totalLayers() / job.pp;
      if (job.tp > 1) {
        double perAllReduce = 2 * (job.tp - 1.0) / job.tp * activation
            / (Links.intraNodeGBps(job.gpu, job.tp) * 1e9 * job.tuning.linkEfficiency()) + Links.COLLECTIVE_LATENCY_SECONDS;
        double count = (job.task.checkpointing() == Checkpointing.FULL ? 6 : 4) * stageLayers;
        tensorParallel = m * count * perAllReduce;
      }
      if (job.pp > 1) {
        double perHop = activation / job.tp / pipelineBandwidth(job);
        // an interleaved schedule sends each micro-batch across the ranks once per model chunk
        pipeline = m * 2 * perHop * job.virtualStages;
      }
      if (job.cp > 1) {
        contextParallel = m * stageLayers * contextParallelLayerSeconds(job, t);
      }
    }
    return new Exposed(dataParallel, tensorParallel, pipeline, contextParallel);
  }

  /**
   * The ring attention of one layer and one micro-batch under context parallelism, as far as attention does not hide
   * it (Liu et al. 2023, "Ring Attention with Blockwise Transformers", arXiv:2310.01889, §3; Megatron-LM's context
   * parallelism, Transformer Engine's {@code AttnFuncWithCPAndKVP2P}): the forward pass sends this GPU's key/value
   * block ({@code 2 · tokens/cp · kvDim/tp} elements) to the next rank {@code cp − 1} times, each hop overlapping
   * the attention of the block that has just arrived; the backward pass sends the key/value blocks round again and
   * their gradients with them, twice the bytes, overlapping the backward attention of each block (2.5× the forward
   * work). A hop outlasting its block's attention shows; each pays a collective's latency.
   */
  static double contextParallelLayerSeconds(Job job, Transformer t) {
    double block = 2 * job.microTokens() * t.kvDim() / job.tp * job.activationBytes;
    double bandwidth = contextParallelBandwidth(job);
    double forwardHop = block / bandwidth + Links.COLLECTIVE_LATENCY_SECONDS;
    double backwardHop = 2 * block / bandwidth + Links.COLLECTIVE_LATENCY_SECONDS;
    double attention = ComputeModel.flashAttentionSecondsPerLayer(job, t) / job.cp; // one block's share
    double hops = job.cp - 1.0;
    return hops * (Math.max(0, forwardHop - attention)
        + Math.max(0, backwardHop - ComputeModel.FLASH_BACKWARD_WORK * attention));
  }

  /**
   * Bytes per second a context-parallel ring moves through each GPU. Megatron-LM orders ranks tensor-parallel first,
   * then context-parallel, so a ring spans {@code tp × cp} consecutive GPUs: the intra-node link while they fit a
   * node; beyond it, every GPU of a node sends over the network at once (each tensor-parallel rank has its own ring),
   * a {@code 1/gpusPerNode} share of the node's network each.
   */
  static double contextParallelBandwidth(Job job) {
    int perNode = job.hardware.gpusPerNode();
    int ring = job.cp * job.tp;
    double intra = Links.intraNodeGBps(job.gpu, Math.min(ring, perNode));
    double bandwidth = ring > perNode ? Math.min(intra, Links.interNodeGBps(job.hardware) / perNode) : intra;
    return bandwidth * 1e9 * job.tuning.linkEfficiency();
  }

  /**
   * Whether the data-parallel collectives are staged through host memory and taken as not overlapping the
   * computation: GPUs of one node without peer-to-peer ({@link Links#peerToPeer}). NCCL's SHM transport then moves
   * every chunk with the GPUs' own kernels into and out of pinned host buffers over PCIe, competing with the
   * training kernels for the SMs and the one PCIe link the data loader also uses; the model counts the collectives
   * in full rather than promise an overlap nobody has measured on such boards. It keeps the rule a sizer must not
   * break: a pair of such cards is never faster per GPU than one card at the same micro-batch and checkpointing,
   * though ZeRO shards the optimizer step between them.
   */
  static boolean hostStaged(Job job) {
    return !Links.peerToPeer(job.gpu) && Math.min(job.layout.gpus(), job.hardware.gpusPerNode()) > 1;
  }

  /**
   * Bytes per gradient element as the data-parallel reduction sends them: the recipe's gradient format (FP32 under
   * autocast, as PyTorch DDP, torchtitan's FSDP2 and Megatron-LM reduce), or the 16-bit activation format where the
   * framework reduces in it ({@link io.github.gpusizer.core.task.Framework.Profile#reducesInComputePrecision}).
   */
  static double reducedGradientBytes(Job job) {
    int gradient = job.precision.gradientBytes();
    return job.task.framework().profile().reducesInComputePrecision()
        ? Math.min(gradient, job.activationBytes) : gradient;
  }

  /** Tensor-parallel all-reduces while serving: 2 per layer per forward pass (prefill and every decode step). */
  static double inference(Job job, double generated) {
    return tensorParallelPass(job, job.microTokens()) + generated * tensorParallelPass(job, job.microBatch);
  }

  /**
   * The 2 all-reduces per layer of one tensor-parallel forward pass over {@code tokens} tokens (Shoeybi et al. 2019,
   * "Megatron-LM", §3: one after the attention block, one after the MLP): a ring moves {@code 2(n−1)/n} of the
   * {@code tokens × hidden} activations through each GPU, plus NCCL's small-message latency; 0 without tensor
   * parallelism.
   */
  static double tensorParallelPass(Job job, double tokens) {
    if (job.tp <= 1 || !(job.model instanceof Transformer t)) {
      return 0;
    }
    double bandwidth = Links.intraNodeGBps(job.gpu, job.tp) * 1e9 * job.tuning.linkEfficiency();
    double ring = 2 * (job.tp - 1.0) / job.tp;
    return 2 * t.totalLayers() * (ring * tokens * t.hidden() * job.activationBytes / bandwidth
        + Links.COLLECTIVE_LATENCY_SECONDS);
  }

  /**
   * Bytes per second a data-parallel ring moves through each GPU: the intra-node link, and, when the group spans
   * nodes, the node's network shared by the {@code tp × pp} groups of the node.
   */
  static double dataParallelBandwidth(Job job) {
    return ringBandwidth(job, job.layout.gpus());
  }

  /**
   * Bytes per second a hybrid layout's shard group moves through each GPU: the intra-node link while the group's
   * {@code shard × tp × pp} GPUs fit one node (HSDP's purpose), else the node's network shared as for
   * {@link #dataParallelBandwidth}.
   */
  static double shardGroupBandwidth(Job job) {
    return ringBandwidth(job, job.shard * job.tp * job.pp);
  }

  /** Bytes per second through each GPU of a ring over {@code gpus} GPUs of the job's layout (see above). */
  private static double ringBandwidth(Job job, int gpus) {
    int perNode = job.hardware.gpusPerNode();
    double intra = Links.intraNodeGBps(job.gpu, Math.min(gpus, perNode));
    double bandwidth = intra;
    if (gpus > perNode) {
      double groupsPerNode = Math.min(perNode, (double) job.tp * job.pp);
      bandwidth = Math.min(intra, Links.interNodeGBps(job.hardware) / groupsPerNode);
    }
    return bandwidth * 1e9 * job.tuning.linkEfficiency();
  }

  /** Nodes a hybrid layout's shard group spans. */
  private static int shardGroupNodes(Job job) {
    int groupGpus = job.shard * job.tp * job.pp;
    return Math.max(1, Math.min(job.shard, (int) Math.ceil((double) groupGpus / job.hardware.gpusPerNode())));
  }

  /**
   * Seconds of the ring all-reduce of one GPU's gradient shard across the {@code dp / shard} groups of a hybrid
   * layout ({@code 2(r − 1)/r} of the shard). The groups sit on different nodes once a group fills a node, and then
   * every GPU of a node runs its own ring over the node's network at once.
   */
  static double replicaAllReduceSeconds(Job job, double shardBytes) {
    double r = (double) job.gradientRanks / job.shard;
    int perNode = job.hardware.gpusPerNode();
    boolean acrossNodes = job.layout.gpus() > perNode && job.shard * job.tp * job.pp >= perNode;
    double gbps = acrossNodes ? Math.min(Links.intraNodeGBps(job.gpu, perNode), Links.interNodeGBps(job.hardware)
        / perNode) : Links.intraNodeGBps(job.gpu, Math.min(job.layout.gpus(), perNode));
    return 2 * (r - 1) / r * shardBytes / (gbps * 1e9 * job.tuning.linkEfficiency());
  }

  /** Nodes a data-parallel group spans: one rank per node once the layout's GPUs fill more than one node. */
  private static int dataParallelNodes(Job job) {
    int perNode = job.hardware.gpusPerNode();
    int nodes = (int) Math.ceil((double) job.layout.gpus() / perNode);
    return Math.max(1, Math.min(job.gradientRanks, nodes));
  }

  private static double pipelineBandwidth(Job job) {
    int perNode = job.hardware.gpusPerNode();
    double intra = Links.intraNodeGBps(job.gpu, Math.min(job.layout.gpus(), perNode));
    double bandwidth = job.layout.gpus() > perNode ? Math.min(intra, Links.interNodeGBps(job.hardware) / perNode)
        : intra;
    return bandwidth * 1e9 * job.tuning.linkEfficiency();
  }
}
