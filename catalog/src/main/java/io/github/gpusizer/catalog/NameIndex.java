package io.github.gpusizer.catalog;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Finds GPUs by id, name or alias, forgiving case, spaces, dashes, underscores and brand words; suggests the
 * closest names when a look-up fails. Every normalised name belongs to exactly one GPU: {@link Builder#add}
 * reports a clash instead of guessing.
 */
final class NameIndex {
  /** Brand and product-line words that users and clouds put in front of a model name, or leave out. */
  private static final ImmutableSet<String> BRANDS =
      ImmutableSet.of("nvidia", "tesla", "geforce", "amd", "instinct", "google");
  /**
   * Words are runs of letters and digits of any script, '.' and '+'. A letter outside ASCII stays in its word, so a
   * look-alike such as the Cyrillic 'О' in {@code "A10О"} makes the name unknown instead of being dropped (which
   * would silently find the A10).
   */
  private static final Splitter WORDS = Splitter.onPattern("[^\\p{L}\\p{N}.+]+").omitEmptyStrings();
  private static final int MAX_SUGGESTIONS = 5;

  private final ImmutableMap<String, Gpu> byKey;
  private final ImmutableList<Gpu> gpus;

  private NameIndex(Map<String, Gpu> byKey, List<Gpu> gpus) {
    this.byKey = ImmutableMap.copyOf(byKey);
    this.gpus = ImmutableList.copyOf(gpus);
  }

  /**
   * The look-up key of a name: compatibility forms folded (NFKC: full-width {@code "Ａ１００"} is {@code "A100"}),
   * lower case, only letters, digits, '.' and '+', brand words dropped. {@code "NVIDIA A100-SXM4-80GB"},
   * {@code "a100 sxm4 80gb"} and {@code "A100_SXM4_80GB"} share one key.
   */
  static String normalize(String name) {
    String folded = Normalizer.normalize(name, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    List<String> words = WORDS.splitToList(folded);
    List<String> kept = words.stream().filter(w -> !BRANDS.contains(w)).collect(Collectors.toList());
    return String.join("", kept.isEmpty() ? words : kept);
  }

  /** Every name a GPU answers to: its id, its name and its aliases, as written. */
  static ImmutableList<String> namesOf(Gpu gpu) {
    return ImmutableList.<String>builder().add(gpu.id()).add(gpu.name()).addAll(gpu.aliases()).build();
  }

  static Builder builder() {
    return new Builder();
  }

  /** Builds an index; adding a GPU whose name another GPU already has fails with a {@link Clash}. */
  static final class Builder {
    private final Map<String, Gpu> byKey = new LinkedHashMap<>();
    private final Map<String, String> spelling = new LinkedHashMap<>();
    private final List<Gpu> gpus = new ArrayList<>();

    /** Adds a GPU, or returns the first of its names that another GPU of the index already has. */
    Optional<Clash> add(Gpu gpu) {
      Map<String, String> keys = new LinkedHashMap<>();
      for (String name : namesOf(gpu)) {
        String key = normalize(name);
        if (key.isEmpty()) {
          return Optional.of(new Clash(name, null, null));
        }
        Gpu other = byKey.get(key);
        if (other != null && !other.id().equals(gpu.id())) {
          return Optional.of(new Clash(name, other, spelling.get(key)));
        }
        keys.putIfAbsent(key, name);
      }
      keys.forEach((key, name) -> {
        byKey.put(key, gpu);
        spelling.putIfAbsent(key, name);
      });
      gpus.add(gpu);
      return Optional.empty();
    }

    NameIndex build() {
      return new NameIndex(byKey, gpus);
    }
  }

  /**
   * A name a GPU cannot have: it is empty once normalised ({@code other} null), or another GPU already answers to
   * it.
   *
   * @param name the name as the new GPU spells it
   * @param other the GPU that already has it
   * @param otherSpelling how that GPU spells it
   */
  record Clash(String name, Gpu other, String otherSpelling) {
    String describe(Gpu gpu) {
      if (other == null) {
        return String.format("GPU %s: name '%s' has no letters or digits", gpu.id(), name);
      }
      return String.format("GPU %s: name '%s' already names GPU %s (as '%s'); every id, name and alias must "
          + "name one GPU, ignoring case, spaces, dashes, underscores and brand words", gpu.id(), name, other.id(),
          otherSpelling);
    }
  }

  Optional<Gpu> find(String name) {
    return Optional.ofNullable(byKey.get(normalize(name)));
  }

  /**
   * The PCIe board of an SXM GPU's chip and memory, where the index holds exactly one: same vendor, memory and id
   * stem (the id up to its first dash: {@code a100-sxm4-80gb} and {@code a100-pcie-80gb}, {@code h100-sxm} and
   * {@code h100-pcie}); empty for a GPU that is not an SXM module.
   */
  Optional<Gpu> pcieBoardOf(Gpu gpu) {
    if (gpu.formFactor() != FormFactor.SXM) {
      return Optional.empty();
    }
    String stem = stem(gpu.id());
    List<Gpu> boards = gpus.stream()
        .filter(g -> g.formFactor() == FormFactor.PCIE && g.vendor() == gpu.vendor()
            && g.memory().equals(gpu.memory()) && stem(g.id()).equals(stem))
        .collect(Collectors.toList());
    return boards.size() == 1 ? Optional.of(boards.get(0)) : Optional.empty();
  }

  private static String stem(String id) {
    int dash = id.indexOf('-');
    return dash < 0 ? id : id.substring(0, dash);
  }

  /**
   * The GPU a name means.
   *
   * @throws UnknownGpuException with the closest names if none
   */
  Gpu get(String name) {
    Gpu gpu = byKey.get(normalize(name));
    if (gpu == null) {
      throw new UnknownGpuException(name, suggest(name), gpus.size());
    }
    return gpu;
  }

  /**
   * Ids of the GPUs closest to a name that matched none: first those one of whose names contains the query (a
   * family name such as {@code a100} lists its variants), then those within a small edit distance, best first.
   */
  ImmutableList<String> suggest(String name) {
    String query = normalize(name);
    if (query.isEmpty()) {
      return ImmutableList.of();
    }
    // One edit per three characters, at least one: a typo or two, not a different model ("a10o" is one edit from
    // "a10" and "a100", two from "h100", which is another GPU).
    int limit = Math.max(1, query.length() / 3);
    record Candidate(Gpu gpu, boolean contains, int distance) {}
    List<Candidate> candidates = new ArrayList<>();
    for (Gpu gpu : gpus) {
      boolean contains = false;
      int best = Integer.MAX_VALUE;
      for (String n : namesOf(gpu)) {
        String key = normalize(n);
        contains |= query.length() >= 2 && key.contains(query);
        best = Math.min(best, EditDistance.between(query, key));
      }
      if (contains || best <= limit) {
        candidates.add(new Candidate(gpu, contains, best));
      }
    }
    return candidates.stream()
        .sorted(Comparator.comparing((Candidate c) -> !c.contains())
            .thenComparingInt(Candidate::distance)
            .thenComparing(c -> c.gpu().id()))
        .limit(MAX_SUGGESTIONS)
        .map(c -> c.gpu().id())
        .collect(ImmutableList.toImmutableList());
  }
}
