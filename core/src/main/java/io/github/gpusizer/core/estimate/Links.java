package io.github.gpusizer.core.estimate;

import io.github.gpusizer.catalog.ComputeCapability;
import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.FormFactor;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Vendor;

/** Bandwidth of the links between GPUs, per direction, in GB/s. */
final class Links {
  /**
   * PCIe x16 per direction by generation: 8, 16 and 32 GT/s per lane with 128b/130b coding give 15.75, 31.5 and 63
   * GB/s for Gen3, Gen4 and Gen5 (PCI-SIG, PCI Express Base Specification 3.0/4.0/5.0); Gen2 (5 GT/s, 8b/10b) 8 GB/s.
   */
  static double pcieGBps(Gpu gpu) {
    int generation = gpu.pcieGeneration().orElse(4);
    return switch (generation) {
      case 1 -> 4;
      case 2 -> 8;
      case 3 -> 15.75;
      case 4 -> 31.5;
      case 5 -> 63;
      default -> 63 * Math.pow(2, generation - 5);
    };
  }

  /**
   * Assumed network out of a node of PCIe or consumer cards when the hardware does not say: one 100 Gb/s Ethernet
   * port (12.5 GB/s), the common cloud VM network without InfiniBand or EFA.
   */
  static final double DEFAULT_INTER_NODE_GBPS = 100;

  /**
   * Network per GPU of a Hopper-generation or later training node (SXM, OAM, superchip; released 2022 or later): one
   * 400 Gb/s NDR InfiniBand / Ethernet port per GPU. DGX H100, H200 and B200: "eight single-port NVIDIA ConnectX-7
   * VPI, up to 400 Gb/s InfiniBand/Ethernet" for eight GPUs (NVIDIA DGX BasePOD reference architecture, "Core
   * Components", docs.nvidia.com/dgx-basepod); cloud H100/MI300X nodes (AWS P5 EFA 3200 Gbps, Azure ND H100 v5 and
   * ND MI300X v5 8 × 400 Gb/s) match it.
   */
  static final double HOPPER_GENERATION_GBPS_PER_GPU = 400;

  /**
   * Network per GPU of an A100-generation training node (SXM, OAM; released 2020–2021): one 200 Gb/s HDR InfiniBand
   * port per GPU. DGX A100: eight single-port Mellanox ConnectX-6 HDR 200 Gb/s for the compute fabric (NVIDIA DGX A100
   * datasheet and user guide); Frontier's MI250X nodes: four 200 Gb/s Slingshot NICs for four MI250X.
   */
  static final double AMPERE_GENERATION_GBPS_PER_GPU = 200;

  /**
   * Network per GPU of a Volta/Pascal SXM2 node (released before 2020): DGX-1 has four single-port 100 Gb/s EDR
   * InfiniBand NICs for its eight GPUs (NVIDIA DGX-1 datasheet; naddod.com "HPC networking for DGX servers", 2023).
   */
  static final double VOLTA_GENERATION_GBPS_PER_GPU = 50;

  /** First release year of the A100-generation training nodes (A100, 2020); see the 200 Gb/s per GPU above. */
  static final int AMPERE_GENERATION_YEAR = 2020;

  /** First release year of the H100-generation training nodes (H100, 2022); see the 400 Gb/s per GPU above. */
  static final int HOPPER_GENERATION_YEAR = 2022;

  /**
   * NCCL time of one small collective within a node, the latency floor of tensor-parallel all-reduces while decoding
   * (nccl-tests show all-reduce times of roughly 10 µs for small messages on NVLink systems).
   */
  static final double COLLECTIVE_LATENCY_SECONDS = 10e-6;

  /**
   * NCCL's own latency model for the Simple protocol, the one large messages use (NVIDIA/nccl,
   * src/graph/tuning.cc at commit 01afd20, {@code baseLat} and {@code hwLat} for the ring, in µs): a ring
   * collective costs 8.4 µs plus, per step, 3.4 µs over NVLink, 5.7 µs over PCIe and 9.6 µs across the network.
   */
  static final double RING_BASE_LATENCY_SECONDS = 8.4e-6;
  static final double NVLINK_STEP_LATENCY_SECONDS = 3.4e-6;
  static final double PCIE_STEP_LATENCY_SECONDS = 5.7e-6;
  static final double NETWORK_STEP_LATENCY_SECONDS = 9.6e-6;

  /**
   * Latency of one ring all-gather or reduce-scatter over {@code ranks} GPUs spread over {@code nodes} nodes, as
   * NCCL's tuning model works it out ({@code ncclTopoTuneModel}): {@code ranks − 1} steps, of which
   * {@code nodes − 1} cross the network. NCCL has only the ring for these collectives, so a flat ring over thousands
   * of nodes is slow however small each message.
   */
  static double ringLatencySeconds(Gpu gpu, int ranks, int nodes) {
    if (ranks <= 1) {
      return 0;
    }
    int perNode = Math.max(1, ranks / Math.max(1, nodes));
    double intra = usesNvlink(gpu, perNode) ? NVLINK_STEP_LATENCY_SECONDS : PCIE_STEP_LATENCY_SECONDS;
    int networkSteps = Math.max(0, nodes - 1);
    return RING_BASE_LATENCY_SECONDS + (ranks - 1 - networkSteps) * intra + networkSteps * NETWORK_STEP_LATENCY_SECONDS;
  }

  private Links() {}

  /**
   * Whether {@code gpusInNode} GPUs reach each other over NVLink: SXM/OAM boards and superchips connect all GPUs
   * through NVSwitch or a full mesh; PCIe cards only in bridged pairs.
   */
  static boolean usesNvlink(Gpu gpu, int gpusInNode) {
    if (!gpu.hasNvlink()) {
      return false;
    }
    FormFactor form = gpu.formFactor();
    return form == FormFactor.SXM || form == FormFactor.OAM || form == FormFactor.SUPERCHIP
        || form == FormFactor.TPU || gpusInNode <= 2;
  }

  /**
   * Compute capability of Ada Lovelace (8.9), the first GeForce generation without PCIe peer-to-peer: the RTX 4090
   * lacks the MAILBOXP2P interface GeForce cards used for it ("not present or disabled in hardware on the 4090s, and
   * that's why P2P doesn't work", tinygrad/open-gpu-kernel-modules README, a driver fork that re-enables P2P over
   * BAR1); NVIDIA/nccl issue #1127 (2024) confirms stock 4090s report no peer access, and tinygrad issue #29 (2025)
   * the same for the RTX 5090.
   */
  static final ComputeCapability NO_P2P_GEFORCE = new ComputeCapability(8, 9);

  /**
   * Whether the GPUs of a node can read and write each other's memory over PCIe or NVLink (CUDA peer access,
   * NCCL's P2P transport). GeForce cards from Ada Lovelace on cannot, so NCCL falls back to its SHM transport:
   * "SHM is used between devices when peer-to-peer cannot happen, therefore, host memory is used" (NCCL
   * environment variables, {@code NCCL_SHM_DISABLE}).
   */
  static boolean peerToPeer(Gpu gpu) {
    return !(gpu.vendor() == Vendor.NVIDIA && gpu.formFactor() == FormFactor.CONSUMER
        && gpu.computeCapability().map(cc -> cc.isAtLeast(NO_P2P_GEFORCE)).orElse(false));
  }

  /** Why a GPU has no peer-to-peer path, for warnings. */
  static String noPeerToPeerReason(Gpu gpu) {
    return gpu.name() + "s have no PCIe peer-to-peer (NVIDIA disabled it on GeForce cards from Ada Lovelace on)";
  }

  /**
   * Without peer-to-peer each byte of a collective takes two PCIe trips: the sending GPU copies a chunk into a
   * pinned host buffer, the receiving GPU copies it out once it is complete (NCCL's SHM transport). The chunks are
   * pipelined but each passes the two links and host memory one after the other, so a ring step moves at about
   * half the link rate: the model takes half. The measured ceiling with peer-to-peer re-enabled on the same cards
   * is 24.5 GB/s all-reduce bus bandwidth on PCIe 4.0 (tinygrad README, all_reduce_perf over six RTX 4090s), so
   * the staged path cannot exceed the link.
   */
  static final double HOST_STAGED_SHARE = 0.5;

  /**
   * Per-direction bandwidth between GPUs of one node in GB/s: half the bidirectional NVLink total, PCIe, or, without
   * peer-to-peer, PCIe through host memory.
   */
  static double intraNodeGBps(Gpu gpu, int gpusInNode) {
    if (usesNvlink(gpu, gpusInNode)) {
      return gpu.nvlinkGBps() / 2;
    }
    return peerToPeer(gpu) ? pcieGBps(gpu) : HOST_STAGED_SHARE * pcieGBps(gpu);
  }

  /** The path the bytes between the GPUs of one node take, in words. */
  static String intraNodePath(Gpu gpu, int gpusInNode) {
    if (usesNvlink(gpu, gpusInNode)) {
      return "NVLink";
    }
    return peerToPeer(gpu) ? "PCIe peer-to-peer" : "PCIe through host memory (no peer-to-peer)";
  }

  /**
   * The share of a plain Ethernet link NCCL's socket transport (TCP, no RDMA) reaches in ring collectives: about half.
   * All-reduce bus bandwidth of 4–6 GB/s on 100 Gb/s TCP between four 8 × V100 nodes, "less than half" of the link
   * (NVIDIA/nccl issue #450, 2021); 1.7 GB/s on Azure V100 VMs whose TCP benchmark measured 25 Gb/s, 54% (NVIDIA/
   * nccl-tests issue #83, 2021: NCCL moves each flow at the slowest of its sockets); 14.5–22.9 Gb/s with 8 GPUs per
   * node on GCP's 32 Gb/s VMs, 45–72% (NVIDIA/nccl issue #209, 2019). RDMA fabrics reach {@code Efficiency.LINK}.
   */
  static final double SOCKET_SHARE = 0.5;

  /**
   * Network bandwidth out of one node in GB/s (per direction), as the collectives' link efficiency is applied to: on
   * {@link Fabric#ETHERNET} scaled by {@link #SOCKET_SHARE} over RDMA's {@code Efficiency.LINK}, so that the default
   * efficiency gives the socket transport's share.
   */
  static double interNodeGBps(Hardware hardware) {
    double gbps = interNodeGbps(hardware) / 8;
    return hardware.interNodeFabric().orElse(Fabric.CLUSTER) == Fabric.ETHERNET
        ? gbps * SOCKET_SHARE / Efficiency.LINK : gbps;
  }

  /** Network bandwidth out of one node in Gb/s: the hardware's own figure, else {@link #defaultInterNodeGbps}. */
  static double interNodeGbps(Hardware hardware) {
    return hardware.interNodeGbps().orElseGet(() -> defaultInterNodeGbps(hardware.gpu(), hardware.gpusPerNode()));
  }

  /**
   * The cluster fabric a node of {@code gpusPerNode} such GPUs usually has: data-centre training GPUs on SXM, OAM or
   * superchip modules sit in rail-optimised clusters with one InfiniBand/RoCE/EFA port per GPU (400 Gb/s from the
   * H100 generation, 200 Gb/s for the A100 generation, 50 Gb/s per GPU on DGX-1); PCIe and consumer cards (and TPUs,
   * which leave a pod over the data-centre network) get one 100 Gb/s Ethernet port per node.
   */
  static double defaultInterNodeGbps(Gpu gpu, int gpusPerNode) {
    FormFactor form = gpu.formFactor();
    if (form != FormFactor.SXM && form != FormFactor.OAM && form != FormFactor.SUPERCHIP) {
      return DEFAULT_INTER_NODE_GBPS;
    }
    double perGpu = gpu.releaseYear() >= HOPPER_GENERATION_YEAR ? HOPPER_GENERATION_GBPS_PER_GPU
        : gpu.releaseYear() >= AMPERE_GENERATION_YEAR ? AMPERE_GENERATION_GBPS_PER_GPU
        : VOLTA_GENERATION_GBPS_PER_GPU;
    return Math.max(DEFAULT_INTER_NODE_GBPS, perGpu * gpusPerNode);
  }
}
