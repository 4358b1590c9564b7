package io.github.gpusizer.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.LoadReport;
import io.github.gpusizer.catalog.Offering;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticCatalogsTest {

  @Test
  void same_size_and_seed_give_the_same_offerings() {
    // GIVEN / WHEN two catalogs generated alike
    Catalog a = SyntheticCatalogs.catalog(500, SyntheticCatalogs.SEED);
    Catalog b = SyntheticCatalogs.catalog(500, SyntheticCatalogs.SEED);

    // THEN they are equal offering by offering, and another seed differs
    assertThat(a.offerings()).hasSize(500).isEqualTo(b.offerings());
    assertThat(SyntheticCatalogs.catalog(500, 1).offerings()).isNotEqualTo(a.offerings());
  }

  @Test
  void catalog_mixes_gpus_counts_providers_currencies_and_pricing() {
    // WHEN
    Catalog c = SyntheticCatalogs.catalog(5_000, SyntheticCatalogs.SEED);

    // THEN the mix is realistic, not one shape repeated
    assertThat(c.offerings().stream().map(o -> o.gpu().id()).distinct().count()).isEqualTo(c.gpus().size());
    assertThat(c.offerings().stream().map(Offering::gpuCount).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder(1, 2, 4, 8);
    assertThat(c.offerings().stream().map(Offering::provider).distinct().count()).isEqualTo(8);
    assertThat(c.offerings().stream().map(Offering::region).distinct().count()).isEqualTo(20);
    assertThat(c.offerings().stream().map(o -> o.onDemandPerHour().currency().getCurrencyCode()).distinct())
        .containsExactlyInAnyOrder("USD", "CNY");
    assertThat(c.offerings()).anyMatch(o -> o.spotPerHour().isPresent())
        .anyMatch(o -> o.spotPerHour().isEmpty())
        .anyMatch(o -> o.monthly().isPresent());
  }

  @Test
  void skypilot_csv_loads_with_cpu_only_rows_reported_and_zones_merged(@TempDir Path dir) throws IOException {
    // GIVEN 3,000 generated rows in a folder named for the provider
    Path file = Files.createDirectory(dir.resolve("aws")).resolve("vms.csv");
    String csv = SyntheticCatalogs.skyPilotCsv(3_000, SyntheticCatalogs.SEED);
    Files.writeString(file, csv);

    // WHEN
    Catalog c = Catalog.load(file);

    // THEN each CPU-only row is reported, and the GPU rows of one instance type and region are one offering
    List<String[]> rows = csv.lines().skip(1).map(l -> l.split(",", 3)).collect(Collectors.toList());
    assertThat(rows).hasSize(3_000);
    long cpuOnly = rows.stream().filter(r -> r[1].isEmpty()).count();
    Set<String> gpuTypesAndRegions = csv.lines().skip(1).filter(l -> !l.split(",", 3)[1].isEmpty())
        .map(l -> l.substring(0, l.indexOf(',')) + "/" + l.split(",")[l.split(",").length - 2])
        .collect(Collectors.toSet());
    assertThat(cpuOnly).isGreaterThan(300);
    assertThat(c.loadReport().count(LoadReport.Reason.NO_ACCELERATOR)).isEqualTo(cpuOnly);
    assertThat(c.loadReport().skipped()).hasSize((int) cpuOnly);
    assertThat(c.offerings()).hasSize(gpuTypesAndRegions.size()).allMatch(o -> o.provider().equals("aws"));
    assertThat(SyntheticCatalogs.skyPilotCsv(3_000, SyntheticCatalogs.SEED)).isEqualTo(csv);
  }
}
