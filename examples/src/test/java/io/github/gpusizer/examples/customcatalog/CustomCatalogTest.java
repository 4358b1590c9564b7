package io.github.gpusizer.examples.customcatalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.Option;
import io.github.gpusizer.core.Recommendation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CustomCatalogTest {
  private static final Path OWN = CustomCatalog.example("/io/github/gpusizer/examples/customcatalog/my-offerings.csv");
  private static final Path SKY =
      CustomCatalog.example("/io/github/gpusizer/examples/customcatalog/skypilot/lambda/vms.csv");

  @Test
  void own_prices_are_read_with_the_bundled_gpus() {
    Catalog mine = CustomCatalog.ownPrices(OWN);
    assertThat(mine.offerings()).extracting(Offering::provider).containsOnly("mylab");
    Offering dgx = mine.offerings().get(0);
    assertThat(dgx.gpu().id()).isEqualTo("a100-sxm4-80gb");
    assertThat(dgx.onDemandPerHour().isEqualTo(Money.of("9.60", "USD"))).isTrue();
    assertThat(mine.offerings().get(2).gpu().id()).isEqualTo("rtx-4090"); // "RTX 4090" resolved by alias
  }

  @Test
  void recommendation_over_own_prices_uses_only_them() {
    Recommendation rec = CustomCatalog.recommend(CustomCatalog.ownPrices(OWN));
    assertThat(rec.options()).isNotEmpty();
    assertThat(rec.options()).extracting(o -> o.offering().provider()).containsOnly("mylab");
  }

  @Test
  void bundled_plus_own_has_both() {
    Catalog both = CustomCatalog.bundledPlus(OWN);
    assertThat(both.offerings().size()).isEqualTo(Catalog.bundled().offerings().size() + 3);
  }

  @Test
  void skypilot_file_gives_lambda_offerings_in_usd() {
    Catalog lambda = CustomCatalog.skyPilot(SKY, "lambda");
    // 7 rows, two of them gpu_1x_a10 in different regions: 7 offerings (one per instance type and region)
    assertThat(lambda.offerings()).hasSize(7);
    Offering h100x8 = lambda.offerings().stream().filter(o -> o.instanceType().equals("gpu_8x_h100_sxm5"))
        .findFirst().orElseThrow();
    assertThat(h100x8.gpu().id()).isEqualTo("h100-sxm");
    assertThat(h100x8.gpuCount()).isEqualTo(8);
    assertThat(h100x8.onDemandPerHour().isEqualTo(Money.of("23.92", "USD"))).isTrue();
    Recommendation rec = CustomCatalog.recommend(lambda);
    for (Option o : rec.options()) {
      assertThat(o.offering().provider()).isEqualTo("lambda");
    }
  }
}
