package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** {@code gpusizer compare}: seed 001's rent-vs-rent and seed 002's buy-vs-rent from the command line. */
class CompareCommandTest {
  private static final String[] LORA = {"compare", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M",
      "--micro-batch", "1", "--seq", "1024"};

  private static String[] with(String... more) {
    String[] all = java.util.Arrays.copyOf(LORA, LORA.length + more.length);
    System.arraycopy(more, 0, all, LORA.length, more.length);
    return all;
  }

  @Test
  void a_long_rental_of_a_mid_range_card_against_a_short_one_of_a_high_end_card() {
    // GIVEN seed 000's AIStudio A100-40GB (4.81 CNY/h) and RTX 4090 (2.09 CNY/h)
    JsonNode json = Cli.run(with("--offering", "aistudio/NVIDIA-A100-40GB-x1,aistudio/NVIDIA-4090-24GB-x1",
        "--format", "json")).json();
    // THEN the cheaper rental comes first and the verdict names the faster one
    JsonNode rows = json.path("rentals");
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).path("relativeToCheapest").asDouble()).isEqualTo(1.0);
    assertThat(rows.get(1).path("relativeToCheapest").asDouble()).isGreaterThan(1.0);
    assertThat(json.path("verdict").asText()).contains("is cheapest").contains("The fastest");
  }

  @Test
  void buying_against_renting_gives_the_break_even_and_the_seeds_third_of_the_price() {
    Cli.Run run = Cli.run(with("--offering", "aistudio/NVIDIA-4090-24GB-x1", "--electricity", "1.2CNY"));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("BUY VS RENT (3-year write-off)").contains("owning pays off above")
        .contains("a year of round-the-clock on-demand rent").contains("deep-learning server guide");
  }

  @Test
  void a_malformed_or_unknown_offering_is_a_clear_error() {
    Cli.Run malformed = Cli.run(with("--offering", "nope"));
    assertThat(malformed.exit()).isEqualTo(2);
    assertThat(malformed.err()).contains("--offering takes PROVIDER/INSTANCE");
    Cli.Run unknown = Cli.run(with("--offering", "aistudio/NOPE"));
    assertThat(unknown.exit()).isNotZero();
    assertThat(unknown.err()).contains("--offering aistudio/NOPE is not in the catalog");
  }

  @Test
  void electricity_in_another_currency_than_the_rent_is_refused() {
    Cli.Run run = Cli.run(with("--offering", "aistudio/NVIDIA-4090-24GB-x1", "--electricity", "0.15USD"));
    assertThat(run.exit()).isNotZero();
    assertThat(run.err()).contains("--electricity must be in the currency of aistudio/NVIDIA-4090-24GB-x1's price, "
        + "CNY, was '0.15USD'");
  }
}
