package io.github.gpusizer.examples.localgpu;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds the catalog GPU that a name reported by nvidia-smi stands for.
 *
 * <pre>{@code
 * Optional<Gpu> gpu = CatalogMatch.find(Catalog.bundled(), localGpu);   // "NVIDIA H200" -> h200-sxm
 * }</pre>
 *
 * <p>First the catalog's own look-up (ids, names and aliases, forgiving case and brand words). nvidia-smi's names
 * sometimes carry extra words the catalog does not list ({@code NVIDIA H100 80GB HBM3}); then the GPUs whose names
 * contain the model word ({@code h100}) are candidates, and the one whose memory is closest to
 * {@code memory.total} wins.
 */
public final class CatalogMatch {
  private static final ImmutableSet<String> BRANDS = ImmutableSet.of("nvidia", "tesla", "geforce", "quadro", "amd");
  private static final Splitter WORDS = Splitter.onPattern("[^a-z0-9]+").omitEmptyStrings();

  private CatalogMatch() {}

  /** The catalog GPU for this local GPU; empty if no catalog GPU carries its model name. */
  public static Optional<Gpu> find(Catalog catalog, LocalGpu local) {
    Optional<Gpu> exact = catalog.findGpu(local.name());
    if (exact.isPresent()) {
      return exact;
    }
    List<String> words = new ArrayList<>();
    for (String w : WORDS.split(local.name().toLowerCase(Locale.ROOT))) {
      if (!BRANDS.contains(w)) {
        words.add(w);
      }
    }
    // The model word: the first that mixes letters and digits or is all digits (h100, a100, 4090, t4, l40s).
    Optional<String> model = words.stream().filter(w -> w.matches(".*\\d.*")).findFirst();
    if (model.isEmpty()) {
      return Optional.empty();
    }
    List<Gpu> candidates = new ArrayList<>();
    for (Gpu gpu : catalog.gpus()) {
      if (namesContain(gpu, model.get())) {
        candidates.add(gpu);
      }
    }
    long total = local.memoryTotal().bytes();
    return candidates.stream().min(Comparator.comparingLong(g -> Math.abs(g.memory().bytes() - total)));
  }

  private static boolean namesContain(Gpu gpu, String word) {
    List<String> names = new ArrayList<>(gpu.aliases());
    names.add(gpu.id());
    names.add(gpu.name());
    for (String name : names) {
      if (WORDS.splitToList(name.toLowerCase(Locale.ROOT)).contains(word)) {
        return true;
      }
    }
    return false;
  }
}
