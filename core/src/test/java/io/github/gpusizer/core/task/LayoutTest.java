package io.github.gpusizer.core.task;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LayoutTest {
  @Test
  void training_layouts_name_their_sharding_and_inference_layouts_their_replicas() {
    Layout fsdp = new Layout(8, 2, 1, ZeroStage.STAGE_3, 8);
    Layout replicas = new Layout(4, 2, 1, ZeroStage.NONE, 8);
    Layout pipelined = new Layout(2, 4, 4, ZeroStage.NONE, 8);
    assertThat(fsdp.describe(true)).isEqualTo(fsdp.toString()).isEqualTo("FSDP/ZeRO-3 x8, TP 2, 2 nodes");
    assertThat(replicas.describe(true)).isEqualTo("DDP x4, TP 2");
    assertThat(replicas.describe(false)).isEqualTo("4 replicas, TP 2");
    assertThat(Layout.single().describe(false)).isEqualTo("1 replica");
    assertThat(pipelined.describe(false)).isEqualTo("2 replicas, TP 4, PP 4, 4 nodes");
  }
}
