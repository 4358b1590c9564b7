package io.github.gpusizer.examples.cli;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.catalog.OfferingFilter;
import io.github.gpusizer.examples.support.Quantities;
import java.util.Currency;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gpusizer offers}: priced offerings, filtered. */
@Command(name = "offers", mixinStandardHelpOptions = true, sortOptions = false,
    description = "List priced cloud offerings (instance types with their GPUs, host and prices).")
final class OffersCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  CommonOptions common;

  @Mixin
  OfferingOptions only;

  @Option(names = "--max-price", paramLabel = "X",
      description = "Only offerings whose whole instance costs at most this per hour on demand, e.g. 10USD or "
          + "20CNY (a bare number is in USD); offerings priced in another currency are left out.")
  String maxPrice;

  @Option(names = "--min-gpus", paramLabel = "N", converter = Converters.PositiveInt.class,
      description = "Only instances with at least this many GPUs.")
  Integer minGpus;

  @Override
  public Integer call() {
    Catalog catalog = common.catalog();
    List<String> gpuIds = only.gpuIds(catalog);
    List<String> providers = only.providers(catalog);
    OfferingFilter.Builder filter = OfferingFilter.builder();
    if (maxPrice != null) {
      filter.maxPricePerHour(Quantities.money("--max-price", maxPrice, Currency.getInstance("USD")));
    }
    if (minGpus != null) {
      filter.minGpuCount(minGpus);
    }
    List<Offering> offerings = catalog.offerings(filter.build()).stream()
        .filter(o -> OfferingOptions.matches(o, gpuIds, providers)).toList();
    Output.print(spec, OffersReport.render(offerings, catalog, common.format), common.format);
    return 0;
  }

}
