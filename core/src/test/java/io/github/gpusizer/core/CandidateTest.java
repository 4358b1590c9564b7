package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.PriceQuote;
import io.github.gpusizer.core.cost.PricingMode;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CandidateTest {
  private static final Offering OFFERING = Catalog.bundled().offerings().get(0);
  private static final Outcome.Fit FIT = new Outcome.Fit(() -> {
    throw new AssertionError("the estimate is not needed");
  }, Duration.ofHours(1), null);

  private static Candidate lazy(double key, String exactCost, AtomicInteger pricings) {
    return lazy(key, exactCost, pricings, 1, -1);
  }

  /** A lazily priced candidate of {@code n} instances whose n × billed seconds is {@code billedSeconds}. */
  private static Candidate lazy(double key, String exactCost, AtomicInteger pricings, int n, long billedSeconds) {
    Money cost = Money.of(exactCost, OFFERING.onDemandPerHour().currency().getCurrencyCode());
    return new Candidate(0, OFFERING, PricingMode.ON_DEMAND, n, 1, 1, FIT, Duration.ofHours(1), Duration.ZERO,
        Duration.ZERO, key,
        new Candidate.Pricing() {
          @Override
          public CostStep.Priced priced() {
            pricings.incrementAndGet();
            return new CostStep.Priced(cost, Duration.ofHours(1), Duration.ofHours(1), Optional.empty());
          }

          @Override
          public PriceQuote quote(CostStep.Priced priced) {
            return PriceQuote.of(priced.cost());
          }

          @Override
          public long billedSeconds() {
            return billedSeconds;
          }
        });
  }

  @Test
  void counts_of_one_offering_whose_double_costs_tie_are_ordered_by_instance_seconds_without_exact_prices() {
    // GIVEN 2 instances for 3,601 s and 3 for 2,400 s of one offering: costs within the double margin
    AtomicInteger pricings = new AtomicInteger();
    Candidate two = lazy(1.0, "1.0006", pricings, 2, 2 * 3601);
    Candidate three = lazy(1.0 + 1e-12, "1.0000", pricings, 3, 3 * 2400);
    // WHEN / THEN n x billed seconds decides, as the exact costs would, and nothing is priced exactly
    assertThat(Candidate.compareCost(three, two)).isNegative();
    assertThat(Candidate.compareCost(two, three)).isPositive();
    assertThat(pricings).hasValue(0);
  }

  @Test
  void equal_exact_costs_whose_double_keys_differ_by_rounding_compare_equal() {
    // GIVEN 0.1 × 3 and 0.3 × 1: equal exact costs, but 0.1 * 3 is 0.30000000000000004 in double
    AtomicInteger pricings = new AtomicInteger();
    Candidate a = lazy(0.1 * 3, "0.3", pricings);
    Candidate b = lazy(0.3, "0.30", pricings);
    // WHEN / THEN the exact costs decide
    assertThat(0.1 * 3).isNotEqualTo(0.3);
    assertThat(Candidate.compareCost(a, b)).isZero();
    assertThat(Candidate.compareCost(b, a)).isZero();
    assertThat(pricings).hasValue(2);
  }

  @Test
  void exact_costs_decide_within_the_margin_even_against_the_keys() {
    // GIVEN keys in one order within the margin, exact costs in the other
    AtomicInteger pricings = new AtomicInteger();
    Candidate a = lazy(1.0, "1.0000000001", pricings);
    Candidate b = lazy(1.0 + 1e-12, "1", pricings);
    // WHEN / THEN
    assertThat(Candidate.compareCost(a, b)).isPositive();
    assertThat(a.costsAtMost(Money.of("1", a.cost().currency().getCurrencyCode()), 1.0 + 1e-12)).isFalse();
  }

  @Test
  void costs_far_apart_are_ordered_without_exact_pricing_which_happens_once_when_asked() {
    // GIVEN
    AtomicInteger pricings = new AtomicInteger();
    Candidate cheap = lazy(1.0, "1", pricings);
    Candidate dear = lazy(2.0, "2", pricings);
    // WHEN / THEN
    assertThat(Candidate.compareCost(cheap, dear)).isNegative();
    assertThat(Candidate.compareCost(dear, cheap)).isPositive();
    assertThat(pricings).hasValue(0);
    assertThat(cheap.cost()).isEqualTo(cheap.cost());
    assertThat(cheap.priced().cost()).isEqualTo(Money.of("1", cheap.cost().currency().getCurrencyCode()));
    assertThat(pricings).hasValue(1);
  }
}
