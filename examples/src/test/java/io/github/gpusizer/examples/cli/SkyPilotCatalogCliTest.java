package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CLI reads the current SkyPilot catalogs as they are (real v8 rows of Lambda, Vast and AWS under
 * {@code skypilot-real/}, cited in its README): without a flag, rows of accelerators the catalog does not model are
 * left out and summed up in one line on stderr; {@code --strict} fails on the first of them.
 */
class SkyPilotCatalogCliTest {

  private static String file(String cloud) {
    try {
      return Path.of(SkyPilotCatalogCliTest.class.getResource("skypilot-real/" + cloud + "/vms.csv").toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> args(String command, String... more) {
    List<String> args = new ArrayList<>(List.of(command, "--no-bundled-offerings"));
    for (String cloud : List.of("lambda", "vast", "aws")) {
      args.add("--catalog");
      args.add(file(cloud));
    }
    args.addAll(List.of(more));
    return args;
  }

  @Test
  void real_v8_catalogs_of_three_clouds_load_without_a_flag() {
    // WHEN the offers of Lambda, Vast (CRLF) and AWS (with Arch) are listed as JSON
    Cli.Run run = Cli.run(args("offers", "--format", "json").toArray(String[]::new));

    // THEN the command succeeds and stdout is pure JSON with offerings of all three clouds
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode offers = run.json().get("offerings");
    List<String> providers = new ArrayList<>();
    offers.forEach(o -> providers.add(o.get("provider").asText()));
    assertThat(providers).contains("lambda", "vast", "aws");
    List<String> instances = new ArrayList<>();
    offers.forEach(o -> instances.add(o.get("instanceType").asText()));
    assertThat(instances).contains("gpu_1x_a6000", "gpu_1x_rtx6000", "1x-RTX_3060-32-65536", "p4d.24xlarge",
        "g5g.16xlarge", "g4ad.8xlarge");
  }

  @Test
  void rows_left_out_are_named_in_one_summary_line_on_stderr() {
    Cli.Run run = Cli.run(args("offers", "--format", "csv").toArray(String[]::new));

    assertThat(run.exit()).isZero();
    List<String> err = run.err().lines().toList();
    assertThat(err).hasSize(1);
    assertThat(err.get(0))
        .startsWith("catalog: left out ")
        .contains("of accelerators not modelled (RTX4060 1, RTX4070 1)")
        .doesNotContain("Radeon Pro V520", "T4g")
        .contains("without an accelerator", "with a fraction of a GPU")
        .endsWith("; --strict fails on accelerators not modelled");
    assertThat(run.out()).doesNotContain("left out");
  }

  @Test
  void a_catalog_without_unknown_accelerators_gets_no_strict_hint() {
    Cli.Run run = Cli.run("offers", "--no-bundled-offerings", "--catalog", file("lambda"));

    assertThat(run.exit()).isZero();
    assertThat(run.err().strip()).isEqualTo("catalog: left out 2 rows: 2 without an accelerator");
  }

  @Test
  void strict_fails_on_the_first_accelerator_not_modelled_with_file_line_and_suggestions() {
    // the Vast excerpt's first RTX 4070 Ti SUPER row, which SkyPilot names RTX4070
    Cli.Run run = Cli.run("offers", "--no-bundled-offerings", "--catalog", file("vast"), "--strict");

    assertThat(run.exit()).isEqualTo(GpuSizerCli.EXIT_BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines()).hasSize(1);
    assertThat(run.err())
        .contains("vms.csv", "line 44", "AcceleratorName", "unknown GPU 'RTX4070'")
        .contains("a strict load fails on accelerators the catalog does not model");
  }

  @Test
  void price_date_sets_the_skypilot_date_and_old_prices_are_counted_in_the_summary() {
    // GIVEN the Lambda excerpt read on a date long past
    Cli.Run run = Cli.run("offers", "--no-bundled-offerings", "--catalog", file("lambda"), "--price-date",
        "2024-01-06", "--format", "json");

    // THEN every offering carries that date and the summary line counts them as stale
    assertThat(run.exit()).as(run.err()).isZero();
    run.json().get("offerings").forEach(o -> assertThat(o.get("priceDate").asText()).isEqualTo("2024-01-06"));
    assertThat(run.err().strip()).isEqualTo("catalog: left out 2 rows: 2 without an accelerator; "
        + run.json().get("offerings").size() + " offerings priced more than 180 days ago (oldest read 2024-01-06): check the "
        + "providers' current prices");
  }

  @Test
  void stale_after_sets_the_age_past_which_prices_warn() {
    // GIVEN the Lambda excerpt priced 2020-01-06, and a threshold longer than its age whatever day the test runs
    String[] job = {"recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M",
        "--no-bundled-offerings", "--catalog", file("lambda"), "--price-date", "2020-01-06", "--format", "json"};
    Cli.Run lenient = Cli.run(java.util.stream.Stream.concat(java.util.Arrays.stream(job),
        java.util.stream.Stream.of("--stale-after", "36500")).toArray(String[]::new));

    // THEN no option warns, while by default every one does
    assertThat(lenient.exit()).as(lenient.err()).isZero();
    assertThat(lenient.json().path("options").toString()).doesNotContain("price-stale");
    assertThat(Cli.run(job).json().path("options").toString()).contains("price-stale");
  }

  @Test
  void options_priced_from_an_old_skypilot_file_warn_that_the_price_is_stale() {
    // GIVEN only the Lambda excerpt, priced 2020-01-06: stale whatever day the test runs after mid-2020
    Cli.Run run = Cli.run("recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M",
        "--no-bundled-offerings", "--catalog", file("lambda"), "--price-date", "2020-01-06", "--format", "json");

    // THEN every option says so, naming its instance, the date and the flag that fixes it
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.json().path("options")).isNotEmpty().allSatisfy(o -> {
      List<JsonNode> stale = new ArrayList<>();
      o.path("warnings").forEach(w -> {
        if (w.path("code").asText().equals("price-stale")) {
          stale.add(w);
        }
      });
      assertThat(stale).singleElement().satisfies(w -> {
        assertThat(w.path("message").asText()).contains(o.path("instanceType").asText(),
            "was read on 2020-01-06", "older than 180 days");
        assertThat(w.path("fix").asText()).contains("--catalog");
      });
    });
  }

  @Test
  void a_fresh_price_date_adds_no_staleness_note() {
    Cli.Run run = Cli.run("offers", "--no-bundled-offerings", "--catalog", file("lambda"), "--price-date",
        java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString());
    assertThat(run.exit()).isZero();
    assertThat(run.err()).doesNotContain("priced more than");
  }

  @Test
  void a_malformed_price_date_is_rejected_with_the_expected_form() {
    Cli.Run run = Cli.run("offers", "--catalog", file("lambda"), "--price-date", "06/01/2025");
    assertThat(run.exit()).isEqualTo(GpuSizerCli.EXIT_BAD_INPUT);
    assertThat(run.err()).contains("--price-date", "'06/01/2025' is not a date of the form YYYY-MM-DD");
  }

  @Test
  void a_price_date_without_a_catalog_file_is_an_error() {
    Cli.Run run = Cli.run("offers", "--price-date", "2025-01-06");
    assertThat(run.exit()).isEqualTo(GpuSizerCli.EXIT_BAD_INPUT);
    assertThat(run.err()).contains("--price-date sets the price date of SkyPilot --catalog files");
  }
}
