package io.github.gpusizer.catalog;

import com.google.common.collect.ImmutableList;
import java.util.Collection;
import java.util.Optional;

/**
 * An immutable set of GPUs and offerings with look-ups by name. (Skeleton: the loaders and look-ups are filled in
 * by the catalog work.)
 */
public final class Catalog {
  private final ImmutableList<Gpu> gpus;
  private final ImmutableList<Offering> offerings;

  private Catalog(Collection<Gpu> gpus, Collection<Offering> offerings) {
    this.gpus = ImmutableList.copyOf(gpus);
    this.offerings = ImmutableList.copyOf(offerings);
  }

  public static Catalog of(Collection<Gpu> gpus, Collection<Offering> offerings) {
    return new Catalog(gpus, offerings);
  }

  public ImmutableList<Gpu> gpus() {
    return gpus;
  }

  public ImmutableList<Offering> offerings() {
    return offerings;
  }

  public Optional<Gpu> findGpu(String nameOrAlias) {
    return gpus.stream().filter(g -> g.id().equalsIgnoreCase(nameOrAlias)).findFirst();
  }
}
