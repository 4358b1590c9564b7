package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The CLI's warnings speak its own terms, once per recommendation where every option shares them. */
class WarningsCliTest {
  /** A Java call ({@code cudaVersion(...)}, {@code runs(n)}) or a Java type's constant ({@code ExecutionMode.X}). */
  private static final Pattern JAVA = Pattern.compile("\\b[a-z][A-Za-z]*\\((\\.\\.\\.|\"|[a-z]+\\)|\\))"
      + "|\\b(ExecutionMode|PrecisionMode|Task\\.Builder|Interruptions)\\b");

  private static final String[][] JOBS = {
      {"recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M", "--spot"},
      {"recommend", "--model", "resnet50", "--dataset", "imagenet-1k", "--epochs", "90", "--currency", "CNY"},
      {"recommend", "--model", "gpt2", "--task", "infer", "--samples", "1M", "--gpu", "rtx-4090"},
      {"estimate", "--model", "llama-2-7b", "--task", "infer", "--gpu", "a100-sxm4-80gb", "--generate", "200",
          "--seq", "16"},
      {"estimate", "--model", "llama-2-7b", "--task", "infer", "--gpu", "tpu-v4", "--generate", "200", "--seq", "16",
          "--precision", "bf16-pure"},
  };

  private static String[] with(String[] job, String... more) {
    String[] all = java.util.Arrays.copyOf(job, job.length + more.length);
    System.arraycopy(more, 0, all, job.length, more.length);
    return all;
  }

  @Test
  void no_cli_output_names_a_java_method() {
    for (String[] job : JOBS) {
      for (String format : new String[] {"table", "json", "csv"}) {
        Cli.Run run = Cli.run(with(job, "--format", format));
        assertThat(run.exit()).as(String.join(" ", job) + "\n" + run.err()).isIn(0, 3);
        assertThat(JAVA.matcher(run.out()).results().map(r -> r.group()).toList())
            .as("%s --format %s", String.join(" ", job), format).isEmpty();
      }
    }
  }

  @Test
  void the_cli_points_at_flags_that_exist() {
    Cli.Run run = Cli.run(with(JOBS[0], "--format", "json"));
    List<String> fixes = new ArrayList<>();
    run.json().path("warnings").forEach(w -> fixes.add(w.path("fix").asText()));
    run.json().path("options").forEach(o -> o.path("warnings").forEach(w -> fixes.add(w.path("fix").asText())));
    assertThat(fixes).anyMatch(f -> f.contains("--spot-interruptions"));
    String help = Cli.run("recommend", "--help").out();
    for (String f : fixes) {
      java.util.regex.Matcher flag = Pattern.compile("--[a-z-]+").matcher(f);
      while (flag.find()) {
        assertThat(help).as(f).contains(flag.group());
      }
    }
  }

  @Test
  void a_warning_every_option_shares_is_printed_once() {
    // GIVEN ImageNet training, where no micro-batch is chosen: every option says which one it took (32, the most the
    // search tries without one, not "the largest that fits": ResNet-50 at 32 uses a few GiB of a 24 GiB card)
    Cli.Run table = Cli.run(JOBS[1]);
    assertThat(table.exit()).as(table.err()).isZero();
    String shared = "none was chosen, so the most tried without one (Goyal et al. 2017";
    // THEN the table gives it once, under the warnings for every option
    assertThat(table.out().split(Pattern.quote(shared), -1)).hasSize(2);
    assertThat(table.out()).contains("WARNINGS FOR EVERY OPTION");

    // AND the JSON carries it once at the top, and each option only its code
    JsonNode json = Cli.run(with(JOBS[1], "--format", "json", "--all")).json();
    assertThat(json.path("warnings").toString()).contains(shared);
    assertThat(json.path("warnings").get(0).path("code").asText()).isEqualTo("micro-batch-chosen");
    assertThat(json.path("options")).allSatisfy(o -> {
      assertThat(o.path("warnings").toString()).doesNotContain(shared);
      assertThat(o.path("warningCodes").toString()).contains("micro-batch-chosen");
    });
  }

  @Test
  void warnings_in_json_carry_a_code_a_severity_and_the_fix_in_cli_terms() {
    // GIVEN only 4090s: the CUDA warning is every option's, so it is at the top
    JsonNode json = Cli.run(with(JOBS[2], "--format", "json")).json();
    JsonNode cuda = null;
    for (JsonNode w : json.path("warnings")) {
      if (w.path("code").asText().equals("cuda-version")) {
        cuda = w;
      }
    }
    assertThat(cuda).isNotNull();
    assertThat(cuda.path("severity").asText()).isEqualTo("WARNING");
    assertThat(cuda.path("fix").asText()).isEqualTo("give --cuda VERSION to rule out GPUs your stack cannot run");
  }

  @Test
  void a_tpu_is_not_told_about_eager_pytorch() {
    Cli.Run run = Cli.run(JOBS[4]);
    assertThat(run.out()).doesNotContain("eager PyTorch").doesNotContain("CUDA graphs");
  }

  @Test
  void spot_interruptions_need_spot_and_a_checkpoint_interval() {
    Cli.Run noSpot = Cli.run("recommend", "--model", "gpt2", "--samples", "1M", "--spot-interruptions", "0.01");
    assertThat(noSpot.exit()).isEqualTo(2);
    assertThat(noSpot.err()).contains("--spot-interruptions prices spot capacity: give --spot as well");
    Cli.Run noInterval = Cli.run("recommend", "--model", "gpt2", "--samples", "1M", "--spot",
        "--spot-interruptions", "0.01");
    assertThat(noInterval.err()).contains("--spot-interruptions needs --checkpoint-every");
    Cli.Run priced = Cli.run("recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M", "--spot",
        "--spot-interruptions", "0.05", "--checkpoint-every", "30m", "--format", "json", "--all");
    assertThat(priced.exit()).as(priced.err()).isZero();
    assertThat(priced.out()).contains("interruptions expected").doesNotContain("priced as if never interrupted");
  }

  @Test
  void spot_without_a_rate_is_priced_with_the_providers_default_and_zero_means_never_interrupted() {
    // GIVEN spot allowed and no --spot-interruptions
    Cli.Run byDefault = Cli.run("recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M", "--spot",
        "--provider", "aws", "--format", "json", "--all");
    assertThat(byDefault.exit()).as(byDefault.err()).isZero();
    // THEN AWS spot options carry the default rate, its source and Young's checkpoint interval
    assertThat(byDefault.out()).contains("aws's default rate", "Spot Instance Advisor", "Young's optimum")
        .doesNotContain("priced as if never interrupted");

    // AND --spot-interruptions 0 needs no --checkpoint-every and prices spot as never interrupted
    Cli.Run never = Cli.run("recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M", "--spot",
        "--provider", "aws", "--spot-interruptions", "0", "--format", "json", "--all");
    assertThat(never.exit()).as(never.err()).isZero();
    assertThat(never.out()).contains("priced as never interrupted, as asked").doesNotContain("default rate");
  }

  @Test
  void runs_are_sized_together() {
    Cli.Run run = Cli.run("recommend", "--model", "resnet50", "--dataset", "pascal-voc-2012", "--epochs", "10",
        "--runs", "2", "--format", "json");
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.json().path("best").path("runs").asInt()).isEqualTo(2);
  }

  @Test
  void the_rationale_says_why_it_departs_from_the_seeds_gpu_counts() {
    // GIVEN ImageNet on A100-40GBs (p4d, joined by EFA) with a 1 h deadline: 8 GPUs, the guide's classic
    // configuration, are too slow
    JsonNode best = Cli.run("recommend", "--model", "resnet50", "--dataset", "imagenet-1k", "--epochs", "90",
        "--deadline", "1h", "--gpu", "a100-sxm4-40gb", "--format", "json").json().path("best");
    // THEN the rationale names the rule and the deadline that overrides it
    assertThat(best.path("rationale").asText()).contains("Baidu AIStudio's GPU guide suggests 8 GPUs for ImageNet")
        .containsPattern("this uses [1-9][0-9] because 8 would need about [0-9.]+ h of steps against the 1.0 h deadline");

    // AND COCO on one fast GPU says fewer meet the deadline for less
    JsonNode coco = Cli.run("recommend", "--model", "resnet50", "--dataset", "coco-2017", "--epochs", "12",
        "--format", "json").json().path("best");
    assertThat(coco.path("rationale").asText()).contains("Baidu AIStudio's GPU guide suggests 4 GPUs for a mid-sized data set such as "
        + "MS COCO; this uses 1 because fewer GPUs meet the 24.0 h deadline for less");
  }
}
