package io.github.gpusizer.core.testing;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.FormFactor;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.catalog.Precision;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Currency;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Random;

/**
 * Deterministic synthetic catalogs for benchmarks and equivalence tests: the bundled GPUs with many generated
 * offerings (a realistic mix of GPU models, GPUs per instance, providers, regions, currencies, billing and prices),
 * and SkyPilot {@code vms.csv} text of any number of rows. The same size and seed always give the same data
 * ({@link Random}'s algorithm is fixed by its specification).
 *
 * <p>The prices are synthetic, never shown to users: each GPU's hourly price is the lowest per-GPU US-dollar price
 * the bundled catalog has for it, or for GPUs it prices only elsewhere a rough 0.25 USD + 0.004 USD per dense
 * 16-bit TFLOP/s, then spread by a random factor per offering.
 */
public final class SyntheticCatalogs {
  /** The seed the benchmarks and the equivalence test use. */
  public static final long SEED = 20_260_806L;

  private static final Currency USD = Currency.getInstance("USD");
  private static final Currency CNY = Currency.getInstance("CNY");
  private static final LocalDate PRICE_DATE = LocalDate.of(2026, 1, 15);
  private static final String SOURCE = "synthetic benchmark data (SyntheticCatalogs), not a real price";

  private static final ImmutableList<String> PROVIDERS =
      ImmutableList.of("aws", "gcp", "azure", "lambda", "oci", "runpod", "vast", "aistudio");
  private static final ImmutableList<String> REGIONS = ImmutableList.of(
      "us-east-1", "us-east-2", "us-west-1", "us-west-2", "us-central1", "eu-west-1", "eu-west-2", "eu-central-1",
      "eu-north-1", "ap-northeast-1", "ap-northeast-2", "ap-southeast-1", "ap-southeast-2", "ap-south-1",
      "ca-central-1", "sa-east-1", "me-central-1", "cn-guangdong-b", "cn-jiangsu-a", "cn-beijing-c");
  /** GPUs per instance, and how often each is drawn (most clouds sell 1, 4 and 8). */
  private static final int[] COUNTS = {1, 2, 4, 8};
  private static final int[] COUNT_WEIGHTS = {35, 15, 25, 25};
  /** GPU models drawn more often, as clouds sell them most. */
  private static final ImmutableList<String> POPULAR =
      ImmutableList.of("t4", "a10g", "l4", "v100-sxm2-16gb", "a100-sxm4-40gb", "a100-sxm4-80gb", "h100-sxm", "l40s");

  private SyntheticCatalogs() {}

  /** The bundled GPUs with {@code offerings} generated offerings and no others. */
  public static Catalog catalog(int offerings, long seed) {
    checkArgument(offerings >= 1, "offerings must be >= 1, was %s", offerings);
    Catalog bundled = Catalog.bundled();
    List<Gpu> gpus = weighted(bundled.gpus());
    Map<String, BigDecimal> perGpuUsd = perGpuUsd(bundled);
    Random random = new Random(seed);
    List<Offering> out = new ArrayList<>(offerings);
    for (int i = 0; i < offerings; i++) {
      Gpu gpu = gpus.get(random.nextInt(gpus.size()));
      int count = count(random);
      String provider = PROVIDERS.get(random.nextInt(PROVIDERS.size()));
      String region = REGIONS.get(random.nextInt(REGIONS.size()));
      // 5 % in yuan (about 7.2 CNY per USD), the rest in dollars
      boolean yuan = random.nextInt(100) < 5;
      BigDecimal factor = BigDecimal.valueOf(0.7 + 0.8 * random.nextDouble());
      BigDecimal usd = perGpuUsd.get(gpu.id()).multiply(factor).multiply(BigDecimal.valueOf(count));
      BigDecimal amount = (yuan ? usd.multiply(new BigDecimal("7.2")) : usd).setScale(4, RoundingMode.HALF_EVEN);
      Currency currency = yuan ? CNY : USD;
      Money onDemand = Money.of(amount, currency);
      Optional<Money> spot = random.nextInt(100) < 55
          ? Optional.of(Money.of(amount.multiply(BigDecimal.valueOf(0.25 + 0.45 * random.nextDouble()))
              .setScale(4, RoundingMode.HALF_EVEN), currency))
          : Optional.empty();
      Optional<Money> monthly = random.nextInt(100) < 10
          ? Optional.of(Money.of(amount.multiply(BigDecimal.valueOf(500)).setScale(2, RoundingMode.HALF_EVEN),
              currency))
          : Optional.empty();
      BillingMode billing = BillingMode.values()[random.nextInt(BillingMode.values().length)];
      int vcpus = count * (4 + random.nextInt(13));
      DataSize ram = DataSize.ofGiB(Math.max(16, gpu.memory().toGiB() * count * (1 + random.nextInt(3))));
      OptionalDouble network = count == 8 && random.nextBoolean()
          ? OptionalDouble.of(new double[] {100, 400, 800, 3200}[random.nextInt(4)])
          : OptionalDouble.empty();
      String instanceType = String.format(Locale.ROOT, "syn-%s-%dx-%06d", gpu.id(), count, i);
      out.add(new Offering(provider, instanceType, region, gpu, count, vcpus, ram,
          DataSize.ofGB(random.nextBoolean() ? 0 : 100 * (1 + random.nextInt(40))), onDemand, spot, billing,
          monthly, Optional.empty(), network, network.isPresent() ? Fabric.CLUSTER : Fabric.ETHERNET, PRICE_DATE,
          SOURCE));
    }
    return bundled.withOfferings(out);
  }

  /**
   * A SkyPilot {@code vms.csv} (schema v5 columns) of {@code rows} data rows: about one row in six a CPU-only
   * machine, the rest GPU instance types listed in one to three availability zones each, with SkyPilot's
   * accelerator names and quoted {@code GpuInfo} cells.
   */
  public static String skyPilotCsv(int rows, long seed) {
    checkArgument(rows >= 1, "rows must be >= 1, was %s", rows);
    Catalog bundled = Catalog.bundled();
    List<Gpu> gpus = new ArrayList<>();
    for (Gpu gpu : weighted(bundled.gpus())) {
      if (gpu.formFactor() != FormFactor.TPU) { // SkyPilot lists TPUs apart; they go to the load report
        gpus.add(gpu);
      }
    }
    Map<String, BigDecimal> perGpuUsd = perGpuUsd(bundled);
    Random random = new Random(seed);
    StringBuilder csv = new StringBuilder(rows * 160);
    csv.append("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,"
        + "AvailabilityZone\n");
    int written = 0;
    int type = 0;
    while (written < rows) {
      String region = REGIONS.get(random.nextInt(REGIONS.size()));
      int zones = 1 + random.nextInt(3);
      boolean cpuOnly = random.nextInt(6) == 0;
      Gpu gpu = gpus.get(random.nextInt(gpus.size()));
      int count = count(random);
      int vcpus = cpuOnly ? 2 << random.nextInt(7) : count * (4 + random.nextInt(13));
      double ramGiB = cpuOnly ? vcpus * 4.0 : Math.max(16, gpu.memory().toGiB() * count * (1 + random.nextInt(3)));
      String accelerator = gpu.aliases().isEmpty() ? gpu.id() : gpu.aliases().get(0);
      String instanceType = cpuOnly
          ? String.format(Locale.ROOT, "c%d.%dxl-%05d", 5 + random.nextInt(3), vcpus, type)
          : String.format(Locale.ROOT, "g%d.%s-%dx-%05d", 4 + random.nextInt(3), gpu.id(), count, type);
      type++;
      BigDecimal base = cpuOnly
          ? BigDecimal.valueOf(0.0425 * vcpus)
          : perGpuUsd.get(gpu.id()).multiply(BigDecimal.valueOf(count));
      for (int z = 0; z < zones && written < rows; z++, written++) {
        BigDecimal price = base.multiply(BigDecimal.valueOf(0.9 + 0.2 * random.nextDouble()))
            .setScale(4, RoundingMode.HALF_EVEN);
        csv.append(instanceType).append(',');
        if (!cpuOnly) {
          csv.append(accelerator).append(',').append(count).append(".0");
        } else {
          csv.append(',');
        }
        csv.append(',').append(vcpus).append(".0,").append(ramGiB).append(',');
        if (!cpuOnly) {
          long mib = Math.round(gpu.memory().toMiB());
          csv.append(String.format(Locale.ROOT, "\"{'Gpus': [{'Name': '%s', 'Manufacturer': '%s', 'Count': %d.0, "
              + "'MemoryInfo': {'SizeInMiB': %d}}], 'TotalGpuMemoryInMiB': %d}\"",
              accelerator, gpu.vendor(), count, mib, mib * count));
        }
        csv.append(',').append(price.toPlainString()).append(',');
        if (random.nextInt(100) < 70) {
          csv.append(price.multiply(BigDecimal.valueOf(0.3 + 0.4 * random.nextDouble()))
              .setScale(4, RoundingMode.HALF_EVEN).toPlainString());
        }
        csv.append(',').append(region).append(',').append(region).append((char) ('a' + z)).append('\n');
      }
    }
    return csv.toString();
  }

  private static int count(Random random) {
    int r = random.nextInt(100);
    for (int i = 0; i < COUNTS.length; i++) {
      r -= COUNT_WEIGHTS[i];
      if (r < 0) {
        return COUNTS[i];
      }
    }
    throw new AssertionError("weights sum to 100");
  }

  /** Every GPU once, the popular ones three times: the list to draw from. */
  private static List<Gpu> weighted(List<Gpu> gpus) {
    List<Gpu> out = new ArrayList<>();
    for (Gpu gpu : gpus) {
      int copies = POPULAR.contains(gpu.id()) ? 3 : 1;
      for (int k = 0; k < copies; k++) {
        out.add(gpu);
      }
    }
    return out;
  }

  /** The hourly US-dollar price of one GPU of each model, as the class comment describes. */
  private static Map<String, BigDecimal> perGpuUsd(Catalog bundled) {
    Map<String, BigDecimal> prices = new HashMap<>();
    for (Offering o : bundled.offerings()) {
      if (o.onDemandPerHour().currency().equals(USD)) {
        BigDecimal perGpu = o.onDemandPerHour().amount().divide(BigDecimal.valueOf(o.gpuCount()), 6,
            RoundingMode.HALF_EVEN);
        prices.merge(o.gpu().id(), perGpu, BigDecimal::min);
      }
    }
    for (Gpu gpu : bundled.gpus()) {
      prices.computeIfAbsent(gpu.id(), id -> {
        double tflops = gpu.supports(Precision.BF16) ? gpu.denseTflops(Precision.BF16)
            : gpu.supports(Precision.FP16) ? gpu.denseTflops(Precision.FP16) : gpu.denseTflops(Precision.FP32);
        return BigDecimal.valueOf(0.25 + 0.004 * tflops).setScale(6, RoundingMode.HALF_EVEN);
      });
    }
    return prices;
  }
}
