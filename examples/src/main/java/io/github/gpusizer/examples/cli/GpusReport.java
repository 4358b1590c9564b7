package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableList;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.Precision;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The table, JSON and CSV of {@code gpusizer gpus}; the JSON field names are the CLI's stable schema. */
final class GpusReport {
  private GpusReport() {}

  /** The CSV header, whatever the rows: every field of {@code gpus --format json}, objects as their columns. */
  static final ImmutableList<String> CSV_COLUMNS = ImmutableList.of(
      "id", "name", "aliases", "vendor", "architecture", "memoryBytes", "memoryType", "memoryBandwidthGBps",
      "denseTflops.fp32", "denseTflops.tf32", "denseTflops.fp16", "denseTflops.bf16", "denseTflops.fp8",
      "denseTflops.int8", "computeCapability", "formFactor", "nvlinkGBps", "pcieGeneration", "tdpWatts",
      "releaseYear", "minCuda", "source");

  /** The precisions listed, in column order. */
  static final List<Precision> PRECISIONS =
      List.of(Precision.FP32, Precision.TF32, Precision.FP16, Precision.BF16, Precision.FP8, Precision.INT8);

  /** The GPUs; JSON as {@code {schemaVersion, gpusizerVersion, catalogPrices, gpus: [...]}} ({@link Json#pretty}). */
  static String render(List<Gpu> gpus, Catalog catalog, Format format) {
    switch (format) {
      case JSON: {
        ObjectNode body = Json.object();
        ArrayNode array = body.putArray("gpus");
        gpus.forEach(g -> array.add(json(g)));
        return Json.pretty(body, catalog);
      }
      case CSV: {
        List<ObjectNode> rows = new ArrayList<>();
        gpus.forEach(g -> rows.add(json(g)));
        return Csv.write(CSV_COLUMNS, rows);
      }
      default: {
        TextTable table = new TextTable("GPU", "NAME", ">MEMORY", ">BW GB/s", ">FP32", ">TF32", ">FP16", ">BF16",
            ">FP8", ">INT8", ">CC", "LINK");
        for (Gpu g : gpus) {
          List<Object> row = new ArrayList<>(List.of(g.id(), g.name(), Output.memory(g.memory()),
              Output.decimal(g.memoryBandwidthGBps())));
          for (Precision p : PRECISIONS) {
            row.add(g.supports(p) ? Output.decimal(g.denseTflops(p)) : "-");
          }
          row.add(g.computeCapability().map(Object::toString).orElse("-"));
          row.add(g.hasNvlink() ? "NVLink " + Output.decimal(g.nvlinkGBps()) + " GB/s"
              : g.pcieGeneration().isPresent() ? "PCIe " + g.pcieGeneration().getAsInt() : "-");
          table.row(row.toArray());
        }
        return table.render() + "\nTFLOPS are dense peaks (TOPS for INT8); 16/8-bit with FP32 accumulation. "
            + "Memory in GiB (2^30 bytes).\n";
      }
    }
  }

  static ObjectNode json(Gpu g) {
    ObjectNode node = Json.object();
    node.put("id", g.id());
    node.put("name", g.name());
    ArrayNode aliases = node.putArray("aliases");
    g.aliases().forEach(aliases::add);
    node.put("vendor", g.vendor().name());
    node.put("architecture", g.architecture());
    node.put("memoryBytes", g.memory().bytes());
    node.put("memoryType", g.memoryType().name());
    node.put("memoryBandwidthGBps", g.memoryBandwidthGBps());
    ObjectNode tflops = node.putObject("denseTflops");
    for (Precision p : PRECISIONS) {
      String key = p.name().toLowerCase(Locale.ROOT);
      if (g.supports(p)) {
        tflops.put(key, g.denseTflops(p));
      } else {
        tflops.putNull(key);
      }
    }
    Json.put(node, "computeCapability", g.computeCapability());
    node.put("formFactor", g.formFactor().name());
    node.put("nvlinkGBps", g.nvlinkGBps());
    Json.put(node, "pcieGeneration", g.pcieGeneration());
    node.put("tdpWatts", g.tdpWatts());
    node.put("releaseYear", g.releaseYear());
    Json.put(node, "minCuda", g.minCuda());
    node.put("source", g.source());
    return node;
  }
}
