package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gpusizer.catalog.Catalog;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class OffersCommandTest {

  @Test
  void filters_by_gpu_provider_and_price() {
    JsonNode offers = Cli.run("offers", "--gpu", "a100", "--provider", "aws", "--max-price", "35USD",
        "--format", "json").json().get("offerings");
    assertThat(offers.size()).isPositive();
    for (JsonNode o : offers) {
      assertThat(o.get("provider").asText()).isEqualTo("aws");
      assertThat(o.get("gpu").asText()).isEqualTo("a100-sxm4-40gb");
      assertThat(o.get("pricePerHour").get("currency").asText()).isEqualTo("USD");
      assertThat(o.get("pricePerHour").get("amount").decimalValue()).isLessThanOrEqualTo(new BigDecimal("35"));
    }
  }

  @Test
  void price_per_gpu_hour_is_the_instance_price_divided_by_its_gpus() {
    for (JsonNode o : Cli.run("offers", "--format", "json").json().get("offerings")) {
      BigDecimal perGpu = o.get("pricePerHour").get("amount").decimalValue()
          .divide(BigDecimal.valueOf(o.get("gpuCount").asInt()), 4, java.math.RoundingMode.HALF_EVEN);
      assertThat(o.get("pricePerGpuHour").get("amount").decimalValue()).isEqualByComparingTo(perGpu);
    }
  }

  @Test
  void table_and_csv_list_every_bundled_offering() {
    int n = Catalog.bundled().offerings().size();
    assertThat(Cli.run("offers", "--format", "csv").out().lines().count()).isEqualTo(n + 1);
    Cli.Run table = Cli.run("offers");
    assertThat(table.exit()).isZero();
    assertThat(table.out()).contains("PROVIDER", "PRICE/H", "aistudio", "NVIDIA-4090-24GB-x1", "2.09 CNY");
  }

  @Test
  void unknown_provider_lists_the_known_ones() {
    Cli.Run run = Cli.run("offers", "--provider", "nosuchcloud");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("nosuchcloud", "aws", "lambda");
  }

  @Test
  void own_catalog_file_adds_offerings() throws Exception {
    Path mine = Path.of(OffersCommandTest.class.getResource(
        "/io/github/gpusizer/examples/customcatalog/my-offerings.csv").toURI());
    JsonNode offers = Cli.run("offers", "--catalog", mine.toString(), "--no-bundled-offerings", "--format", "json")
        .json().get("offerings");
    assertThat(offers).isNotEmpty();
    for (JsonNode o : offers) {
      assertThat(o.get("provider").asText()).isEqualTo("mylab");
    }
    List<String> all = Cli.run("offers", "--catalog", mine.toString(), "--format", "csv").out().lines().toList();
    assertThat(all).hasSize(Catalog.bundled().offerings().size() + offers.size() + 1);
  }

  @Test
  void gpu_and_provider_take_several_values_like_recommend() {
    // WHEN offers are asked for two GPUs at two providers
    Cli.Run run = Cli.run("offers", "--gpu", "A100-80GB,h100-sxm", "--provider", "aws", "--provider", "lambda",
        "--format", "json");

    // THEN every offering is one of those GPUs at one of those providers, and each combination that exists shows
    assertThat(run.exit()).as(run.err()).isZero();
    var rows = run.json().get("offerings");
    assertThat(rows).isNotEmpty();
    java.util.Set<String> seen = new java.util.HashSet<>();
    rows.forEach(o -> {
      assertThat(o.get("gpu").asText()).isIn("a100-sxm4-80gb", "h100-sxm");
      assertThat(o.get("provider").asText()).isIn("aws", "lambda");
      seen.add(o.get("provider").asText() + "/" + o.get("gpu").asText());
    });
    assertThat(seen).contains("aws/a100-sxm4-80gb", "aws/h100-sxm");
  }

  @Test
  void recommend_refuses_a_provider_without_offerings_as_offers_does() {
    Cli.Run run = Cli.run("recommend", "--model", "gpt2", "--tokens", "1M", "--provider", "aws,nosuchcloud");

    assertThat(run.exit()).isEqualTo(GpuSizerCli.EXIT_BAD_INPUT);
    assertThat(run.err()).contains("--provider 'nosuchcloud' has no offerings", "aws", "lambda").hasLineCount(1);
  }
}
