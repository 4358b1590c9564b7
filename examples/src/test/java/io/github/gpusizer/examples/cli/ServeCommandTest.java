package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class ServeCommandTest {
  private static final String[] LLAMA_70B = {"serve", "--model", "llama-2-70b", "--rps", "5", "--prompt", "1000",
      "--output", "200", "--ttft", "2s", "--tpot", "100ms"};

  private static String[] with(String[] base, String... more) {
    String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  @Test
  void json_reports_the_best_plan_within_the_targets_with_its_costs_and_latencies() {
    Cli.Run run = Cli.run(with(LLAMA_70B, "--format", "json"));

    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode r = run.json();
    assertThat(r.get("feasible").asBoolean()).isTrue();
    assertThat(r.at("/slo/tpotP95Seconds").asDouble()).isEqualTo(0.1);
    JsonNode best = r.get("best");
    assertThat(best.at("/tpotSeconds/p95").asDouble()).isLessThanOrEqualTo(0.1);
    assertThat(best.at("/ttftSeconds/p95").asDouble()).isLessThanOrEqualTo(2.0);
    assertThat(best.at("/costPerHour/currency").asText()).isEqualTo("USD");
    assertThat(best.get("gpuCount").asInt()).isEqualTo(best.get("replicas").asInt()
        * best.get("tensorParallel").asInt());
    assertThat(best.at("/memory/breakdown/kvCache").asLong()).isPositive();
    assertThat(r.get("paretoFront").size()).isPositive();
    assertThat(r.get("rejected").get(0).get("reason").asText()).isNotBlank();
  }

  @Test
  void table_names_the_best_plan_first() {
    Cli.Run run = Cli.run(LLAMA_70B);

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("Best: cheapest of").contains("TPOT p95");
  }

  @Test
  void exits_1_with_the_suggestion_when_nothing_meets_the_targets() {
    Cli.Run run = Cli.run("serve", "--model", "llama-2-70b", "--rps", "5", "--prompt", "1000", "--output", "200",
        "--tpot", "1ms");

    assertThat(run.exit()).isEqualTo(GpuSizerCli.EXIT_INFEASIBLE);
    assertThat(run.err()).contains("no plan meets the targets").contains("lowest reached");
  }

  @Test
  void rejects_a_latency_without_a_unit_naming_the_option() {
    Cli.Run run = Cli.run(with(new String[] {"serve", "--model", "llama-2-7b", "--rps", "1", "--prompt", "10",
        "--output", "10"}, "--tpot", "100"));

    assertThat(run.exit()).isEqualTo(GpuSizerCli.EXIT_BAD_INPUT);
    assertThat(run.err()).contains("--tpot must be a time such as 100ms or 2s, was '100'");
  }

  @Test
  void an_fp8_kv_cache_and_fp8_weights_are_separate_settings() {
    Cli.Run run = Cli.run(with(LLAMA_70B, "--quantization", "fp8", "--kv-dtype", "fp8", "--format", "json"));

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.json().get("feasible").asBoolean()).isTrue();
  }
}
