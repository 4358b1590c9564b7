package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.Gpu;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The hardware a layout runs on: a GPU model, how many of them per node, how many nodes, and what is known about the
 * network between nodes, the host CPUs and the disk.
 *
 * <pre>{@code
 * Hardware dgx = Hardware.of(a100, 8, 2).withInterNodeGbps(1600);   // two DGX A100, 8 x 200 Gb/s each
 * Hardware desktop = Hardware.of(rtx4090, 1, 1).withCpuCoresPerNode(16).withDiskMBps(125);
 * }</pre>
 *
 * <p>GPUs of one node talk over NVLink when the GPU has it (SXM boards, or a bridged pair of PCIe cards), else over
 * PCIe of the GPU's generation.
 *
 * @param gpu the GPU model
 * @param gpusPerNode GPUs in one node
 * @param nodes nodes
 * @param interNodeGbps network bandwidth out of one node in Gb/s (all its NICs together, e.g. 8 × 200 Gb/s HDR
 *     InfiniBand on a DGX A100 = 1600); empty: the fabric such GPUs usually have is assumed (see
 *     {@link #effectiveInterNodeGbps()})
 * @param cpuCoresPerNode logical CPU cores of one node; empty when the host is still to be sized
 * @param diskMBps sequential read rate of the node's data disk in decimal MB/s; empty when still to be sized
 * @param interNodeFabric what the network between nodes is: on {@link Fabric#ETHERNET} NCCL runs over TCP sockets,
 *     which reach a smaller share of the link than RDMA does (see {@code Links.SOCKET_SHARE}); empty: as the GPU's
 *     class usually has, with RDMA's share
 */
public record Hardware(Gpu gpu, int gpusPerNode, int nodes, OptionalDouble interNodeGbps,
                       OptionalInt cpuCoresPerNode, OptionalDouble diskMBps, Optional<Fabric> interNodeFabric) {

  public Hardware {
    checkNotNull(gpu, "gpu");
    checkArgument(gpusPerNode >= 1, "GPUs per node must be >= 1, was %s", gpusPerNode);
    checkArgument(nodes >= 1, "nodes must be >= 1, was %s", nodes);
    checkArgument((long) gpusPerNode * nodes <= 1_000_000, "%s nodes of %s GPUs is beyond any cluster", nodes,
        gpusPerNode);
    checkNotNull(interNodeGbps, "interNodeGbps");
    interNodeGbps.ifPresent(g -> checkArgument(g > 0 && Double.isFinite(g),
        "inter-node bandwidth must be > 0 Gb/s, was %s", g));
    checkNotNull(cpuCoresPerNode, "cpuCoresPerNode");
    cpuCoresPerNode.ifPresent(c -> checkArgument(c >= 1, "CPU cores per node must be >= 1, was %s", c));
    checkNotNull(diskMBps, "diskMBps");
    diskMBps.ifPresent(d -> checkArgument(d > 0 && Double.isFinite(d), "disk read rate must be > 0 MB/s, was %s", d));
    checkNotNull(interNodeFabric, "interNodeFabric");
  }

  /** Hardware whose network between nodes is of the kind its GPU's class usually has. */
  public Hardware(Gpu gpu, int gpusPerNode, int nodes, OptionalDouble interNodeGbps, OptionalInt cpuCoresPerNode,
                  OptionalDouble diskMBps) {
    this(gpu, gpusPerNode, nodes, interNodeGbps, cpuCoresPerNode, diskMBps, Optional.empty());
  }

  /**
   * Network of a cloud GPU VM on plain Ethernet per GPU, for instances whose catalog row states none: 20 Gb/s, the
   * median of the single-GPU Ethernet sizes whose figure the bundled {@code fabrics.csv} gives (AWS g4dn/g5/g6/g6e
   * and p3 {@code xlarge} sizes, GCP {@code a2-highgpu-1g}, Azure NCasT4_v3, NC A100 v4, NCads H100 v5 and NVadsA10_v5:
   * 8 to 80 Gb/s); cloud providers scale a VM's bandwidth with its size, so an instance of {@code g} GPUs gets
   * {@code g ×} that, up to {@link #ETHERNET_MAX_GBPS}.
   */
  public static final double ETHERNET_GBPS_PER_GPU = 20;

  /**
   * The most an Ethernet-only GPU VM gets when its row states none: 100 Gb/s, the largest Ethernet-only figure in
   * {@code fabrics.csv} (GCP {@code a2-highgpu-8g} and {@code a2-megagpu-16g}, "up to 100 Gbps").
   */
  public static final double ETHERNET_MAX_GBPS = Links.DEFAULT_INTER_NODE_GBPS;

  /** The Ethernet bandwidth assumed for an instance of {@code gpus} GPUs that states none (see above), in Gb/s. */
  public static double ethernetGbps(int gpus) {
    return Math.min(ETHERNET_MAX_GBPS, ETHERNET_GBPS_PER_GPU * gpus);
  }

  /** {@code gpusPerNode × nodes} GPUs; links inside a node follow from the GPU (NVLink or its PCIe generation). */
  public static Hardware of(Gpu gpu, int gpusPerNode, int nodes) {
    return new Hardware(gpu, gpusPerNode, nodes, OptionalDouble.empty(), OptionalInt.empty(), OptionalDouble.empty());
  }

  /** One GPU in one host. */
  public static Hardware single(Gpu gpu) {
    return of(gpu, 1, 1);
  }

  public Hardware withInterNodeGbps(double gbps) {
    return new Hardware(gpu, gpusPerNode, nodes, OptionalDouble.of(gbps), cpuCoresPerNode, diskMBps,
        interNodeFabric);
  }

  /** The same hardware with nodes joined by {@code fabric}, e.g. {@link Fabric#ETHERNET} for VMs without RDMA. */
  public Hardware withInterNodeFabric(Fabric fabric) {
    return new Hardware(gpu, gpusPerNode, nodes, interNodeGbps, cpuCoresPerNode, diskMBps,
        Optional.of(checkNotNull(fabric, "fabric")));
  }

  public Hardware withCpuCoresPerNode(int cores) {
    return new Hardware(gpu, gpusPerNode, nodes, interNodeGbps, OptionalInt.of(cores), diskMBps, interNodeFabric);
  }

  public Hardware withDiskMBps(double mbps) {
    return new Hardware(gpu, gpusPerNode, nodes, interNodeGbps, cpuCoresPerNode, OptionalDouble.of(mbps),
        interNodeFabric);
  }

  /**
   * Network bandwidth out of one node in Gb/s as the estimator uses it: {@link #interNodeGbps()} when given, else the
   * fabric of the GPU's class. SXM, OAM and superchip training GPUs assume one InfiniBand/RoCE/EFA port per GPU:
   * 400 Gb/s from the H100 generation on (DGX H100/H200/B200: 8 × 400 = 3200 Gb/s), 200 Gb/s for the A100
   * generation (DGX A100: 8 × 200 = 1600), 50 Gb/s per GPU before (DGX-1: 4 × 100 for 8 V100); PCIe and consumer
   * cards one 100 Gb/s Ethernet port per node.
   */
  public double effectiveInterNodeGbps() {
    return Links.interNodeGbps(this);
  }

  /** All GPUs: {@code gpusPerNode × nodes}. */
  public int gpus() {
    return gpusPerNode * nodes;
  }
}
