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
   * tie within {@link TieRule#COST_TIE} and the ties' order (the faster, then fewer nodes) decides. No two share
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
  void the_first_is_never_beaten_by_a_candidate_both_cheaper_and_faster_beyond_the_ties() {
    qt().withExamples(200).forAll(integers().between(1, 200), longs().all()).checkAssert((n, seed) -> {
      List<Candidate> candidates = candidates(n, seed);
      Duration fastest = candidates.stream().map(Candidate::wall).min(Comparator.naturalOrder()).orElseThrow();
      for (Objective objective : Objective.values()) {
        Comparator<Candidate> order = Ranking.order(objective, fastest, 1.5);
        // WHEN the first is chosen
        Candidate first = Ranking.first(candidates, objective, order);
        // THEN no candidate is both cheaper and faster by more than the time tie
        for (Candidate c : candidates) {
          assertThat(c.costKey() < first.costKey()
              && c.wall().toNanos() * (1 + TieRule.TIME_TIE) < first.wall().toNanos())
              .as("%s: %s beats the first %s", objective, c, first).isFalse();
        }
        // AND the full ranking starts with it
        assertThat(Ranking.rank(candidates, objective, order).get(0)).isSameAs(first);
      }
    });
  }

  /** A candidate of the first bundled offering at {@code instances}, costing {@code usd}, taking {@code minutes}. */
  private static Candidate candidate(int instances, String usd, int minutes) {
    Offering o = OFFERINGS.get(0);
    Money money = Money.of(new BigDecimal(usd), USD);
    Duration wall = Duration.ofMinutes(minutes);
    return new Candidate(0, o, PricingMode.ON_DEMAND, instances, instances * o.gpuCount(), 1, FIT, wall,
        Duration.ZERO, Duration.ZERO, new CostStep.Priced(money, wall, wall, Optional.empty()), PriceQuote.of(money));
  }

  @Test
  void within_the_cost_tie_the_faster_plan_wins_over_fewer_nodes() {
    // GIVEN 8 nodes for 100.00 USD in 10 h, and 32 nodes for 100.50 USD (within the 1 % tie) in 2.5 h
    Candidate slow = candidate(8, "100.00", 600);
    Candidate fast = candidate(32, "100.50", 150);
    Comparator<Candidate> order = Ranking.order(Objective.CHEAPEST, fast.wall(), 1.5);
    // WHEN they are ranked, THEN the faster comes first, though it costs a little more on more nodes
    assertThat(Ranking.first(List.of(slow, fast), Objective.CHEAPEST, order)).isSameAs(fast);
    assertThat(Ranking.rank(List.of(slow, fast), Objective.CHEAPEST, order)).containsExactly(fast, slow);
  }

  @Test
  void within_the_cost_tie_plans_that_tie_in_time_go_to_fewer_nodes() {
    // GIVEN the fastest of a cost tie on 32 nodes in 150 min, 16 nodes in 154 min (within its 3 % time tie), 8 nodes
    // in 10 h, all within 1 % of the cheapest, and 64 nodes in 75 min for 2 % more
    Candidate slow = candidate(8, "100.00", 600);
    Candidate fastest = candidate(32, "100.50", 150);
    Candidate asFast = candidate(16, "100.90", 154);
    Candidate dearer = candidate(64, "102.00", 75);
    List<Candidate> all = List.of(dearer, slow, fastest, asFast);
    Comparator<Candidate> order = Ranking.order(Objective.CHEAPEST, dearer.wall(), 1.5);
    // WHEN they are ranked, THEN fewer nodes win the time tie, then the faster, then the slow, then the dearer
    assertThat(Ranking.first(all, Objective.CHEAPEST, order)).isSameAs(asFast);
    assertThat(Ranking.rank(all, Objective.CHEAPEST, order)).containsExactly(asFast, fastest, slow, dearer);
    // AND the lazy ranking agrees
    assertThat(Ranking.lazily(all, Objective.CHEAPEST, order).all()).containsExactly(asFast, fastest, slow, dearer);
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
