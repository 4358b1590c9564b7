package io.github.gpusizer.core.cost;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.FormFactor;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.MemoryType;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.catalog.Precision;
import io.github.gpusizer.catalog.PurchasePrice;
import io.github.gpusizer.catalog.Vendor;
import java.time.LocalDate;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/** Test GPUs and offerings. Only the fields the cost model reads matter: TDP, purchase price, prices, billing. */
final class Fixtures {
  private Fixtures() {}

  static Gpu gpu(String id, int tdpWatts, Optional<Money> purchasePrice) {
    return new Gpu(id, id.toUpperCase(java.util.Locale.ROOT), ImmutableList.of(), Vendor.NVIDIA, "Test",
        Optional.empty(), 2020, DataSize.ofGiB(24), MemoryType.GDDR6X, 1000,
        ImmutableMap.of(Precision.FP32, 80.0), OptionalDouble.empty(), true, FormFactor.PCIE, 0,
        OptionalInt.of(4), tdpWatts, OptionalInt.empty(), Optional.empty(),
        purchasePrice.map(p -> new PurchasePrice(p, LocalDate.of(2022, 10, 12), PurchasePrice.Kind.LAUNCH_MSRP,
            "test figure")),
        "test fixture", ImmutableSet.of());
  }

  static Gpu gpu(String id) {
    return gpu(id, 300, Optional.empty());
  }

  static Offering onDemand(String type, Gpu gpu, int gpuCount, Money perHour, BillingMode billing) {
    return new Offering("test", type, "r1", gpu, gpuCount, 8 * gpuCount, DataSize.ofGiB(64), DataSize.ZERO, perHour,
        Optional.empty(), billing, Optional.empty(), Optional.empty(), OptionalDouble.empty(), Fabric.ETHERNET,
        LocalDate.of(2026, 1, 1), "test fixture");
  }

  static Offering onDemand(String type, Money perHour) {
    return onDemand(type, gpu(type), 1, perHour, BillingMode.PER_SECOND);
  }

  static Offering withSpot(Offering o, Money spot) {
    return new Offering(o.provider(), o.instanceType(), o.region(), o.gpu(), o.gpuCount(), o.vcpus(), o.ram(),
        o.localDisk(), o.onDemandPerHour(), Optional.of(spot), o.billing(), o.monthly(), o.yearly(), o.networkGbps(),
        o.fabric(), o.priceDate(), o.source());
  }

  static Offering withSubscriptions(Offering o, Optional<Money> monthly, Optional<Money> yearly) {
    return new Offering(o.provider(), o.instanceType(), o.region(), o.gpu(), o.gpuCount(), o.vcpus(), o.ram(),
        o.localDisk(), o.onDemandPerHour(), o.spotPerHour(), o.billing(), monthly, yearly, o.networkGbps(),
        o.fabric(), o.priceDate(), o.source());
  }
}
