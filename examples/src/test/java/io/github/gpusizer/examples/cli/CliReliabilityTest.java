package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The CLI on inputs that used to hang, run out of memory or answer wrongly without a word: each is now a one-line
 * error with the right exit code, or a warning.
 */
class CliReliabilityTest {
  private static final Duration HANG = Duration.ofSeconds(20);
  private static final String HEADER = "provider,instance_type,region,gpu,gpu_count,vcpus,ram_gib,disk_gb,"
      + "price_per_hour,spot_per_hour,currency,billing,monthly,yearly,network_gbps,price_date,source\n";

  @TempDir
  Path dir;

  private Path fifo(String name) throws Exception {
    Path fifo = dir.resolve(name);
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeThat(p.waitFor()).as("mkfifo available").isZero();
    return fifo;
  }

  private Path offerings(String... rows) throws Exception {
    return Files.writeString(dir.resolve("offerings.csv"), HEADER + String.join("\n", rows) + "\n");
  }

  private static Cli.Run run(String... args) {
    return assertTimeoutPreemptively(HANG, () -> Cli.run(args));
  }

  // ---------------------------------------------------------------- files that are not regular files

  @Test
  void a_fifo_as_hf_config_or_safetensors_is_exit_2_at_once() throws Exception {
    Path config = fifo("config.json");
    Cli.Run r = run("estimate", "--gpu", "h100", "--hf-config", config.toString(), "--tokens", "1B");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains(config + ": is not a regular file (a FIFO, socket or device)");
    Path weights = fifo("model.safetensors");
    Cli.Run w = run("estimate", "--gpu", "h100", "--safetensors", weights.toString(), "--tokens", "1B");
    assertThat(w.exit()).isEqualTo(2);
    assertThat(w.err()).contains(weights + ": is not a regular file");
  }

  @Test
  void a_fifo_as_plot_is_refused_before_any_work() throws Exception {
    Path plot = fifo("plot.svg");
    Cli.Run r = run("recommend", "--model", "gpt2", "--tokens", "1B", "--plot", plot.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("gpusizer recommend: --plot " + plot
        + " is not a regular file (a FIFO, socket or device); give a file to write the SVG to");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void a_plot_in_a_missing_folder_says_why() {
    Cli.Run r = run("recommend", "--model", "gpt2", "--tokens", "1B", "--plot", "/nonexistent/x.svg");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip())
        .isEqualTo("gpusizer recommend: --plot /nonexistent/x.svg: the folder /nonexistent does not exist");
  }

  @Test
  void nvidia_smi_csv_from_a_device_is_exit_2() {
    assumeThat(Files.exists(Path.of("/dev/zero"))).isTrue();
    Cli.Run r = run("check", "--nvidia-smi-csv", "/dev/zero");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("/dev/zero is not a regular file");
  }

  @Test
  void a_directory_as_catalog_says_it_is_a_directory() {
    Cli.Run r = run("offers", "--catalog", dir.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip())
        .isEqualTo("gpusizer offers: --catalog " + dir + " is a directory; give a catalog CSV file");
  }

  // ---------------------------------------------------------------- values beyond what the arithmetic holds

  @Test
  void extreme_rate_exponents_are_refused_at_once() {
    for (String rate : new String[] {"CNY:USD=1e-999999999", "CNY:USD=1e999999999"}) {
      Cli.Run r = run("recommend", "--model", "gpt2", "--tokens", "1B", "--rate", rate);
      assertThat(r.exit()).as(rate).isEqualTo(2);
      assertThat(r.err()).as(rate).contains("exchange rate CNY:USD must be between 1e-9 and 1e9");
    }
  }

  @Test
  void contradictory_or_duplicate_rates_are_refused() {
    Cli.Run contradict = run("recommend", "--model", "gpt2", "--tokens", "1B",
        "--rate", "CNY:USD=0.14", "--rate", "USD:CNY=100");
    assertThat(contradict.exit()).isEqualTo(2);
    assertThat(contradict.err().strip()).isEqualTo("gpusizer recommend: --rate CNY:USD=0.14 and USD:CNY=100 "
        + "contradict each other: 0.14 × 100 = 14, not 1 (within 2%); give one direction");
    Cli.Run twice = run("recommend", "--model", "gpt2", "--tokens", "1B",
        "--rate", "CNY:USD=0.14", "--rate", "CNY:USD=0.15");
    assertThat(twice.exit()).isEqualTo(2);
    assertThat(twice.err()).contains("--rate CNY:USD is given twice (0.14 and 0.15); give each pair once");
  }

  @Test
  void consistent_rates_both_ways_are_accepted() {
    Cli.Run r = run("recommend", "--model", "gpt2", "--tokens", "1B", "--max-gpus", "8",
        "--rate", "CNY:USD=0.14", "--rate", "USD:CNY=7.1", "--format", "json");
    assertThat(r.exit()).as(r.err()).isZero();
  }

  @Test
  void an_image_size_beyond_the_limit_is_bad_input_not_infeasible() {
    Cli.Run r = run("recommend", "--model", "resnet50", "--samples", "1M", "--image-size", "2147483647");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("image size must be 1..65536 px, was 2147483647");
  }

  @Test
  void samples_times_epochs_that_overflow_are_named() {
    Cli.Run r = run("estimate", "--gpu", "h100", "--model", "resnet50", "--samples", "1e300", "--epochs", "1e300");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("gpusizer estimate: samples per epoch × epochs must be a finite number, "
        + "was 1.0E300 × 1.0E300");
  }

  @Test
  void a_run_past_the_horizon_is_an_error_not_a_clamped_time() {
    // 1e17 and 1e18 tokens used to print the same clamped 292 years
    Cli.Run r = run("estimate", "--gpu", "h100", "--model", "llama-2-7b", "--task", "lora", "--tokens", "1e17");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("beyond the 50-year horizon of an estimate");
    Cli.Run rec = run("recommend", "--model", "gpt2", "--tokens", "1e17", "--max-gpus", "1", "--format", "json");
    assertThat(rec.exit()).isEqualTo(1);
    assertThat(rec.json().get("feasible").asBoolean()).isFalse();
    assertThat(rec.json().get("rejected").toString()).contains("beyond the 50-year horizon");
  }

  @Test
  void estimate_spreads_many_gpus_over_nodes_of_eight() {
    Cli.Run r = run("estimate", "--gpu", "a100", "--model", "gpt2", "--tokens", "1B", "--gpus", "1000000",
        "--format", "json");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.json().at("/hardware/nodes").asInt()).isEqualTo(125_000);
    assertThat(r.json().at("/hardware/gpusPerNode").asInt()).isEqualTo(8);
    Cli.Run oneNode = run("estimate", "--gpu", "a100", "--model", "gpt2", "--tokens", "1B", "--gpus", "1000000",
        "--nodes", "1");
    assertThat(oneNode.exit()).isEqualTo(2);
    assertThat(oneNode.err()).contains("1000000 GPUs per node, more than any node holds (16)");
  }

  // ---------------------------------------------------------------- suspect prices and hosts

  @Test
  void a_zero_price_is_warned_about() throws Exception {
    Path csv = offerings("myco,free-t4,r1,t4,1,8,32,100,0,,USD,PER_HOUR,,,,2026-11-30,test");
    Cli.Run r = run("offers", "--catalog", csv.toString(), "--no-bundled-offerings");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).contains("warning: --catalog: 1 offering priced at 0 per hour, so they cost 0 and rank "
        + "first on cost; give the real prices: myco/free-t4/r1 (on-demand)");
  }

  @Test
  void many_zero_prices_are_warned_about_in_one_line() throws Exception {
    Path csv = offerings("myco,a,r1,t4,1,8,32,100,0,,USD,PER_HOUR,,,,2026-11-30,test",
        "myco,b,r1,t4,1,8,32,100,0,,USD,PER_HOUR,,,,2026-11-30,test",
        "myco,c,r1,t4,1,8,32,100,0,,USD,PER_HOUR,,,,2026-11-30,test",
        "myco,d,r1,t4,1,8,32,100,0,,USD,PER_HOUR,,,,2026-11-30,test");
    Cli.Run r = run("offers", "--catalog", csv.toString(), "--no-bundled-offerings");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err().lines().filter(l -> l.contains("priced at 0"))).containsExactly("warning: --catalog: 4 "
        + "offerings priced at 0 per hour, so they cost 0 and rank first on cost; give the real prices: "
        + "myco/a/r1 (on-demand), myco/b/r1 (on-demand), myco/c/r1 (on-demand) and 1 more");
  }

  @Test
  void an_absurd_price_is_refused() throws Exception {
    Path csv = offerings("myco,x1,r1,t4,1,8,32,100,9.9e9999,,USD,PER_HOUR,,,,2026-11-30,test");
    Cli.Run r = run("recommend", "--model", "gpt2", "--tokens", "1B", "--catalog", csv.toString(),
        "--no-bundled-offerings", "--format", "json");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip()).startsWith("gpusizer recommend: --catalog offering myco/x1/r1: on-demand price "
        + "9.9E+9999 USD per hour is 9.9E+9999 USD per GPU-hour, more than the 1000 USD any GPU-hour costs");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void zero_vcpus_and_ram_are_warned_about() throws Exception {
    Path csv = offerings("myco,x1,r1,t4,1,0,0,100,0.5,,USD,PER_HOUR,,,,2026-11-30,test");
    Cli.Run r = run("offers", "--catalog", csv.toString(), "--no-bundled-offerings");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).contains("warning: --catalog: 1 offering with 0 vCPUs or 0 RAM, read as unknown, so the "
        + "recommended host is not checked against them: myco/x1/r1 (0 vCPUs and 0 RAM)");
  }

  // ---------------------------------------------------------------- errors

  @Command(name = "boom")
  static final class Boom implements Callable<Integer> {
    @Override
    public Integer call() {
      throw new OutOfMemoryError("Java heap space");
    }
  }

  @Test
  void an_error_is_exit_3_with_one_line_and_no_stack_trace() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = GpuSizerCli.commandLine().addSubcommand("boom", new Boom());
    int exit = cli.setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute("boom");
    assertThat(exit).isEqualTo(3);
    assertThat(err.toString().strip()).isEqualTo("gpusizer boom: internal error: out of memory (Java heap space); "
        + "give the JVM more memory (-Xmx) or smaller inputs");
  }
}
