package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

class SkyPilotFormatTest {
  private static final String[] MAIN_JOB = {"recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M"};

  /** The bundled catalog's providers that SkyPilot launches (AIStudio is not one). */
  private static final String SKYPILOT_CLOUDS = "aws,gcp,azure,lambda";

  private static String[] with(String... more) {
    String[] all = Arrays.copyOf(MAIN_JOB, MAIN_JOB.length + more.length);
    System.arraycopy(more, 0, all, MAIN_JOB.length, more.length);
    return all;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> yaml(String text) {
    return (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
  }

  @Test
  @SuppressWarnings("unchecked")
  void the_task_yaml_launches_the_best_option_of_the_json() {
    // GIVEN the main job's best option on the clouds SkyPilot launches, as JSON
    JsonNode best = Cli.run(with("--format", "json", "--provider", SKYPILOT_CLOUDS)).json().get("best");

    // WHEN it is asked for as a SkyPilot task
    Cli.Run run = Cli.run(with("--format", "skypilot", "--provider", SKYPILOT_CLOUDS));

    // THEN the YAML parses and names that offering, its GPUs per node, its nodes and its pricing
    assertThat(run.exit()).as(run.err()).isZero();
    Map<String, Object> task = yaml(run.out());
    assertThat(task).containsOnlyKeys("resources", "num_nodes");
    Map<String, Object> resources = (Map<String, Object>) task.get("resources");
    assertThat(resources).containsOnlyKeys("accelerators", "cloud", "instance_type", "region", "use_spot");
    assertThat(resources.get("cloud")).isEqualTo(best.get("provider").asText());
    assertThat(resources.get("instance_type")).isEqualTo(best.get("instanceType").asText());
    assertThat(resources.get("region")).isEqualTo(best.get("region").asText());
    assertThat((String) resources.get("accelerators")).endsWith(":" + best.get("gpusPerNode").asInt());
    assertThat(resources.get("use_spot")).isEqualTo(false);
    assertThat(task.get("num_nodes")).isEqualTo(best.get("nodes").asInt());
  }

  @Test
  void the_accelerator_is_skypilots_spelling_of_the_gpu() {
    // GIVEN a job restricted to AWS A100 80 GB instances
    Cli.Run run = Cli.run(with("--format", "skypilot", "--provider", "aws", "--gpu", "a100-sxm4-80gb"));

    // THEN the accelerator is SkyPilot's A100-80GB with the instance's eight GPUs
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("  accelerators: \"A100-80GB:8\"\n", "  cloud: \"aws\"\n",
        "  instance_type: \"p4de.24xlarge\"\n");
  }

  @Test
  void the_predicted_time_and_cost_are_comments_that_match_the_table() {
    // GIVEN the table's best option on the clouds SkyPilot launches
    String table = Cli.run(with("--provider", SKYPILOT_CLOUDS)).out();
    String bestLine = table.lines().filter(l -> l.startsWith("BEST: ")).findFirst().orElseThrow();

    // WHEN the SkyPilot task is printed
    String yaml = Cli.run(with("--format", "skypilot", "--provider", SKYPILOT_CLOUDS)).out();

    // THEN its comments give the same wall time and cost, and say that SkyPilot's own estimate is for one hour
    String wall = bestLine.replaceAll(".*, ([0-9.]+ [a-z]+ \\([^)]*\\)), .*", "$1");
    String cost = bestLine.replaceAll(".*, ([0-9.]+ [A-Z]{3})$", "$1");
    assertThat(yaml).contains("# predicted wall time: " + wall, "# predicted cost: " + cost,
        "assumes a one-hour job");
    assertThat(yaml.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).count()).isEqualTo(7);
  }

  @Test
  void spot_pricing_sets_use_spot() {
    // GIVEN spot prices allowed on AWS H100 instances, where spot is far cheaper
    Cli.Run run = Cli.run(with("--format", "skypilot", "--spot", "--provider", "aws", "--gpu", "h100-sxm"));

    // THEN the task asks for spot capacity and its comment says so
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("  use_spot: true\n", "(spot)");
  }

  @Test
  void a_best_option_skypilot_cannot_launch_gives_way_to_the_best_it_can() {
    // GIVEN the AIStudio offerings (not a SkyPilot cloud) and AWS's
    Cli.Run json = Cli.run(with("--format", "json", "--provider", "aistudio,aws"));
    assertThat(json.json().at("/best/provider").asText()).isEqualTo("aistudio");

    // WHEN a SkyPilot task is asked for
    Cli.Run run = Cli.run(with("--format", "skypilot", "--provider", "aistudio,aws"));

    // THEN it is for the best AWS option, and a comment says why the best overall is not used
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("  cloud: \"aws\"\n", "is on aistudio, which SkyPilot does not launch");
  }

  @Test
  void no_launchable_option_is_exit_1_with_the_way_out() {
    Cli.Run run = Cli.run(with("--format", "skypilot", "--provider", "aistudio"));

    assertThat(run.exit()).isEqualTo(GpuSizerCli.EXIT_INFEASIBLE);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("no feasible option is on a cloud SkyPilot launches", "--provider").hasLineCount(1);
  }

  @Test
  void other_commands_refuse_the_skypilot_format() {
    Cli.Run run = Cli.run("gpus", "--format", "skypilot");

    assertThat(run.exit()).isEqualTo(GpuSizerCli.EXIT_BAD_INPUT);
    assertThat(run.err()).contains("--format skypilot", "gpus prints table, json or csv");
  }

  @Test
  void yaml_strings_escape_quotes_backslashes_and_control_characters() {
    String value = "a\"b\\c\u001b[2J\td";

    String quoted = SkyPilotTask.quoted(value);

    assertThat(quoted).isEqualTo("\"a\\\"b\\\\c\\u001b[2J\\u0009d\"");
    assertThat(yaml("v: " + quoted)).containsEntry("v", value);
  }

  @Test
  void a_gcp_host_with_attached_gpus_is_launched_as_the_host_vm() {
    // GIVEN an offering as the SkyPilot loader builds it for GCP: an N1 host VM plus attached GPUs
    io.github.gpusizer.catalog.Offering o = io.github.gpusizer.catalog.Catalog.bundled().offerings().stream()
        .filter(x -> x.gpu().id().equals("v100-sxm2-16gb")).findFirst().orElseThrow();
    io.github.gpusizer.catalog.Offering gcp = new io.github.gpusizer.catalog.Offering("gcp", "n1-standard-8 + V100:1",
        "us-central1", o.gpu(), 1, 8, o.ram(), o.localDisk(), o.onDemandPerHour(), o.spotPerHour(), o.billing(),
        o.monthly(), o.yearly(), o.networkGbps(), o.fabric(), o.priceDate(), o.source());

    // THEN SkyPilot is asked for the VM and the GPU by SkyPilot's name
    assertThat(SkyPilotTask.instanceType(gcp)).isEqualTo("n1-standard-8");
    assertThat(SkyPilotTask.acceleratorName(gcp)).isEqualTo("V100");
  }
}
