package io.github.gpusizer.catalog;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.github.gpusizer.catalog.CsvTable.Row;
import io.github.gpusizer.catalog.CsvTable.Sign;
import io.github.gpusizer.catalog.LoadReport.Reason;
import io.github.gpusizer.catalog.LoadReport.Skipped;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Currency;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Reads a SkyPilot catalog ({@code vms.csv}, schemas v5 to v8 of skypilot-org/skypilot-catalog): columns are matched
 * by name, in any order; columns this reader does not use ({@code GpuInfo}, v8's {@code Arch}, ...) are ignored;
 * lines may end in LF or CRLF.
 *
 * <p>Mapping: a row with an instance type and an accelerator is an offering of that instance type. A row without
 * an accelerator is a CPU-only machine; a row without an on-demand {@code Price} is not sold on demand; a row with a
 * fraction of a GPU, a TPU slice or an accelerator the catalog does not model (Trainium, Inferentia, Gaudi, ...) is
 * not modelled: all these go to the {@link LoadReport}, unless the load is strict, where an unknown accelerator
 * fails it. SkyPilot lists one row
 * per availability zone; the rows of one instance type in one region become one offering with the lowest
 * on-demand and the lowest spot price of its zones (a spot price of 0 is read as none). GCP rows that have an accelerator but no instance type price
 * the GPUs alone; each is combined with a host VM of the same zone as {@link GcpHosts} describes (the offering's
 * price is the sum of both rows' prices, its vCPUs and memory are the host's). SkyPilot states no network: each
 * offering gets its instance family's documented fabric and bandwidth from {@link FabricDefaults}, noted in its
 * source, or ordinary Ethernet without a stated bandwidth for a family the table does not know.
 */
final class SkyPilotCsv {
  static final String FORMAT = "SkyPilot vms.csv";
  static final ImmutableList<String> REQUIRED = ImmutableList.of(
      "InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB", "Price", "Region");
  static final ImmutableList<String> OPTIONAL = ImmutableList.of("SpotPrice", "AvailabilityZone", "GpuInfo");
  /** SkyPilot catalogs price in US dollars (skypilot-catalog README, schema v5: "Price ... of the resource"). */
  private static final Currency USD = Currency.getInstance("USD");
  /**
   * Providers known to bill per second: AWS EC2 Linux on-demand instances since 2017-10-02
   * (https://aws.amazon.com/about-aws/whats-new/2017/10/announcing-amazon-ec2-per-second-billing/); Compute Engine
   * vCPUs, memory and GPUs with a one-minute minimum (https://cloud.google.com/compute/vm-instance-pricing).
   */
  private static final ImmutableMap<String, BillingMode> KNOWN_BILLING =
      ImmutableMap.of("aws", BillingMode.PER_SECOND, "gcp", BillingMode.PER_SECOND);

  /** The settings of one read, defaults resolved. */
  record Settings(String provider, LocalDate priceDate, BillingMode billing, boolean strict) {
    static Settings resolve(SkyPilotOptions options, String provider, LocalDate priceDate) {
      BillingMode billing = options.billing()
          .orElse(KNOWN_BILLING.getOrDefault(provider.toLowerCase(Locale.ROOT), BillingMode.PER_HOUR));
      return new Settings(provider, priceDate, billing, options.strict());
    }
  }

  /** What a read gives: the offerings with the line each one starts at, and the rows left out. */
  record Result(ImmutableList<OfferingCsv.Located> offerings, LoadReport report) {}

  /** One machine in one zone, before the zones of a region are merged. */
  private record Candidate(String instanceType, String region, Gpu gpu, int gpuCount, int vcpus, BigDecimal ramGiB,
      BigDecimal price, Optional<BigDecimal> spot, int line, String note) {}

  /** A GCP row pricing GPUs alone. */
  private record GpuRow(Row row, String accelerator, Gpu gpu, int count, BigDecimal price, Optional<BigDecimal> spot) {}

  private SkyPilotCsv() {}

  static boolean looksLike(CsvTable table) {
    return table.has("InstanceType") || table.has("AcceleratorName");
  }

  static Result read(CsvTable table, NameIndex gpus, Settings settings) {
    table.requireColumns(FORMAT, REQUIRED, OPTIONAL, false);
    List<Skipped> skipped = new ArrayList<>();
    List<Candidate> candidates = new ArrayList<>();
    List<GpuRow> gpuRows = new ArrayList<>();
    Map<String, List<Row>> hostsByZone = new LinkedHashMap<>();
    // A catalog names few accelerators in many rows: look each spelling up once.
    Map<String, Optional<Gpu>> found = new HashMap<>();
    for (Row row : table.rows()) {
      String instanceType = row.raw("InstanceType");
      String accelerator = row.raw("AcceleratorName");
      String region = row.text("Region");
      if (accelerator.isEmpty()) {
        if (instanceType.isEmpty()) {
          throw row.error("InstanceType", "must not be empty when AcceleratorName is empty: the row names nothing");
        }
        hostsByZone.computeIfAbsent(zoneKey(region, row), k -> new ArrayList<>()).add(row);
        skipped.add(new Skipped(row.file(), row.line(), Reason.NO_ACCELERATOR,
            what(instanceType, accelerator, row)));
        continue;
      }
      if (accelerator.toLowerCase(Locale.ROOT).startsWith("tpu-")) {
        skipped.add(new Skipped(row.file(), row.line(), Reason.TPU, what(instanceType, accelerator, row),
            accelerator));
        continue;
      }
      BigDecimal count = row.number("AcceleratorCount", Sign.POSITIVE);
      if (count.stripTrailingZeros().scale() > 0) {
        skipped.add(new Skipped(row.file(), row.line(), Reason.FRACTIONAL_GPU_COUNT,
            what(instanceType, accelerator, row) + ", " + count.toPlainString() + " x " + accelerator, accelerator));
        continue;
      }
      if (row.isBlank("Price")) {
        skipped.add(new Skipped(row.file(), row.line(), Reason.NOT_OFFERED_ON_DEMAND,
            what(instanceType, accelerator, row), accelerator));
        continue;
      }
      Optional<Gpu> gpu = found.computeIfAbsent(accelerator, gpus::find);
      if (gpu.isEmpty()) {
        if (!settings.strict()) {
          skipped.add(new Skipped(row.file(), row.line(), Reason.UNKNOWN_ACCELERATOR,
              what(instanceType, accelerator, row) + ", " + accelerator, accelerator));
          continue;
        }
        try {
          gpus.get(accelerator);
        } catch (UnknownGpuException e) {
          throw row.error("AcceleratorName", e.getMessage()
              + " (a strict load fails on accelerators the catalog does not model; without strict() such rows are "
              + "left out and listed in the load report)", e);
        }
      }
      // SkyPilot names some PCIe boards by their SXM sibling's accelerator (Fluidstack's A100_PCIE_80GB and RunPod's
      // "A100 PCIe" rows say A100-80GB): the instance type or GpuInfo tells, and a PCIe card has no NVLink switch and
      // a lower power limit
      String board = "";
      if (pcie(instanceType) || pcie(row.raw("GpuInfo"))) {
        Optional<Gpu> pcie = gpus.pcieBoardOf(gpu.orElseThrow());
        if (pcie.isPresent()) {
          board = "; " + pcie.get().id() + ", not " + gpu.orElseThrow().id() + ": the row's "
              + (pcie(instanceType) ? "instance type" : "GpuInfo") + " says PCIe";
          gpu = pcie;
        }
      }
      int gpuCount = row.wholeNumber("AcceleratorCount", 1);
      BigDecimal price = row.number("Price", Sign.NON_NEGATIVE);
      // A spot price of 0 is no spot price: no cloud gives GPUs away, and SkyPilot's Vast file (catalogs/v8/vast,
      // commit 01b8cdd) writes 0.00 in the column of every row.
      Optional<BigDecimal> spot = row.optionalNumber("SpotPrice", Sign.NON_NEGATIVE).filter(p -> p.signum() > 0);
      if (instanceType.isEmpty()) {
        gpuRows.add(new GpuRow(row, accelerator, gpu.orElseThrow(), gpuCount, price, spot));
      } else {
        candidates.add(new Candidate(instanceType, region, gpu.orElseThrow(), gpuCount, vcpus(row),
            row.number("MemoryGiB", Sign.NON_NEGATIVE), price, spot, row.line(), board));
      }
    }
    for (GpuRow gpuRow : gpuRows) {
      List<Candidate> hosted = withHosts(gpuRow, hostsByZone.getOrDefault(
          zoneKey(gpuRow.row().raw("Region"), gpuRow.row()), List.of()));
      if (hosted.isEmpty()) {
        skipped.add(new Skipped(gpuRow.row().file(), gpuRow.row().line(), Reason.NO_HOST_VM,
            gpuRow.count() + " x " + gpuRow.accelerator() + " in " + zoneOf(gpuRow.row()), gpuRow.accelerator()));
      }
      candidates.addAll(hosted);
    }
    skipped.sort(Comparator.comparingInt(Skipped::line));
    return new Result(mergeZones(candidates, table.file(), settings), new LoadReport(ImmutableList.copyOf(skipped)));
  }

  /** Whether a cell names a PCIe board ({@code A100_PCIE_80GB}, {@code 'Name': 'A100 PCIe'}), ignoring case. */
  private static boolean pcie(String cell) {
    // no lower-case copy of every row's GpuInfo; a region compared only where a 'p' starts one
    for (int i = 0; i + 4 <= cell.length(); i++) {
      char c = cell.charAt(i);
      if ((c == 'p' || c == 'P') && cell.regionMatches(true, i, "pcie", 0, 4)) {
        return true;
      }
    }
    return false;
  }

  /** {@code "p3.2xlarge in us-east-1a"}: what a row offers, for the load report. */
  private static String what(String instanceType, String accelerator, Row row) {
    return (instanceType.isEmpty() ? accelerator : instanceType) + " in " + zoneOf(row);
  }

  private static String zoneOf(Row row) {
    String zone = row.raw("AvailabilityZone");
    return zone.isEmpty() ? row.raw("Region") : zone;
  }

  private static String zoneKey(String region, Row row) {
    return region + "/" + row.raw("AvailabilityZone");
  }

  private static int vcpus(Row row) {
    return row.wholeNumber("vCPUs", 0);
  }

  /**
   * The machines a GCP GPU row can be rented in: every priced machine type of its own family in the zone (A100 on
   * A2, L4 on G2, ...), or else the cheapest priced N1 machine in the zone with enough vCPUs and memory.
   */
  private static List<Candidate> withHosts(GpuRow gpuRow, List<Row> hosts) {
    List<Candidate> result = new ArrayList<>();
    String label = gpuRow.accelerator() + ":" + gpuRow.count();
    if (GcpHosts.hasOwnFamily(gpuRow.accelerator())) {
      for (Row host : hosts) {
        Optional<GcpHosts.Attached> attached = GcpHosts.attachedTo(host.raw("InstanceType"));
        if (attached.isPresent() && attached.get().accelerator().equalsIgnoreCase(gpuRow.accelerator())
            && attached.get().count() == gpuRow.count() && !host.isBlank("Price")) {
          result.add(combine(gpuRow, host, host.raw("InstanceType"), label));
        }
      }
      return result;
    }
    int minVcpus = GcpHosts.N1_VCPUS_PER_GPU * gpuRow.count();
    BigDecimal minGiB = BigDecimal.valueOf((long) GcpHosts.N1_GIB_PER_VCPU * minVcpus);
    hosts.stream()
        .filter(h -> GcpHosts.isN1(h.raw("InstanceType")) && !h.isBlank("Price"))
        .filter(h -> vcpus(h) >= minVcpus && h.number("MemoryGiB", Sign.NON_NEGATIVE).compareTo(minGiB) >= 0)
        .min(Comparator.comparing((Row h) -> h.number("Price", Sign.NON_NEGATIVE))
            .thenComparing(h -> h.raw("InstanceType")))
        .ifPresent(h -> result.add(combine(gpuRow, h, h.raw("InstanceType") + " + " + label, label)));
    return result;
  }

  private static Candidate combine(GpuRow gpuRow, Row host, String instanceType, String label) {
    BigDecimal price = gpuRow.price().add(host.number("Price", Sign.NON_NEGATIVE));
    Optional<BigDecimal> hostSpot = host.optionalNumber("SpotPrice", Sign.NON_NEGATIVE);
    Optional<BigDecimal> spot = gpuRow.spot().isPresent() && hostSpot.isPresent()
        ? Optional.of(gpuRow.spot().get().add(hostSpot.get()))
        : Optional.empty();
    String note = String.format("; price of %s (line %d) plus host VM %s (line %d)",
        label, gpuRow.row().line(), host.raw("InstanceType"), host.line());
    return new Candidate(instanceType, gpuRow.row().raw("Region"), gpuRow.gpu(), gpuRow.count(), vcpus(host),
        host.number("MemoryGiB", Sign.NON_NEGATIVE), price, spot, gpuRow.row().line(), note);
  }

  /** One offering per instance type and region: the lowest on-demand and the lowest spot price of its zones. */
  private static ImmutableList<OfferingCsv.Located> mergeZones(List<Candidate> candidates, String file,
      Settings settings) {
    Map<String, List<Candidate>> byKey = new LinkedHashMap<>();
    for (Candidate c : candidates) {
      byKey.computeIfAbsent(c.instanceType() + "/" + c.region(), k -> new ArrayList<>()).add(c);
    }
    ImmutableList.Builder<OfferingCsv.Located> offerings = ImmutableList.builder();
    for (List<Candidate> zones : byKey.values()) {
      Candidate first = zones.get(0);
      BigDecimal price = first.price();
      Optional<BigDecimal> spot = Optional.empty();
      for (Candidate c : zones) {
        if (!c.gpu().id().equals(first.gpu().id()) || c.gpuCount() != first.gpuCount()) {
          throw CatalogException.ofLine(file, c.line(), String.format(
              "%s in %s has %d x %s here but %d x %s on line %d", c.instanceType(), c.region(), c.gpuCount(),
              c.gpu().id(), first.gpuCount(), first.gpu().id(), first.line()), null);
        }
        price = price.min(c.price());
        if (c.spot().isPresent() && (spot.isEmpty() || c.spot().get().compareTo(spot.get()) < 0)) {
          spot = c.spot();
        }
      }
      FabricDefaults.Network network = FabricDefaults.bundled()
          .resolve(settings.provider(), first.instanceType(), Optional.empty(), OptionalDouble.empty());
      String source = "SkyPilot catalog " + file + " line " + first.line() + first.note() + network.note();
      try {
        offerings.add(new OfferingCsv.Located(new Offering(
            settings.provider(),
            first.instanceType(),
            first.region(),
            first.gpu(),
            first.gpuCount(),
            first.vcpus(),
            DataSize.ofGiB(first.ramGiB().doubleValue()),
            DataSize.ZERO,
            Money.of(price, USD),
            spot.map(s -> Money.of(s, USD)),
            settings.billing(),
            Optional.empty(),
            Optional.empty(),
            network.networkGbps(),
            network.fabric(),
            settings.priceDate(),
            source), file, first.line()));
      } catch (IllegalArgumentException e) {
        throw CatalogException.ofLine(file, first.line(), e.getMessage(), e);
      }
    }
    return offerings.build();
  }
}
