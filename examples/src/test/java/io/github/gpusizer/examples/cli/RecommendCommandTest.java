package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class RecommendCommandTest {
  private static final String[] MAIN_JOB = {"recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M"};
  private static JsonNode json;

  private static String[] with(String... more) {
    String[] all = java.util.Arrays.copyOf(MAIN_JOB, MAIN_JOB.length + more.length);
    System.arraycopy(more, 0, all, MAIN_JOB.length, more.length);
    return all;
  }

  @BeforeAll
  static void runOnce() {
    Cli.Run run = Cli.run(with("--format", "json"));
    assertThat(run.exit()).as(run.err()).isZero();
    json = run.json();
  }

  @Test
  void the_main_job_prints_best_ranked_pareto_and_rejections() {
    Cli.Run run = Cli.run(MAIN_JOB);
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("BEST: ", "RANKED OPTIONS", "PARETO FRONT", "REJECTED");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void by_default_every_option_surely_fits_and_hardware_that_may_not_is_rejected_with_the_way_out() {
    // GIVEN a full fine-tune of Llama-2-13B, which packs 8 x A100-40GB to the high end of its memory interval
    JsonNode json = Cli.run("recommend", "--model", "llama-2-13b", "--task", "finetune", "--tokens", "100M",
        "--format", "json", "--all").json();
    // THEN no option may run out of memory, and the machine that would is rejected, saying how to allow it
    for (JsonNode o : json.get("options")) {
      assertThat(o.at("/memory/fit").asText()).isEqualTo("fits");
    }
    boolean rejected = false;
    for (JsonNode r : json.get("rejected")) {
      if (r.get("instanceType").asText().equals("NVIDIA-A100-40GB-x8") && r.get("reason").asText()
          .startsWith("may not fit")) {
        rejected = r.get("reason").asText().contains("--allow-tight-memory");
      }
    }
    assertThat(rejected).isTrue();
  }

  @Test
  void an_option_that_may_not_fit_is_marked_in_the_best_line_and_the_table() {
    // GIVEN the same fine-tune with the risk allowed: its cheapest option packs 8 x A100-40GB to the high end
    String[] job = {"recommend", "--model", "llama-2-13b", "--task", "finetune", "--tokens", "100M", "--top", "5",
        "--allow-tight-memory"};
    JsonNode json = Cli.run(java.util.stream.Stream.concat(java.util.Arrays.stream(job),
        java.util.stream.Stream.of("--format", "json")).toArray(String[]::new)).json();
    String table = Cli.run(job).out();
    // THEN the verdict of JSON is the one the table shows: the best line says it, its row carries the mark, and the
    // mark is explained once; rows that surely fit carry none
    assertThat(json.at("/best/memory/fit").asText()).isEqualTo("may not fit");
    assertThat(table).contains("may not fit in memory\n").contains("GiB! ")
        .contains("! may not fit: the high end of the memory estimate is past the card");
    String ranked = table.substring(table.indexOf("RANKED OPTIONS"), table.indexOf("PARETO FRONT"));
    long marked = ranked.lines().filter(l -> l.matches("^ ?\\d+ .*GiB! .*")).count();
    long risky = 0;
    for (JsonNode o : json.get("options")) {
      if (o.get("rank").asInt() <= 5 && o.at("/memory/fit").asText().equals("may not fit")) {
        risky++;
      }
    }
    assertThat(marked).isEqualTo(risky);
  }

  @Test
  void options_of_one_instance_type_in_several_regions_are_told_apart_by_their_region() throws Exception {
    // GIVEN Lambda's catalog excerpt, which sells gpu_1x_gh200 at one price in two regions
    String file = Path.of(RecommendCommandTest.class.getResource("skypilot-real/lambda/vms.csv").toURI()).toString();
    Cli.Run run = Cli.run("recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M", "--catalog",
        file, "--no-bundled-offerings", "--price-date", "2026-11-30", "--top", "5");
    assertThat(run.exit()).as(run.err()).isZero();
    // THEN the table has a REGION column, and the two rows of that instance type, alike otherwise, name two regions
    String ranked = run.out().substring(run.out().indexOf("RANKED OPTIONS"), run.out().indexOf("PARETO FRONT"));
    assertThat(ranked).contains(" REGION ");
    List<String> rows = ranked.lines().filter(l -> l.contains("gpu_1x_gh200")).toList();
    assertThat(rows).hasSize(2);
    assertThat(rows.stream().map(l -> l.strip().split("\\s+")[3]).distinct()).hasSize(2);
  }

  @Test
  void offline_inference_is_batched_and_its_layouts_are_replicas_not_ddp() {
    // GIVEN Llama-2-7B generating for 100,000 prompts, no batch chosen
    Cli.Run run = Cli.run("recommend", "--model", "llama-2-7b", "--task", "infer", "--samples", "100000", "--prompt",
        "512", "--generate", "256", "--format", "json");
    assertThat(run.exit()).as(run.err()).isZero();
    // THEN every option batches its prompts, and names its data-parallel ranks as replicas
    JsonNode options = run.json().get("options");
    assertThat(options).isNotEmpty();
    for (JsonNode o : options) {
      assertThat(o.get("microBatch").asInt()).isGreaterThan(1);
      assertThat(o.at("/layout/description").asText()).contains("replica").doesNotContain("DDP");
    }
  }

  @Test
  void json_best_is_the_first_ranked_option_and_has_every_documented_field() {
    assertThat(json.get("best")).isEqualTo(json.get("options").get(0));
    for (JsonNode o : json.get("options")) {
      for (String path : List.of("/provider", "/instanceType", "/gpu", "/gpuCount", "/nodes", "/pricePerHour/amount",
          "/pricePerHour/currency", "/totalCost/amount", "/totalCost/currency", "/wallSeconds", "/memory/perGpuBytes",
          "/bottleneck", "/host/cpuCores", "/host/ramBytes", "/host/diskBytes", "/host/diskType", "/warnings",
          "/rationale")) {
        assertThat(o.at(path).isMissingNode()).as("%s in %s", path, o.get("instanceType")).isFalse();
      }
    }
    for (JsonNode r : json.get("rejected")) {
      assertThat(r.get("candidate").asText()).isNotBlank();
      assertThat(r.get("reason").asText()).isNotBlank();
    }
  }

  @Test
  void every_option_fits_its_gpu_and_meets_the_default_deadline() {
    for (JsonNode o : json.get("options")) {
      assertThat(o.at("/memory/perGpuBytes").asLong()).isLessThanOrEqualTo(o.at("/memory/capacityBytes").asLong());
      assertThat(o.get("wallSeconds").asDouble()).isLessThanOrEqualTo(24 * 3600);
      assertThat(o.at("/totalCost/currency").asText()).isEqualTo("USD");
    }
  }

  @Test
  void every_option_gives_its_wall_time_and_memory_with_an_interval_and_a_fit_verdict() {
    for (JsonNode o : json.get("options")) {
      double wall = o.get("wallSeconds").asDouble();
      // start-up and checkpoints are taken as they are; only the steps scale with the speed band
      assertThat(o.get("wallSecondsLow").asDouble()).isLessThanOrEqualTo(wall);
      assertThat(o.get("wallSecondsHigh").asDouble()).isGreaterThan(wall);
      long perGpu = o.at("/memory/perGpuBytes").asLong();
      assertThat(o.at("/memory/perGpuBytesLow").asLong()).isLessThanOrEqualTo(perGpu);
      assertThat(o.at("/memory/perGpuBytesHigh").asLong()).isGreaterThan(perGpu);
      // the sizer keeps only options whose nominal peak fits
      String fit = o.at("/memory/fit").asText();
      assertThat(fit).isIn("fits", "may not fit");
      assertThat(fit.equals("may not fit")).isEqualTo(
          o.at("/memory/perGpuBytesHigh").asLong() > o.at("/memory/capacityBytes").asLong());
      assertThat(o.at("/throughput/errorBand").asText()).startsWith("p10–p90 of predicted/measured over ");
    }
  }

  @Test
  void table_time_column_shows_the_nominal_time_and_its_interval_in_one_unit() {
    String out = Cli.run(MAIN_JOB).out();
    assertThat(out).containsPattern("\\d+(\\.\\d)? (min|h|d) \\(\\d+(\\.\\d)?–\\d+(\\.\\d)? (min|h|d)\\)");
    assertThat(out).contains("TIME: nominal (p10–p90 of the speed model's calibration errors");
  }

  @Test
  void gpus_n_gives_options_of_exactly_n_gpus_and_says_why_others_cannot() {
    // WHEN exactly 16 GPUs are asked for
    Cli.Run run = Cli.run(with("--gpus", "16", "--format", "json", "--all"));
    // THEN every option rents 16 GPUs in all
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.json().get("options")).isNotEmpty()
        .allSatisfy(o -> assertThat(o.get("gpuCount").asInt()).isEqualTo(16));
    // AND an offering of 3 GPUs per instance, which cannot make 16, is rejected saying so
    JsonNode three = Cli.run("recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M", "--gpus", "3",
        "--format", "json", "--all").json();
    assertThat(three.get("options")).allSatisfy(o -> assertThat(o.get("gpuCount").asInt()).isEqualTo(3));
    assertThat(three.get("rejected")).anySatisfy(r -> assertThat(r.get("reason").asText())
        .isEqualTo("has 8 GPUs per instance: no number of instances makes exactly 3 GPUs"));
  }

  @Test
  void min_gpus_n_gives_options_of_at_least_n_gpus() {
    Cli.Run run = Cli.run(with("--min-gpus", "24", "--format", "json", "--all"));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.json().get("options")).isNotEmpty()
        .allSatisfy(o -> assertThat(o.get("gpuCount").asInt()).isGreaterThanOrEqualTo(24));
  }

  @Test
  void gpus_with_min_or_max_gpus_and_min_above_max_are_bad_input() {
    Cli.Run both = Cli.run(with("--gpus", "8", "--max-gpus", "16"));
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.err()).contains("--gpus").contains("--max-gpus").contains("mutually exclusive");
    Cli.Run inverted = Cli.run(with("--min-gpus", "16", "--max-gpus", "8"));
    assertThat(inverted.exit()).isEqualTo(2);
    assertThat(inverted.err()).contains("--min-gpus (16) must be <= --max-gpus (8)");
  }

  @Test
  void options_are_ranked_cheapest_first() {
    List<BigDecimal> costs = new ArrayList<>();
    json.get("options").forEach(o -> costs.add(o.at("/totalCost/amount").decimalValue()));
    // costs within 1% are a tie, which the faster plan wins: no option costs more than 1% above a later one
    BigDecimal highest = BigDecimal.ZERO;
    for (BigDecimal c : costs) {
      highest = highest.max(c);
      assertThat(highest).isLessThanOrEqualTo(c.multiply(new BigDecimal("1.01")));
    }
  }

  @Test
  void fixed_cost_flags_change_the_start_up_or_remove_it() {
    JsonNode slow = Cli.run(with("--format", "json", "--provisioning", "10m", "--provider", "lambda")).json();
    JsonNode none = Cli.run(with("--format", "json", "--no-fixed-costs", "--provider", "lambda")).json();
    double defaultStartup = json.get("options").get(0).get("startupSeconds").asDouble();
    // the best option is Lambda's in the main job; ten minutes of provisioning instead of 45 s
    assertThat(slow.at("/best/startupSeconds").asDouble())
        .isCloseTo(defaultStartup + 600 - 45, org.assertj.core.api.Assertions.within(1.0));
    assertThat(none.at("/best/startupSeconds").asDouble()).isZero();
    assertThat(none.at("/best/checkpointSeconds").asDouble()).isZero();
  }

  @Test
  void json_lists_top_options_and_rejections_with_totals_unless_all() {
    JsonNode bounded = Cli.run(with("--format", "json", "--precision", "bf16", "--top", "3")).json();
    JsonNode all = Cli.run(with("--format", "json", "--precision", "bf16", "--all")).json();
    assertThat(bounded.get("options")).hasSize(3);
    assertThat(bounded.get("rejected")).hasSize(3);
    assertThat(bounded.get("truncated").asBoolean()).isTrue();
    assertThat(bounded.get("optionsTotal").asInt()).isEqualTo(all.get("options").size());
    assertThat(bounded.get("rejectedTotal").asInt()).isEqualTo(all.get("rejected").size());
    int counted = 0;
    for (JsonNode n : bounded.get("rejectedByKind")) {
      counted += n.asInt();
    }
    assertThat(counted).isEqualTo(all.get("rejected").size());
    assertThat(all.get("truncated").asBoolean()).isFalse();
  }

  @Test
  void no_fixed_costs_with_a_fixed_cost_flag_is_an_error() {
    Cli.Run run = Cli.run(with("--no-fixed-costs", "--storage-mbps", "500"));
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("--no-fixed-costs contradicts");
  }

  @Test
  void each_option_splits_its_wall_time_into_startup_compute_and_checkpoints() {
    for (JsonNode o : json.get("options")) {
      double sum = o.get("startupSeconds").asDouble() + o.get("computeSeconds").asDouble()
          + o.get("checkpointSeconds").asDouble();
      assertThat(o.get("startupSeconds").asDouble()).isPositive();
      // each figure is rounded to 6 significant digits
      assertThat(sum).isCloseTo(o.get("wallSeconds").asDouble(), org.assertj.core.api.Assertions.withinPercentage(0.01));
    }
  }

  @Test
  void the_pareto_front_is_not_dominated_by_any_option() {
    for (JsonNode p : json.get("paretoFront")) {
      double t = p.get("wallSeconds").asDouble();
      BigDecimal c = p.at("/totalCost/amount").decimalValue();
      for (JsonNode o : json.get("options")) {
        double ot = o.get("wallSeconds").asDouble();
        BigDecimal oc = o.at("/totalCost/amount").decimalValue();
        boolean dominates = ot <= t && oc.compareTo(c) <= 0 && (ot < t || oc.compareTo(c) < 0);
        assertThat(dominates).as("%s dominates %s", o.get("instanceType"), p.get("instanceType")).isFalse();
      }
    }
  }

  @Test
  void price_per_hour_is_for_all_instances_of_the_option() {
    for (JsonNode o : json.get("options")) {
      if (o.get("pricing").asText().equals("ON_DEMAND")) {
        JsonNode offer = Cli.run("offers", "--provider", o.get("provider").asText(), "--format", "json").json()
            .get("offerings");
        for (JsonNode x : offer) {
          if (x.get("instanceType").asText().equals(o.get("instanceType").asText())
              && x.get("region").asText().equals(o.get("region").asText())) {
            assertThat(o.at("/pricePerHour/amount").decimalValue()).isEqualByComparingTo(
                x.at("/pricePerHour/amount").decimalValue().multiply(BigDecimal.valueOf(o.get("nodes").asInt())));
          }
        }
        return; // one option is enough: the rule is the same for all
      }
    }
  }

  @Test
  void a_given_rate_converts_costs() {
    JsonNode rec = Cli.run(with("--rate", "CNY:USD=0.14", "--provider", "aistudio", "--format", "json")).json();
    JsonNode best = rec.get("best");
    BigDecimal nativeCost = best.at("/nativeTotalCost/amount").decimalValue();
    assertThat(best.at("/nativeTotalCost/currency").asText()).isEqualTo("CNY");
    assertThat(best.at("/totalCost/amount").decimalValue()).isCloseTo(
        nativeCost.multiply(new BigDecimal("0.14")).setScale(2, RoundingMode.HALF_EVEN),
        org.assertj.core.api.Assertions.within(new BigDecimal("0.011")));
  }

  @Test
  void budget_in_a_currency_ranks_in_it() {
    JsonNode rec = Cli.run(with("--budget", "2000CNY", "--format", "json")).json();
    assertThat(rec.get("currency").asText()).isEqualTo("CNY");
    for (JsonNode o : rec.get("options")) {
      assertThat(o.at("/totalCost/amount").decimalValue()).isLessThanOrEqualTo(new BigDecimal("2000"));
    }
  }

  @Test
  void csv_lists_options_then_rejections() {
    // BF16 fixed: the V100 and T4 offerings are rejected
    List<String> lines = Cli.run(with("--format", "csv", "--precision", "bf16")).out().lines().toList();
    assertThat(lines.get(0)).startsWith("status,").contains("totalCost.amount", "memory.perGpuBytes", "reason");
    assertThat(lines.get(1)).startsWith("best,");
    JsonNode bf16 = Cli.run(with("--format", "json", "--precision", "bf16")).json();
    assertThat(lines.stream().filter(l -> l.startsWith("rejected,")).count()).isEqualTo(bf16.get("rejected").size());
    assertThat(lines.stream().filter(l -> l.startsWith("option,")).count())
        .isEqualTo(bf16.get("options").size() - 1);
  }

  @Test
  void plot_draws_every_feasible_option_and_marks_the_best(@TempDir Path dir) throws Exception {
    Path svg = dir.resolve("plot.svg");
    Cli.Run run = Cli.run(with("--plot", svg.toString()));
    assertThat(run.exit()).isZero();
    assertThat(run.err()).contains("plot written to");
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(Files.readAllBytes(svg)));
    int dots = 0;
    int best = 0;
    var circles = doc.getElementsByTagName("circle");
    for (int i = 0; i < circles.getLength(); i++) {
      String cls = ((org.w3c.dom.Element) circles.item(i)).getAttribute("class");
      dots += cls.startsWith("option") ? 1 : 0;
      best += cls.equals("option best") ? 1 : 0;
    }
    int frontOnly = 0;
    JsonNode whole = Cli.run(with("--format", "json", "--all")).json(); // --top also bounds the listed front
    for (JsonNode p : whole.get("paretoFront")) {
      frontOnly += p.get("rank").isNull() ? 1 : 0;
    }
    assertThat(dots).isEqualTo(whole.get("optionsTotal").asInt() + frontOnly);
    assertThat(best).isEqualTo(1);
    String text = new String(Files.readAllBytes(svg), StandardCharsets.UTF_8);
    assertThat(text).contains("Wall-clock time (hours", "Total cost (USD");
  }

  @Test
  void same_input_same_output() {
    assertThat(Cli.run(with("--format", "json")).json()).isEqualTo(json);
  }

  @Test
  void layout_flags_are_refused_where_the_layout_is_searched_not_ignored() {
    // WHEN recommend and compare are given a ZeRO stage and a tensor-parallel degree, which they choose themselves
    Cli.Run recommend = Cli.run("recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M",
        "--zero", "3", "--tp", "2");
    Cli.Run compare = Cli.run("compare", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M",
        "--offering", "aws/p4d.24xlarge", "--pp", "2");

    // THEN each is bad input that names the flags and where a layout of one's own is timed
    assertThat(recommend.exit()).isEqualTo(2);
    assertThat(recommend.err()).contains("--zero and --tp would be ignored", "estimate");
    assertThat(compare.exit()).isEqualTo(2);
    assertThat(compare.err()).contains("--pp would be ignored", "estimate");
    Cli.Run context = Cli.run("recommend", "--model", "llama-2-7b", "--tokens", "50M", "--cp", "2");
    assertThat(context.exit()).isEqualTo(2);
    assertThat(context.err()).contains("--cp would be ignored", "estimate");
  }
}
