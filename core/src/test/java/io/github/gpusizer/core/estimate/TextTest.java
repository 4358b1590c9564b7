package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.DataSize;
import org.junit.jupiter.api.Test;

class TextTest {
  @Test
  void fixed_rounds_half_up_to_the_given_decimals() {
    assertThat(Text.fixed(12.345, 1)).isEqualTo("12.3");
    assertThat(Text.fixed(0.05, 1)).isEqualTo("0.1");
    assertThat(Text.fixed(7.0, 2)).isEqualTo("7.00");
    assertThat(Text.fixed(1.005, 3)).isEqualTo("1.005");
    assertThat(Text.fixed(2616.4, 0)).isEqualTo("2616");
    assertThat(Text.fixed(-3.25, 1)).isEqualTo("-3.3");
  }

  @Test
  void size_matches_data_size_to_string() {
    for (long bytes : new long[] {0, 1023, 1024, 5_000_000, 80L << 30, 13_510_000_000L, 3L << 40}) {
      assertThat(Text.size(bytes)).isEqualTo(DataSize.ofBytes(bytes).toString());
    }
  }
}
