package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.PriceQuote;
import io.github.gpusizer.core.cost.PricingMode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RankingTest {
  private static final List<Offering> OFFERINGS = Catalog.bundled().offerings();
  /** The ranking currency: candidates carry their cost in it. */
  private static final java.util.Currency USD = java.util.Currency.getInstance("USD");
  private static final Outcome.Fit FIT = new Outcome.Fit(() -> {
    throw new AssertionError("the estimate is not needed");
  }, Duration.ofHours(1), null);

  /**
   * Up to {@code n} candidates of random offerings, instances and times whose costs crowd a few values, so that many
   * tie within {@link Ranking#COST_TIE} and the ties' order (fewer nodes, shorter time) decides. No two share
   * offering and instances: a pass gives one candidate per offering, mode and count.
   */
  private static List<Candidate> candidates(int n, long seed) {
    Random random = new Random(seed);
    List<Candidate> out = new ArrayList<>();
    java.util.Set<Integer> keys = new java.util.HashSet<>();
    for (int k = 0; k < n; k++) {
      int index = random.nextInt(OFFERINGS.size());
      int instances = 1 + random.nextInt(8);
      if (!keys.add(index * 8 + instances)) {
        continue;
      }
      Offering o = OFFERINGS.get(index);
      double cost = (1 + random.nextInt(5)) * (1 + random.nextInt(3) * 0.004);
      Money money = Money.of(BigDecimal.valueOf(cost).setScale(4, java.math.RoundingMode.HALF_EVEN), USD);
      Duration wall = Duration.ofMinutes(10 + random.nextInt(50));
      out.add(new Candidate(index, o, PricingMode.ON_DEMAND, instances, o.gpuCount(), 1, FIT, wall,
          Duration.ZERO, Duration.ZERO, new CostStep.Priced(money, wall, wall, Optional.empty()),
          PriceQuote.of(money)));
    }
    return out;
  }

  @Test
  void the_lazy_ranking_gives_the_full_rankings_positions_read_in_any_order() {
    qt().withExamples(100).forAll(integers().between(1, 200), longs().all()).checkAssert((n, seed) -> {
      List<Candidate> candidates = candidates(n, seed);
      int size = candidates.size();
      for (Objective objective : Objective.values()) {
        Duration fastest = candidates.stream().map(Candidate::wall).min(Comparator.naturalOrder()).orElseThrow();
        Comparator<Candidate> order = Ranking.order(objective, fastest, 1.5);
        List<Candidate> full = Ranking.rank(candidates, objective, order);
        Ranking.Lazy lazy = Ranking.lazily(candidates, objective, order);
        // WHEN positions are read first from the top, then in a shuffled order, THEN each is the full ranking's
        assertThat(lazy.size()).isEqualTo(full.size());
        int top = Math.min(10, size);
        for (int i = 0; i < top; i++) {
          assertThat(lazy.get(i)).as("%s position %d of %d", objective, i, size).isSameAs(full.get(i));
        }
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < size; i++) {
          positions.add(i);
        }
        Collections.shuffle(positions, new Random(seed));
        for (int i : positions) {
          assertThat(lazy.get(i)).as("%s position %d of %d", objective, i, size).isSameAs(full.get(i));
        }
        assertThat(lazy.all()).isEqualTo(full);
      }
    });
  }

  @Test
  void the_lazy_rankings_index_of_a_candidate_is_its_place_in_the_full_ranking() {
    qt().withExamples(100).forAll(integers().between(1, 200), longs().all()).checkAssert((n, seed) -> {
      List<Candidate> candidates = candidates(n, seed);
      Random random = new Random(seed);
      for (Objective objective : Objective.values()) {
        Duration fastest = candidates.stream().map(Candidate::wall).min(Comparator.naturalOrder()).orElseThrow();
        Comparator<Candidate> order = Ranking.order(objective, fastest, 1.5);
        List<Candidate> full = Ranking.rank(candidates, objective, order);
        // WHEN a few candidates are looked up, each in a ranking read no further than that
        for (int k = 0; k < 5; k++) {
          Candidate c = candidates.get(random.nextInt(candidates.size()));
          Ranking.Lazy lazy = Ranking.lazily(candidates, objective, order);
          // THEN its index is its place in the full ranking
          assertThat(lazy.indexOf(c.index(), c.mode(), c.instances())).as("%s %s", objective, c)
              .isEqualTo(full.indexOf(c));
        }
        // AND a count none of them has is not found
        Candidate any = candidates.get(0);
        assertThat(Ranking.lazily(candidates, objective, order).indexOf(any.index(), any.mode(), 9)).isEqualTo(-1);
      }
    });
  }

  @Test
  void a_position_past_the_end_is_an_index_error_not_a_hang() {
    Comparator<Candidate> order = Ranking.order(Objective.CHEAPEST, Duration.ofHours(1), 1.5);
    assertThatThrownBy(() -> Ranking.lazily(List.of(), Objective.CHEAPEST, order).get(0))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> Ranking.lazily(candidates(20, 7), Objective.CHEAPEST, order).get(20))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
