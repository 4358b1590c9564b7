package io.github.gpusizer.examples.cli;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Offering;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Option;

/**
 * {@code --gpu} and {@code --provider} as filters on the offerings ({@code offers}, {@code recommend}): each
 * repeatable or comma-separated, each checked against the catalog before anything is sized — a misspelt GPU gets
 * the closest names, a provider without offerings the list of those with some.
 */
final class OfferingOptions {
  @Option(names = "--gpu", paramLabel = "NAME", split = ",",
      description = "Only offerings of these GPU models (id, name or alias; repeatable).")
  List<String> gpus = new ArrayList<>();

  @Option(names = "--provider", paramLabel = "P", split = ",",
      description = "Only offerings of these providers, e.g. aws (repeatable).")
  List<String> providers = new ArrayList<>();

  /** The catalog ids of the {@code --gpu} names; empty for every GPU. */
  ImmutableList<String> gpuIds(Catalog catalog) {
    Set<String> ids = new LinkedHashSet<>();
    gpus.forEach(g -> ids.add(catalog.gpu(g).id())); // fails with suggestions for an unknown name
    return ImmutableList.copyOf(ids);
  }

  /**
   * The {@code --provider} names in lower case, each one that sells something in the catalog; empty for every
   * provider.
   *
   * @throws IllegalArgumentException naming a provider without offerings and those with some
   */
  ImmutableList<String> providers(Catalog catalog) {
    Set<String> known = new TreeSet<>();
    catalog.offerings().forEach(o -> known.add(o.provider().toLowerCase(Locale.ROOT)));
    Set<String> result = new LinkedHashSet<>();
    for (String p : providers) {
      String name = p.strip().toLowerCase(Locale.ROOT);
      if (!known.contains(name)) {
        throw new IllegalArgumentException(String.format(Locale.ROOT,
            "--provider '%s' has no offerings in the catalog; providers are %s", p, String.join(", ", known)));
      }
      result.add(name);
    }
    return ImmutableList.copyOf(result);
  }

  /** Whether an offering passes both filters. */
  static boolean matches(Offering o, List<String> gpuIds, List<String> providers) {
    return (gpuIds.isEmpty() || gpuIds.contains(o.gpu().id()))
        && (providers.isEmpty() || providers.contains(o.provider().toLowerCase(Locale.ROOT)));
  }
}
