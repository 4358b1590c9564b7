package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.catalog.OfferingFilter;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One {@link Catalog}, one {@link Estimator} and one configured {@link GpuSizer}, shared by 8 threads for thousands
 * of calls: every result equals the one a single thread computed first. The catalog and the estimates are
 * immutable; {@code recommend()} may run on a shared sizer from any thread (its class comment).
 */
class ConcurrencyTest {
  private static final int THREADS = 8;
  private static final int ROUNDS = 400;
  /** Every 40th round of each thread also asks the shared sizer: 8 × 10 recommendations. */
  private static final int RECOMMEND_EVERY = 40;

  /** GPUs with BF16 (compute capability >= 8.0), which the BF16 test task needs; spelt as users do. */
  private static final List<String> NAMES = List.of("A100", "a100 80gb", "NVIDIA H100 SXM", "rtx 4090", "L40S",
      "A10G", "L4", "H200");

  @Test
  void shared_catalog_estimator_and_sizer_give_the_single_threaded_results() throws Exception {
    // GIVEN the bundled catalog, the default estimator and one sizer, and their results computed on one thread
    Catalog catalog = Catalog.bundled();
    Estimator estimator = Estimator.defaults();
    Task task = Fixtures.gpt2(1e9);
    List<Gpu> gpus = NAMES.stream().map(catalog::gpu).toList();
    List<Estimate> estimates = new ArrayList<>();
    for (Gpu gpu : gpus) {
      estimates.add(estimator.estimate(task, Hardware.of(gpu, 1, 1), Layout.single()));
    }
    OfferingFilter filter = OfferingFilter.builder().gpu("A100").build();
    var a100Offerings = catalog.offerings(filter);
    Sizer sizer = GpuSizer.forTask(task).catalog(Fixtures.aws().merge(Fixtures.aistudio()))
        .deadline(Duration.ofHours(48)).maxGpus(16);
    Recommendation expected = sizer.recommend();

    // WHEN 8 threads repeat the same calls on the shared objects, starting together
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> done = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int offset = t;
      Callable<Integer> work = () -> {
        start.await();
        int checks = 0;
        for (int round = 0; round < ROUNDS; round++) {
          int i = (round + offset) % NAMES.size();
          Gpu gpu = catalog.gpu(NAMES.get(i));
          assertThat(gpu).isSameAs(gpus.get(i));
          assertThat(estimator.estimate(task, Hardware.of(gpu, 1, 1), Layout.single())).isEqualTo(estimates.get(i));
          assertThat(catalog.offerings(filter)).isEqualTo(a100Offerings);
          checks += 3;
          if (round % RECOMMEND_EVERY == offset % RECOMMEND_EVERY) {
            assertThat(sizer.recommend()).isEqualTo(expected);
            checks++;
          }
        }
        return checks;
      };
      done.add(pool.submit(work));
    }
    start.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(2, TimeUnit.MINUTES)).as("threads finished").isTrue();

    // THEN every call of every thread saw the single-threaded result (an assertion error would surface here)
    int checks = 0;
    for (Future<Integer> f : done) {
      checks += f.get();
    }
    assertThat(checks).isEqualTo(THREADS * (ROUNDS * 3 + ROUNDS / RECOMMEND_EVERY));
  }

  @Test
  void one_recommendation_read_by_many_threads_at_once_gives_each_list_once_with_shared_options() throws Exception {
    // GIVEN a fresh recommendation, whose lists are worked out on first read, and its equal computed earlier
    Sizer sizer = GpuSizer.forTask(Fixtures.gpt2(1e9)).catalog(Fixtures.aws().merge(Fixtures.aistudio()))
        .deadline(Duration.ofHours(48)).maxGpus(16);
    Recommendation expected = sizer.recommend();
    Recommendation shared = sizer.recommend();

    // WHEN 8 threads read every list of the shared one, starting together
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<List<Object>>> reads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int offset = t;
      reads.add(pool.submit(() -> {
        start.await();
        // threads ask in different orders, so each list is first asked for by some thread while others build theirs
        return offset % 2 == 0
            ? List.<Object>of(shared.paretoFront(), shared.options(), shared.rejected())
            : List.<Object>of(shared.options(), shared.rejected(), shared.paretoFront());
      }));
    }
    start.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(2, TimeUnit.MINUTES)).as("threads finished").isTrue();

    // THEN every thread got the very same lists, equal to the single-threaded ones, sharing option objects
    for (Future<List<Object>> f : reads) {
      List<Object> got = f.get();
      assertThat(got).anySatisfy(l -> assertThat(l).isSameAs(shared.options()));
      assertThat(got).anySatisfy(l -> assertThat(l).isSameAs(shared.paretoFront()));
      assertThat(got).anySatisfy(l -> assertThat(l).isSameAs(shared.rejected()));
    }
    assertThat(shared).isEqualTo(expected);
    assertThat(shared.options().get(0)).isSameAs(shared.bestOrThrow());
    for (Option o : shared.paretoFront()) {
      assertThat(shared.options()).filteredOn(x -> x.offering().equals(o.offering()) && x.pricing() == o.pricing()
          && x.instances() == o.instances()).allSatisfy(x -> assertThat(x).isSameAs(o));
    }
  }

  @Test
  void the_same_settings_give_an_equal_recommendation_every_time() {
    // Determinism across sizers and runs: two sizers built alike give equal recommendations, in the same order.
    Task task = Fixtures.llamaFineTune(200e6);
    Recommendation first = GpuSizer.forTask(task).catalog(Fixtures.aws()).objective(Objective.BEST_VALUE)
        .recommend();
    Recommendation second = GpuSizer.forTask(task).catalog(Fixtures.aws()).objective(Objective.BEST_VALUE)
        .recommend();
    assertThat(second).isEqualTo(first);
    assertThat(second.options()).extracting(Option::toString)
        .containsExactlyElementsOf(first.options().stream().map(Option::toString).toList());
  }
}
