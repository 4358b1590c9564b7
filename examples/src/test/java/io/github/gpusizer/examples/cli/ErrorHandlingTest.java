package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Every class of error: one line on stderr saying what was wrong and what is accepted, the documented exit code. */
class ErrorHandlingTest {

  private static void assertOneLineError(Cli.Run run, int exit, String... fragments) {
    assertThat(run.exit()).as(run.err()).isEqualTo(exit);
    assertThat(run.err().lines().count()).as(run.err()).isEqualTo(1);
    assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
    for (String fragment : fragments) {
      assertThat(run.err()).contains(fragment);
    }
  }

  @Test
  void no_subcommand_is_bad_input() {
    assertOneLineError(Cli.run(), 2,
        "a subcommand is required: gpus, offers, estimate, recommend, compare, serve, check or completion");
  }

  @Test
  void unknown_option_suggests_the_closest() {
    assertOneLineError(Cli.run("recommend", "--model", "llama-2-7b", "--token", "50M"), 2,
        "gpusizer recommend:", "--token", "did you mean", "--tokens");
  }

  @Test
  void malformed_number_names_option_and_accepted_forms() {
    assertOneLineError(Cli.run("recommend", "--model", "llama-2-7b", "--tokens", "5X"), 2,
        "--tokens", "unknown suffix 'X'", "k, M, B");
  }

  @Test
  void malformed_duration_names_accepted_forms() {
    assertOneLineError(Cli.run("recommend", "--model", "llama-2-7b", "--tokens", "5M", "--deadline", "tomorrow"), 2,
        "--deadline", "24h");
  }

  @Test
  void unknown_choice_lists_the_choices() {
    assertOneLineError(Cli.run("estimate", "--model", "gpt2", "--gpu", "t4", "--precision", "fp12"), 2,
        "--precision must be one of fp32, tf32, fp16, bf16, bf16-pure, fp8, was 'fp12'");
  }

  @Test
  void unknown_model_suggests_presets() {
    assertOneLineError(Cli.run("estimate", "--model", "llama-2-7", "--gpu", "h100"), 2, "llama-2-7b");
  }

  @Test
  void unknown_gpu_suggests_names() {
    assertOneLineError(Cli.run("estimate", "--model", "gpt2", "--gpu", "h1000"), 2, "h1000", "h100");
  }

  @Test
  void missing_model_says_which_options_give_one() {
    assertOneLineError(Cli.run("estimate", "--gpu", "h100"), 2, "a model is required", "--model", "--params");
  }

  @Test
  void two_model_sources_are_rejected() {
    assertOneLineError(Cli.run("estimate", "--gpu", "h100", "--model", "gpt2", "--params", "7B"), 2,
        "--model and --params");
  }

  @Test
  void missing_required_gpu_of_estimate() {
    assertOneLineError(Cli.run("estimate", "--model", "gpt2"), 2, "--gpu");
  }

  @Test
  void missing_file_is_bad_input(@TempDir Path dir) {
    assertOneLineError(Cli.run("gpus", "--catalog", dir.resolve("nope.csv").toString()), 2, "nope.csv",
        "no such file");
  }

  @Test
  void malformed_catalog_names_file_and_line(@TempDir Path dir) throws IOException {
    Path bad = dir.resolve("offerings.csv");
    Files.writeString(bad, "provider,instance_type\nx,y\n");
    Cli.Run run = Cli.run("offers", "--catalog", bad.toString());
    assertOneLineError(run, 2, "offerings.csv");
  }

  @Test
  void unreadable_hf_config_is_bad_input(@TempDir Path dir) throws IOException {
    Path config = dir.resolve("config.json");
    Files.writeString(config, "{ not json");
    assertOneLineError(Cli.run("estimate", "--gpu", "h100", "--hf-config", config.toString()), 2, "config.json");
  }

  @Test
  void malformed_nvidia_smi_output_names_line() {
    String file = NvidiaSmiFiles.path("malformed-memory.csv");
    assertOneLineError(Cli.run("check", "--nvidia-smi-csv", file), 2, "line 2", "memory.total");
  }

  @Test
  void debug_prints_the_stack_trace() {
    Cli.Run run = Cli.run("estimate", "--model", "gpt2", "--gpu", "h1000", "--debug");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("\tat ");
  }

  @Test
  void infeasible_request_exits_1_with_what_would_make_it_feasible() {
    Cli.Run run = Cli.run("recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M",
        "--max-gpus", "1", "--deadline", "1m");
    assertThat(run.exit()).as(run.err()).isEqualTo(1);
    assertThat(run.err().lines().count()).isEqualTo(1);
    assertThat(run.err()).startsWith("gpusizer recommend: no option meets the constraints: ");
    assertThat(run.out()).contains("NO OPTION MEETS THE CONSTRAINTS");
  }

  @Test
  void help_exits_0() {
    Cli.Run run = Cli.run("recommend", "--help");
    assertThat(run.exit()).isZero();
    assertThat(run.out()).contains("--deadline").contains("--budget").contains("--plot");
  }

  @Test
  void every_commands_help_renders_without_format_warnings() {
    // GIVEN the help of the tool and of each command, rendered with System.err captured (picocli's tracer
    // writes there when a description is not a valid format string, e.g. an unescaped "%")
    PrintStream saved = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    StringBuilder usage = new StringBuilder();
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      CommandLine root = GpuSizerCli.commandLine();
      usage.append(root.getUsageMessage());
      root.getSubcommands().values().forEach(c -> usage.append(c.getUsageMessage()));
    } finally {
      System.setErr(saved);
    }

    // THEN nothing was warned and every percent sign came out as written
    assertThat(captured.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(usage.toString()).contains("90% of the GPU").contains("steps of at most 25%").doesNotContain("%n");
  }

  @Test
  void every_json_document_names_its_schema_version_first() {
    // GIVEN the object documents of three commands
    List<Cli.Run> runs = List.of(
        Cli.run("estimate", "--model", "gpt2", "--gpu", "a100", "--format", "json"),
        Cli.run("recommend", "--model", "gpt2", "--tokens", "1B", "--format", "json"),
        Cli.run("serve", "--model", "llama-2-7b", "--rps", "1", "--prompt", "100", "--output", "50", "--format", "json"));
    // THEN each starts with schemaVersion 1
    for (Cli.Run run : runs) {
      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.json().fieldNames().next()).isEqualTo("schemaVersion");
      assertThat(run.json().get("schemaVersion").asInt()).isEqualTo(1);
    }
  }

  @Test
  void every_json_object_names_the_library_version_and_the_catalogs_price_dates_next_to_the_schema_version(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws java.io.IOException {
    // GIVEN an offerings file of its own, priced on two dates, as the only offerings
    java.nio.file.Path file = dir.resolve("offerings.csv");
    java.nio.file.Files.writeString(file, "provider,instance_type,region,gpu,gpu_count,vcpus,ram_gib,disk_gb,"
        + "price_per_hour,spot_per_hour,currency,billing,monthly,yearly,network_gbps,price_date,source\n"
        + "acme,a1,eu,A100,1,16,128,100,1.00,,USD,PER_HOUR,,,,2025-03-01,test\n"
        + "acme,a2,eu,A100,2,32,256,100,2.00,,USD,PER_HOUR,,,,2026-06-30,test\n");
    String[] own = {"--catalog", file.toString(), "--no-bundled-offerings", "--format", "json"};
    List<Cli.Run> runs = List.of(
        Cli.run(concat(new String[] {"estimate", "--model", "gpt2", "--gpu", "a100"}, own)),
        Cli.run(concat(new String[] {"recommend", "--model", "gpt2", "--tokens", "1B"}, own)),
        Cli.run(concat(new String[] {"compare", "--model", "gpt2", "--tokens", "1B", "--offering", "acme/a1"}, own)));

    // THEN each names them, in that order, from the file's offerings
    for (Cli.Run run : runs) {
      assertThat(run.exit()).as(run.err()).isZero();
      List<String> first = new java.util.ArrayList<>();
      run.json().fieldNames().forEachRemaining(first::add);
      assertThat(first.subList(0, 3)).containsExactly("schemaVersion", "gpusizerVersion", "catalogPrices");
      assertThat(run.json().get("gpusizerVersion").asText()).isEqualTo(io.github.gpusizer.examples.support.Version.library())
          .matches("\\d+\\.\\d+\\.\\d+.*");
      assertThat(run.json().get("catalogPrices").toString())
          .isEqualTo("{\"offerings\":2,\"oldest\":\"2025-03-01\",\"newest\":\"2026-06-30\"}");
    }
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
