package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import org.junit.jupiter.api.Test;

/** The network between nodes when the hardware does not state it: the fabric of the GPU's class. */
class LinksTest {
  @Test
  void h100_sxm_nodes_assume_eight_400_gbps_ports_as_on_a_dgx_h100() {
    assertThat(Hardware.of(TestGpus.H100_SXM, 8, 4).effectiveInterNodeGbps()).isEqualTo(3200);
    assertThat(Hardware.of(TestGpus.H200_SXM, 8, 2).effectiveInterNodeGbps()).isEqualTo(3200);
  }

  @Test
  void a100_sxm_nodes_assume_eight_200_gbps_ports_as_on_a_dgx_a100() {
    assertThat(Hardware.of(TestGpus.A100_SXM4_80GB, 8, 2).effectiveInterNodeGbps()).isEqualTo(1600);
  }

  @Test
  void the_fabric_scales_with_the_gpus_of_a_node_one_port_per_gpu() {
    assertThat(Hardware.of(TestGpus.H100_SXM, 4, 2).effectiveInterNodeGbps()).isEqualTo(1600);
  }

  @Test
  void v100_sxm2_nodes_assume_a_dgx_1s_four_100_gbps_ports() {
    assertThat(Hardware.of(TestGpus.V100_SXM2_16GB, 8, 2).effectiveInterNodeGbps()).isEqualTo(400);
  }

  @Test
  void pcie_and_consumer_cards_assume_one_100_gbps_ethernet_port_per_node() {
    assertThat(Hardware.of(TestGpus.T4, 8, 2).effectiveInterNodeGbps()).isEqualTo(100);
    assertThat(Hardware.of(TestGpus.RTX_4090, 8, 2).effectiveInterNodeGbps()).isEqualTo(100);
  }

  @Test
  void a_stated_bandwidth_overrides_the_default() {
    assertThat(Hardware.of(TestGpus.H100_SXM, 8, 2).withInterNodeGbps(100).effectiveInterNodeGbps()).isEqualTo(100);
  }

  @Test
  void multi_node_fsdp_on_h100_is_timed_with_the_default_fabric_not_100_gbps_ethernet() {
    // GIVEN Llama-2-7B under FSDP over 4 H100 nodes, the network unstated
    Task task = Task.pretraining(TestModels.LLAMA2_7B).microBatch(2).globalBatch(64).sequenceLength(4096)
        .precision(PrecisionMode.BF16_MIXED).build();
    Layout fsdp = new Layout(32, 1, 1, ZeroStage.STAGE_3, 8);
    Hardware unstated = Hardware.of(TestGpus.H100_SXM, 8, 4);
    double defaulted = Estimator.defaults().performance(task, unstated, fsdp).tokensPerSecond();
    double dgx = Estimator.defaults().performance(task, unstated.withInterNodeGbps(3200), fsdp).tokensPerSecond();
    double ethernet = Estimator.defaults().performance(task, unstated.withInterNodeGbps(100), fsdp)
        .tokensPerSecond();
    // THEN it is the DGX H100 figure, and well above what one Ethernet port would allow
    assertThat(defaulted).isEqualTo(dgx);
    assertThat(defaulted).isGreaterThan(1.5 * ethernet);
  }

  @Test
  void nodes_joined_over_plain_ethernet_move_collectives_at_the_socket_transports_share_of_the_link() {
    // GIVEN two 8 x A100 nodes with one 100 Gb/s port each, over RDMA and over plain Ethernet (TCP sockets)
    Hardware rdma = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 2).withInterNodeGbps(100);
    Hardware tcp = rdma.withInterNodeFabric(io.github.gpusizer.catalog.Fabric.ETHERNET);
    // THEN the link is the same, but NCCL's sockets reach half of it where RDMA reaches Efficiency.LINK
    assertThat(tcp.effectiveInterNodeGbps()).isEqualTo(100);
    assertThat(Links.interNodeGBps(rdma)).isEqualTo(12.5);
    assertThat(Links.interNodeGBps(tcp) * Efficiency.LINK).isCloseTo(12.5 * Links.SOCKET_SHARE,
        org.assertj.core.data.Offset.offset(1e-12));
    // AND an FSDP step over them is slower on sockets
    Task task = Task.pretraining(TestModels.LLAMA2_7B).microBatch(2).globalBatch(64).sequenceLength(4096)
        .precision(PrecisionMode.BF16_MIXED).build();
    Layout fsdp = new Layout(16, 1, 1, ZeroStage.STAGE_3, 8);
    double overRdma = Estimator.defaults().performance(task, rdma, fsdp).tokensPerSecond();
    double overTcp = Estimator.defaults().performance(task, tcp, fsdp).tokensPerSecond();
    assertThat(overTcp).isLessThan(overRdma);
    // AND the sizer's default for an Ethernet VM that states no bandwidth grows with its GPUs up to 100 Gb/s
    assertThat(Hardware.ethernetGbps(1)).isEqualTo(20);
    assertThat(Hardware.ethernetGbps(4)).isEqualTo(80);
    assertThat(Hardware.ethernetGbps(8)).isEqualTo(100);
  }

  @Test
  void a_ring_collective_pays_nccls_latency_per_step_nvlink_within_nodes_network_between() {
    // GIVEN NCCL's Simple-protocol ring model: 8.4 us plus 3.4 us per NVLink step and 9.6 us per network step
    // THEN 64 H100s in 8 nodes: 63 steps, 7 across the network; one rank per node: every step across it
    assertThat(Links.ringLatencySeconds(TestGpus.H100_SXM, 64, 8)).isCloseTo(8.4e-6 + 56 * 3.4e-6 + 7 * 9.6e-6,
        org.assertj.core.data.Offset.offset(1e-12));
    assertThat(Links.ringLatencySeconds(TestGpus.H100_SXM, 1024, 1024)).isCloseTo(8.4e-6 + 1023 * 9.6e-6,
        org.assertj.core.data.Offset.offset(1e-12));
    assertThat(Links.ringLatencySeconds(TestGpus.H100_SXM, 1, 1)).isZero();
  }

  @Test
  void fsdp_over_thousands_of_single_gpu_nodes_is_slowed_by_the_rings_latency() {
    // GIVEN Llama-2-7B under FSDP on H100s, one per node, the same per-GPU work and network at every count
    Task task = Task.pretraining(TestModels.LLAMA2_7B).microBatch(1).sequenceLength(4096)
        .precision(PrecisionMode.BF16_MIXED).build();
    double[] perGpu = new double[3];
    int[] nodes = {64, 512, 4096};
    for (int i = 0; i < nodes.length; i++) {
      Hardware hw = Hardware.of(TestGpus.H100_SXM, 1, nodes[i]).withInterNodeGbps(400);
      perGpu[i] = Estimator.defaults().performance(task, hw, new Layout(nodes[i], 1, 1, ZeroStage.STAGE_3, 1))
          .tokensPerSecond() / nodes[i];
    }
    // THEN throughput per GPU falls as the ring grows (bandwidth per GPU is the same at every count)
    assertThat(perGpu[1]).isLessThan(perGpu[0]);
    assertThat(perGpu[2]).isLessThan(0.5 * perGpu[0]);
  }

  @Test
  void geforce_ada_cards_have_no_peer_to_peer_and_stage_collectives_through_host_memory() {
    // GIVEN a 4090 (Ada GeForce, no MAILBOXP2P) and a 3090 and an L4-class PCIe card
    // THEN the 4090 alone has no peer-to-peer path, and its GPUs exchange bytes at half its PCIe 4.0 link
    assertThat(Links.peerToPeer(TestGpus.RTX_4090)).isFalse();
    assertThat(Links.peerToPeer(TestGpus.T4)).isTrue();
    assertThat(Links.intraNodeGBps(TestGpus.RTX_4090, 2)).isEqualTo(0.5 * 31.5);
    assertThat(Links.intraNodePath(TestGpus.RTX_4090, 2)).contains("through host memory");
  }

  @Test
  void a_4090_pair_under_zero_3_is_never_faster_per_gpu_than_one_4090() {
    // GIVEN GPT models on one 4090 and on two under ZeRO-3, at every micro-batch and checkpointing
    for (io.github.gpusizer.core.model.Transformer model
        : java.util.List.of(TestModels.GPT_1_7B, TestModels.LLAMA2_7B, TestModels.BERT_LARGE)) {
      for (int micro : new int[] {1, 2, 4, 8, 16}) {
        for (io.github.gpusizer.core.task.Checkpointing ckpt : io.github.gpusizer.core.task.Checkpointing.values()) {
          Task task = Task.pretraining(model).microBatch(micro).sequenceLength(512)
              .precision(PrecisionMode.BF16_MIXED).checkpointing(ckpt).build();
          double one = Estimator.defaults().performance(task, Hardware.of(TestGpus.RTX_4090, 1, 1),
              Layout.single()).samplesPerSecond();
          double pair = Estimator.defaults().performance(task, Hardware.of(TestGpus.RTX_4090, 2, 1),
              new Layout(2, 1, 1, ZeroStage.STAGE_3, 2)).samplesPerSecond();
          // THEN each GPU of the pair does at most what the single card does
          assertThat(pair / 2).as("%s, micro-batch %s, %s checkpointing", model.name(), micro, ckpt)
              .isLessThanOrEqualTo(one);
        }
      }
    }
  }
}
