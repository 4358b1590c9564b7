package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Pass#divisors}, which orders the run sizes a placement tries, agrees with counting up. */
class DivisorsTest {
  @Test
  void divisors_are_those_of_a_count_up_in_ascending_order() {
    for (int m = 1; m <= 5000; m++) {
      // GIVEN the divisors found by trying every number up to m
      List<Integer> expected = new ArrayList<>();
      for (int d = 1; d <= m; d++) {
        if (m % d == 0) {
          expected.add(d);
        }
      }
      // THEN the square-root walk finds the same, in the same order
      assertThat(Pass.divisors(m)).as("divisors of %s", m)
          .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
    }
  }

  @Test
  void divisors_of_numbers_with_many_of_them_and_of_large_primes() {
    assertThat(Pass.divisors(720720)).hasSize(240).startsWith(1, 2, 3).endsWith(360360, 720720);
    assertThat(Pass.divisors(1_000_003)).containsExactly(1, 1_000_003);
    assertThat(Pass.divisors(Integer.MAX_VALUE)).containsExactly(1, Integer.MAX_VALUE);
  }
}
