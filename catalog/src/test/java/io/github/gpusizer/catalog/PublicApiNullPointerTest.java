package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.reflect.ClassPath;
import com.google.common.testing.NullPointerTester;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Currency;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every public class of the package, found on the class path rather than listed by hand, rejects a null argument to
 * any public static method (and constructor, records aside) with a NullPointerException (Guava's checkNotNull
 * contract), and the value types do so for their instance methods too.
 */
class PublicApiNullPointerTest {
  private static final Gpu A100 = Catalog.bundled().gpu("A100");

  private final NullPointerTester tester = new NullPointerTester()
      .setDefault(String.class, "a100")
      .setDefault(Path.class, Path.of("no-such-file.csv"))
      .setDefault(LocalDate.class, LocalDate.of(2025, 1, 6))
      .setDefault(java.time.Period.class, java.time.Period.ofDays(180))
      .setDefault(BigDecimal.class, BigDecimal.ONE)
      .setDefault(Currency.class, Currency.getInstance("USD"))
      .setDefault(Money.class, Money.of("1", "USD"))
      .setDefault(DataSize.class, DataSize.ofGiB(1))
      .setDefault(Gpu.class, A100)
      .setDefault(Catalog.class, Catalog.bundled())
      .setDefault(SkyPilotOptions.class, SkyPilotOptions.defaults())
      .setDefault(OfferingFilter.class, OfferingFilter.any())
      .setDefault(ComputeCapability.class, ComputeCapability.parse("8.0"))
      .setDefault(CudaVersion.class, CudaVersion.parse("12.0"));

  static List<Class<?>> publicClasses() throws IOException {
    return ClassPath.from(Catalog.class.getClassLoader()).getTopLevelClasses(Catalog.class.getPackageName())
        .stream()
        .map(ClassPath.ClassInfo::load)
        .filter(c -> Modifier.isPublic(c.getModifiers()) && !c.getSimpleName().endsWith("Test"))
        .collect(ImmutableList.toImmutableList());
  }

  @Test
  void every_public_constructor_and_static_method_rejects_null() throws IOException {
    List<Class<?>> classes = publicClasses();
    assertThat(classes).contains(Catalog.class, Money.class, DataSize.class, Gpu.class, Offering.class);
    for (Class<?> type : classes) {
      // A record's canonical constructor checks its numbers too, and the tester's default for an int is 0: the
      // records are covered through their factories and instance methods instead.
      if (!type.isRecord()) {
        tester.testAllPublicConstructors(type);
      }
      tester.testAllPublicStaticMethods(type);
    }
  }

  @Test
  void value_types_reject_null_in_instance_methods() {
    Offering offering = Catalog.bundled().offerings().get(0);
    for (Object value : List.of(Money.of("2.09", "CNY"), DataSize.ofGiB(80), A100, offering,
        Catalog.bundled().gpus().stream().flatMap(g -> g.purchasePrice().stream()).findFirst().orElseThrow(),
        ComputeCapability.parse("8.0"), CudaVersion.parse("12.0"))) {
      tester.testAllPublicInstanceMethods(value);
    }
  }
}
