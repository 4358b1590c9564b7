package io.github.gpusizer.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import org.junit.jupiter.api.Test;

class DataSizeTest {
  @Test
  void binary_and_decimal_units_are_spelt_out() {
    assertThat(DataSize.ofGiB(80).bytes()).isEqualTo(80L * 1024 * 1024 * 1024);
    assertThat(DataSize.ofMiB(1).bytes()).isEqualTo(1_048_576L);
    assertThat(DataSize.ofTiB(1).bytes()).isEqualTo(1L << 40);
    assertThat(DataSize.ofGB(500).bytes()).isEqualTo(500_000_000_000L);
    assertThat(DataSize.ofMB(150).bytes()).isEqualTo(150_000_000L);
    assertThat(DataSize.ofTB(2).bytes()).isEqualTo(2_000_000_000_000L);
  }

  @Test
  void a_gib_is_about_seven_percent_more_than_a_gb() {
    assertThat(DataSize.ofGiB(80).toGB()).isEqualTo(85.89934592);
    assertThat(DataSize.ofGB(80).toGiB()).isCloseTo(74.5058, org.assertj.core.data.Offset.offset(1e-4));
  }

  @Test
  void displays_binary_units_with_one_decimal() {
    assertThat(DataSize.ofGiB(38.2)).hasToString("38.2 GiB");
    assertThat(DataSize.ofBytes(512L)).hasToString("512 B");
    assertThat(DataSize.ofBytes(1536L)).hasToString("1.5 KiB");
    assertThat(DataSize.ofMiB(300)).hasToString("300.0 MiB");
    assertThat(DataSize.ofTiB(2)).hasToString("2.0 TiB");
  }

  @Test
  void rejects_negative_and_non_finite_sizes() {
    assertThatThrownBy(() -> DataSize.ofBytes(-1L)).hasMessage("size must be >= 0 bytes, was -1");
    assertThatThrownBy(() -> DataSize.ofBytes(Double.NaN))
        .hasMessage("size must be a finite number of bytes in [0, 2^63), was NaN");
    assertThatThrownBy(() -> DataSize.ofGiB(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DataSize.ofGB(1).minus(DataSize.ofGB(2))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DataSize.ofBytes(Long.MAX_VALUE).plus(DataSize.ofBytes(1L)))
        .isInstanceOf(ArithmeticException.class);
  }

  @Test
  void arithmetic_and_order() {
    assertThat(DataSize.ofGiB(16).times(2.5)).isEqualTo(DataSize.ofGiB(40));
    assertThat(DataSize.ofGiB(80).isLargerThan(DataSize.ofGB(80))).isTrue();
    assertThat(DataSize.ofGiB(1).compareTo(DataSize.ofMiB(1024))).isZero();
    assertThat(DataSize.ofGiB(24).plus(DataSize.ofGiB(16))).isEqualTo(DataSize.ofGiB(40));
  }

  @Test
  void plus_then_minus_gives_the_size_back() {
    qt().forAll(longs().between(0, Long.MAX_VALUE / 2), longs().between(0, Long.MAX_VALUE / 2))
        .check((a, b) -> DataSize.ofBytes(a).plus(DataSize.ofBytes(b)).minus(DataSize.ofBytes(b)).bytes() == a);
  }
}
