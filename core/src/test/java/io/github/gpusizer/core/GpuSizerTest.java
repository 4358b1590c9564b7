package io.github.gpusizer.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.catalog.BillingMode;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.Fabric;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.ExchangeRates;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.estimate.Estimate;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Fit;
import io.github.gpusizer.core.estimate.FixedCosts;
import io.github.gpusizer.core.estimate.Warning;
import io.github.gpusizer.core.estimate.MemoryEstimate;
import io.github.gpusizer.core.model.Generic;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.ZeroStage;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Examples of what Sizer recommends, rejects and suggests. */
class GpuSizerTest {
  private static final Task LLAMA_FT = Fixtures.llamaFineTune(200e6);
  private static final Comparator<Option> BY_COST = Comparator.comparing(Option::cost);

  private static Recommendation aws(Task task, Objective objective) {
    return GpuSizer.forTask(task).catalog(Fixtures.aws()).objective(objective).deadline(Duration.ofDays(30))
        .recommend();
  }

  private static void assertMoney(Money actual, BigDecimal amount, String currency) {
    assertThat(actual.currency().getCurrencyCode()).isEqualTo(currency);
    assertThat(actual.amount()).isEqualByComparingTo(amount);
  }

  // ---------------------------------------------------------------- ranking

  @Test
  void the_top_of_the_ranking_its_size_and_ranks_agree_with_the_whole_list() {
    // GIVEN the README's task on the bundled catalog: 63 offerings, the lists built on first read
    Recommendation rec = GpuSizer.forTask(Task.lora(Presets.get("llama-2-7b"), 8).tokens(50e6).build())
        .catalog(Catalog.bundled()).recommend();
    // WHEN only the top and the count are read, THEN they are those of the whole list, read afterwards
    List<Option> top = rec.topOptions(3);
    int count = rec.optionCount();
    assertThat(rec.options()).hasSize(count).startsWith(top.toArray(new Option[0]));
    assertThat(top).hasSize(3).first().isSameAs(rec.bestOrThrow());
    assertThat(rec.topOptions(0)).isEmpty();
    assertThat(rec.topOptions(count + 5)).isEqualTo(rec.options());
    // AND each option's rank is its place in the list; a front member at a count no ranking chose has none
    for (int i = 0; i < count; i += 7) {
      assertThat(rec.rank(rec.options().get(i))).hasValue(i + 1);
    }
    for (Option o : rec.paretoFront()) {
      assertThat(rec.rank(o).isPresent()).isEqualTo(rec.options().contains(o));
    }
    assertThatThrownBy(() -> rec.topOptions(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("n must be >= 0, was -1");
  }

  @Test
  void cheapest_ranks_options_by_cost_then_time() {
    // WHEN
    Recommendation rec = aws(LLAMA_FT, Objective.CHEAPEST);
    // THEN
    assertThat(rec.options()).hasSizeGreaterThan(1);
    assertThat(rec.options()).isSortedAccordingTo(BY_COST.thenComparing(Option::wallTime));
    assertThat(rec.best()).contains(rec.options().get(0));
    assertThat(rec.bestOrThrow().cost()).isEqualTo(rec.paretoFront().get(rec.paretoFront().size() - 1).cost());
  }

  @Test
  void wall_time_interval_scales_the_steps_by_the_speed_band_and_keeps_start_up_and_checkpoints() {
    // GIVEN the options for a fine-tuning job
    for (Option o : aws(LLAMA_FT, Objective.CHEAPEST).options()) {
      // WHEN the wall time's interval is taken
      io.github.gpusizer.core.estimate.Interval<Duration> wall = o.wallTimeInterval();
      // THEN start-up and checkpoint writes are in both ends, and the steps scale with the band's ratios
      io.github.gpusizer.core.estimate.ErrorBand band = o.estimate().performance().errorBand();
      Duration fixed = o.startupTime().plus(o.checkpointTime());
      double compute = o.computeTime().toNanos() / 1e9;
      assertThat(wall.nominal()).isEqualTo(o.wallTime());
      assertThat(wall.high().minus(fixed).toNanos() / 1e9)
          .isCloseTo(compute * Math.max(1, band.highRatio()), org.assertj.core.api.Assertions.withinPercentage(1e-6));
      assertThat(wall.low().minus(fixed).toNanos() / 1e9)
          .isCloseTo(compute * Math.min(1, band.lowRatio()), org.assertj.core.api.Assertions.withinPercentage(1e-6));
    }
  }

  @Test
  void fastest_ranks_options_by_time_with_near_ties_to_fewer_nodes_then_cost() {
    Recommendation rec = aws(LLAMA_FT, Objective.FASTEST);
    List<Option> options = rec.options();
    Duration fastest = options.stream().map(Option::wallTime).min(Comparator.naturalOrder()).orElseThrow();
    // the best is within the time tie of the fastest, with no fewer-node option in it, and no cheaper one as few
    Option best = rec.bestOrThrow();
    assertThat(best.wallTime().toNanos()).isLessThanOrEqualTo((long) (fastest.toNanos() * (1 + TieRule.TIME_TIE)));
    for (Option o : options) {
      if (o.wallTime().toNanos() <= fastest.toNanos() * (1 + TieRule.TIME_TIE)) {
        assertThat(o.instances()).isGreaterThanOrEqualTo(best.instances());
        if (o.instances() == best.instances()) {
          assertThat(o.cost().compareTo(best.cost())).isGreaterThanOrEqualTo(0);
        }
      }
    }
    // options come by time in groups of ties: none is faster than one ranked before it by more than the tie
    for (int i = 0; i < options.size(); i++) {
      for (int j = i + 1; j < options.size(); j++) {
        assertThat(options.get(j).wallTime().toNanos() * (1 + TieRule.TIME_TIE))
            .isGreaterThanOrEqualTo(options.get(i).wallTime().toNanos());
      }
    }
  }

  @Test
  void best_value_is_the_cheapest_option_within_the_factor_of_the_fastest() {
    // GIVEN every non-dominated option, from the fastest
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.aws()).deadline(Duration.ofDays(30))
        .objective(Objective.BEST_VALUE).bestValueFactor(2).recommend();
    Duration fastest = rec.paretoFront().get(0).wallTime();
    // WHEN the cheapest within 2 × the fastest time is looked up by hand
    Option expected = rec.paretoFront().stream()
        .filter(o -> o.wallTime().toNanos() <= 2 * fastest.toNanos())
        .min(BY_COST.thenComparing(Option::wallTime)).orElseThrow();
    // THEN it is the best
    assertThat(rec.bestOrThrow()).isEqualTo(expected);
    assertThat(rec.bestOrThrow().wallTime()).isLessThanOrEqualTo(fastest.multipliedBy(2));
  }

  @Test
  void lists_one_option_per_offering_and_pricing_mode() {
    Recommendation rec = aws(LLAMA_FT, Objective.CHEAPEST);
    Set<String> keys = new HashSet<>();
    for (Option o : rec.options()) {
      assertThat(keys.add(o.offering().key() + " " + o.pricing())).as("duplicate %s", o).isTrue();
    }
  }

  @Test
  void the_pareto_front_holds_the_best_option_of_every_objective() {
    Recommendation cheapest = aws(LLAMA_FT, Objective.CHEAPEST);
    for (Objective objective : Objective.values()) {
      assertThat(cheapest.paretoFront()).contains(aws(LLAMA_FT, objective).bestOrThrow());
    }
  }

  // ---------------------------------------------------------------- constraints and rejections

  @Test
  void a_deadline_rejects_options_that_finish_too_late_with_their_time() {
    // GIVEN a deadline that the slowest offering cannot meet even at its fastest, and the others can
    Catalog catalog = Fixtures.of(Fixtures.P4DE, Fixtures.P5);
    List<Option> fastestPerOffering = GpuSizer.forTask(LLAMA_FT).catalog(catalog).objective(Objective.FASTEST)
        .recommend().options();
    Option slowest = fastestPerOffering.get(fastestPerOffering.size() - 1);
    Option next = fastestPerOffering.get(fastestPerOffering.size() - 2);
    assertThat(slowest.wallTime()).isGreaterThan(next.wallTime());
    Duration deadline = slowest.wallTime().plus(next.wallTime()).dividedBy(2);
    // WHEN
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(catalog).deadline(deadline).recommend();
    // THEN every option meets it, and something was rejected for it
    assertThat(rec.options()).isNotEmpty().allSatisfy(o -> assertThat(o.wallTime()).isLessThanOrEqualTo(deadline));
    assertThat(rec.rejected()).filteredOn(r -> r.offering().equals(slowest.offering())).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(Rejection.Kind.DEADLINE);
      assertThat(r.reason()).matches("takes [0-9.,]+ (h|min) on \\d+ GPUs? \\(\\d+ instances?, on-demand\\), past the "
          + "[0-9.,]+ (h|min) deadline");
    });
  }

  @Test
  void a_budget_rejects_options_that_cost_too_much_with_their_cost() {
    Recommendation all = aws(LLAMA_FT, Objective.CHEAPEST);
    Money cheapest = all.options().get(0).cost();
    Money dearest = all.options().get(all.options().size() - 1).cost();
    Money budget = Money.of(cheapest.amount().add(dearest.amount()).divide(BigDecimal.valueOf(2)), cheapest.currency());
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.aws()).deadline(Duration.ofDays(30))
        .budget(budget).recommend();
    assertThat(rec.options()).isNotEmpty().allSatisfy(o -> assertThat(o.cost()).isLessThanOrEqualTo(budget));
    assertThat(rec.rejected()).anySatisfy(r -> {
      assertThat(r.kind()).isEqualTo(Rejection.Kind.BUDGET);
      assertThat(r.reason()).matches("costs [0-9.,]+ USD on .*, over the [0-9.,]+ USD budget");
    });
  }

  @Test
  void a_v100_runs_fp16_mixed_precision_when_the_precision_is_left_open() {
    // GIVEN a fine-tuning whose precision the caller did not choose (BF16 mixed by default), on a V100 only
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(Fixtures.P3)).deadline(Duration.ofDays(30))
        .recommend();
    // THEN the V100 is ranked with FP16 mixed precision (loss scaling), and the option says so
    Option o = rec.bestOrThrow();
    assertThat(o.estimate().task().precision()).isEqualTo(PrecisionMode.FP16_MIXED);
    assertThat(o.warnings()).map(Warning::toString).anyMatch(w -> w.startsWith("runs in FP16_MIXED on the Tesla V100-SXM2-16GB"));
  }

  @Test
  void bf16_on_a_v100_is_rejected_for_its_compute_capability() {
    Recommendation rec = aws(LLAMA_FT.toBuilder().precision(PrecisionMode.BF16_MIXED).build(), Objective.CHEAPEST);
    assertThat(rec.rejected()).filteredOn(r -> r.offering().equals(Fixtures.P3)).singleElement()
        .satisfies(r -> {
          assertThat(r.kind()).isEqualTo(Rejection.Kind.INCOMPATIBLE);
          assertThat(r.reason()).isEqualTo("BF16 needs compute capability 8.0 (Ampere and later: A100, A10, A40, RTX 30xx, "
              + "L4, L40S, RTX 40xx, H100, H200); the Tesla V100-SXM2-16GB has 7.0");
        });
  }

  @Test
  void a_model_too_big_for_the_gpus_is_rejected_with_its_memory_need() {
    // GIVEN Llama-2-7B full fine-tuning in FP16 (T4s can run it) on at most four T4s
    Task fp16 = LLAMA_FT.toBuilder().precision(PrecisionMode.FP16_MIXED).build();
    Recommendation rec = GpuSizer.forTask(fp16).catalog(Fixtures.of(Fixtures.G4DN)).maxGpus(4).recommend();
    // THEN nothing fits, and the reason gives the need of the least memory-hungry layout tried and the capacity
    assertThat(rec.options()).isEmpty();
    assertThat(rec.rejected()).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(Rejection.Kind.MEMORY);
      assertThat(r.reason()).matches("needs [0-9.]+ GiB per GPU with ZeRO-3/FSDP over 4 GPUs in 4 nodes, "
          + "full checkpointing, micro-batch 1; the Tesla T4 has 16.0 GiB");
    });
  }

  @Test
  void an_old_cuda_stack_rules_out_newer_gpus_naming_the_version_needed() {
    Recommendation rec = GpuSizer.forTask(Fixtures.gpt2(1e9)).catalog(Fixtures.of(Fixtures.AISTUDIO_4090_1,
        Fixtures.P4D)).cudaVersion("11.7").recommend();
    assertThat(rec.options()).extracting(Option::offering).containsOnly(Fixtures.P4D);
    assertThat(rec.rejected()).singleElement().satisfies(r -> assertThat(r.reason())
        .isEqualTo("the NVIDIA GeForce RTX 4090 needs CUDA 11.8 or newer; your stack has CUDA 11.7"));
  }

  @Test
  void rejects_each_offering_at_most_once_and_never_one_with_an_option() {
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.aws()).recommend();
    Set<Offering> withOptions = new HashSet<>();
    rec.options().forEach(o -> withOptions.add(o.offering()));
    Set<Offering> rejected = new HashSet<>();
    for (Rejection r : rec.rejected()) {
      assertThat(rejected.add(r.offering())).isTrue();
      assertThat(withOptions).doesNotContain(r.offering());
    }
    assertThat(withOptions.size() + rejected.size()).isEqualTo(Fixtures.AWS_OFFERINGS.size());
  }

  @Test
  void filters_exclude_offerings_with_the_reason() {
    Catalog both = Fixtures.aws().merge(Fixtures.aistudio());
    Recommendation rec = GpuSizer.forTask(Fixtures.gpt2(1e9)).catalog(both).providers("AIStudio")
        .gpuModels("rtx-4090").recommend();
    assertThat(rec.options()).isNotEmpty()
        .allSatisfy(o -> assertThat(o.offering().provider()).isEqualTo("aistudio"))
        .allSatisfy(o -> assertThat(o.gpu()).isEqualTo(Fixtures.RTX4090));
    assertThat(rec.rejected()).filteredOn(r -> r.offering().provider().equals("aws"))
        .hasSize(Fixtures.AWS_OFFERINGS.size())
        .allSatisfy(r -> assertThat(r.reason()).isEqualTo("provider aws is not among the allowed [aistudio]"));
    assertThat(rec.rejected()).filteredOn(r -> r.offering().equals(Fixtures.AISTUDIO_A100_1)).singleElement()
        .satisfies(r -> assertThat(r.reason())
            .isEqualTo("the NVIDIA A100-SXM4-40GB is not among the allowed GPU models [rtx-4090]"));
  }

  // ---------------------------------------------------------------- layouts

  @Test
  void falls_back_to_sharding_when_plain_ddp_does_not_fit_and_takes_the_fastest_layout_that_fits() {
    // GIVEN Llama-2-7B full fine-tuning: 16 bytes per parameter of training state alone (108 GB) fit no GPU
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(Fixtures.P4DE)).maxGpus(8).recommend();
    Option o = rec.bestOrThrow();
    // THEN ZeRO shards the state and the option fits
    assertThat(o.layout().zero()).isNotEqualTo(ZeroStage.NONE);
    assertThat(o.memory().fits()).isTrue();
    // AND no other ZeRO stage that fits with the same recipe would have been faster by more than the margin a
    // more complex layout must win by (3%)
    Estimator estimator = Estimator.defaults();
    double chosen = o.estimate().performance().totalTime().orElseThrow().toNanos();
    for (ZeroStage stage : ZeroStage.values()) {
      Layout other = o.layout().withZero(stage);
      MemoryEstimate m = estimator.memory(o.estimate().task(), o.estimate().hardware(), other);
      if (m.fits()) {
        Estimate e = estimator.estimate(o.estimate().task(), o.estimate().hardware(), other);
        assertThat(e.performance().totalTime().orElseThrow().toNanos() * 1.03).as("%s", stage)
            .isGreaterThanOrEqualTo(chosen);
      }
    }
  }

  @Test
  void data_parallelism_never_grows_an_open_global_batch_past_what_trains_well() {
    // GIVEN GPT-2 pre-training on 2 B tokens with no global batch, and up to 512 H100s
    Task task = Task.pretraining(Presets.get("gpt2")).tokens(2e9).build();
    int useful = task.largestUsefulGlobalBatch().orElseThrow(); // DeepSeek's law: a few hundred sequences
    Recommendation rec = GpuSizer.forTask(task).catalog(Fixtures.of(Fixtures.P5)).maxGpus(512)
        .objective(Objective.FASTEST).recommend();

    // THEN no option's ranks times micro-batch exceed that batch (past it, tensor parallelism takes the GPUs)
    List<Option> all = new ArrayList<>(rec.options());
    all.addAll(rec.paretoFront());
    assertThat(all).isNotEmpty().allSatisfy(o ->
        assertThat(o.layout().dataParallel() * o.microBatch()).as("%s", o).isLessThanOrEqualTo(useful));

    // AND a global batch of the caller's own goes past it
    Task large = Task.pretraining(Presets.get("gpt2")).tokens(2e9).globalBatch(4096).build();
    Option big = GpuSizer.forTask(large).catalog(Fixtures.of(Fixtures.P5)).maxGpus(512)
        .objective(Objective.FASTEST).recommend().bestOrThrow();
    assertThat(big.layout().dataParallel()).isGreaterThan(useful);
  }

  @Test
  void prefers_plain_ddp_when_sharding_is_predicted_barely_faster() {
    // GIVEN ResNet-50 on ImageNet for 90 epochs: 25.6 M parameters fit any GPU, so ZeRO only shaves the optimizer
    Task resnet = Task.pretraining(Presets.get("resnet50")).samples(1_281_167).epochs(90).microBatch(256)
        .precision(io.github.gpusizer.core.task.PrecisionMode.FP16_MIXED).build();
    // WHEN it is sized on one 8-GPU RTX 4090 instance
    Option o = GpuSizer.forTask(resnet).catalog(Fixtures.of(Fixtures.AISTUDIO_4090_8)).recommend().bestOrThrow();
    // THEN the layout is plain data parallelism without recomputation
    assertThat(o.layout().zero()).isEqualTo(ZeroStage.NONE);
    assertThat(o.checkpointing()).isEqualTo(io.github.gpusizer.core.task.Checkpointing.NONE);
  }

  @Test
  void serves_a_model_too_big_for_one_gpu_with_tensor_parallelism_and_no_zero() {
    // GIVEN Llama-2-70B inference in BF16: 140 GB of weights, more than one A100 80GB holds
    Task serve = Task.inference(Presets.get("llama-2-70b")).tokens(1e7).microBatch(8).sequenceLength(1024)
        .generatedTokens(256).build();
    Option o = GpuSizer.forTask(serve).catalog(Fixtures.of(Fixtures.P4DE)).maxGpus(8).deadline(Duration.ofDays(30))
        .recommend().bestOrThrow();
    // THEN the weights are split by tensor parallelism within the node, never sharded by ZeRO
    assertThat(o.layout().tensorParallel()).isGreaterThan(1);
    assertThat(o.layout().zero()).isEqualTo(ZeroStage.NONE);
    assertThat(o.rationale()).contains("tensor parallel " + o.layout().tensorParallel());
    assertThat(o.rationale()).doesNotContain("DDP");
  }

  @Test
  void a_multi_node_plan_names_the_network_its_time_rests_on_and_an_assumed_network_joins_no_nodes() {
    // GIVEN LoRA of Llama-2-7B, as fast as possible, on 8 x A100 instances joined by a stated 100 Gb/s RDMA fabric,
    // and on the same instances over Ethernet whose bandwidth the row does not state
    Task lora = Task.lora(Presets.get("llama-2-7b"), 8).tokens(50e6).build();
    Offering a100 = Fixtures.offering("test", "a100x8", "r1", Fixtures.A100_80, 8, "16.00", "USD",
        BillingMode.PER_SECOND, Optional.empty(), Optional.empty());
    Option rdma = GpuSizer.forTask(lora).catalog(Fixtures.of(Fixtures.onRdma(a100))).maxGpus(32)
        .objective(Objective.FASTEST).recommend().bestOrThrow();
    Option ethernet = GpuSizer.forTask(lora).catalog(Fixtures.of(Fixtures.withNetwork(a100,
        OptionalDouble.empty(), Fabric.ETHERNET))).maxGpus(32)
        .objective(Objective.FASTEST).recommend().bestOrThrow();
    // THEN the stated fabric joins several nodes and says over what; Ethernet of unstated bandwidth joins none
    // (issue #31: an assumed bandwidth never joins nodes)
    assertThat(rdma.instances()).isGreaterThan(1);
    assertThat(rdma.rationale()).contains("nodes joined by InfiniBand/EFA/RoCE cluster fabric at 100 Gb/s each,")
        .doesNotContain("(assumed)");
    assertThat(ethernet.instances()).isEqualTo(1);
    assertThat(ethernet.rationale()).doesNotContain("nodes joined");
  }

  @Test
  void qlora_is_spread_over_gpus_by_data_parallelism_and_sharding_never_by_splitting_its_layers() {
    // GIVEN QLoRA of Llama-2-70B over the bundled catalog, the risk of a tight fit allowed so more layouts qualify
    Task qlora = Task.qlora(Presets.get("llama-2-70b"), 8).tokens(20e6).build();
    // WHEN sized
    Recommendation rec = GpuSizer.forTask(qlora).catalog(Catalog.bundled()).allowTightMemory().recommend();
    // THEN no option, on the list or the front, uses tensor or pipeline parallelism (TaskKind.splitsLayers), and
    // those on several GPUs shard the 4-bit weights with FSDP/ZeRO-3 or replicate them whole
    assertThat(rec.options()).isNotEmpty().allSatisfy(o -> {
      assertThat(o.layout().tensorParallel()).isEqualTo(1);
      assertThat(o.layout().pipelineParallel()).isEqualTo(1);
    });
    assertThat(rec.paretoFront()).allSatisfy(o -> assertThat(o.layout().tensorParallel()).isEqualTo(1));
    assertThat(rec.options()).anySatisfy(o -> assertThat(o.layout().zero()).isEqualTo(ZeroStage.STAGE_3));
  }

  @Test
  void hardware_on_which_every_recipe_may_not_fit_is_rejected_unless_the_risk_is_allowed() {
    // GIVEN QLoRA of Llama-3-70B at sequence 2048 on AIStudio's A100-40GB machines: on the 2-GPU one the lightest
    // recipe (FSDP-QLoRA) fits only nominally (its memory interval reaches past the 40 GiB), on the 4- and 8-GPU ones
    // some recipe surely fits
    Task qlora = Task.qlora(Presets.get("llama-3-70b"), 8).tokens(20e6).sequenceLength(2048).build();
    Sizer sizer = GpuSizer.forTask(qlora).catalog(Catalog.bundled()).providers("aistudio")
        .gpuModels("a100-sxm4-40gb");
    // WHEN sized by default and with the risk allowed
    Recommendation safe = sizer.recommend();
    Recommendation tight = GpuSizer.forTask(qlora).catalog(Catalog.bundled()).providers("aistudio")
        .gpuModels("a100-sxm4-40gb").allowTightMemory().recommend();
    // THEN by default every option surely fits and the 2-GPU machine is rejected with both figures and the way out;
    // with the risk allowed it is the cheapest option, marked as such
    assertThat(safe.options()).isNotEmpty().allSatisfy(o -> assertThat(o.memory().fit()).isEqualTo(Fit.FITS));
    Rejection two = safe.rejected().stream()
        .filter(r -> r.offering().instanceType().equals("NVIDIA-A100-40GB-x2")).findFirst().orElseThrow();
    assertThat(two.kind()).isEqualTo(Rejection.Kind.MEMORY);
    assertThat(two.reason()).startsWith("may not fit: needs ").contains("at the high end of the memory estimate")
        .contains("the NVIDIA A100-SXM4-40GB has 40.0 GiB").contains("--allow-tight-memory");
    Option cheapest = tight.bestOrThrow();
    assertThat(cheapest.offering().instanceType()).isEqualTo("NVIDIA-A100-40GB-x2");
    assertThat(cheapest.memory().fit()).isEqualTo(Fit.MAY_NOT_FIT);
    assertThat(cheapest.cost().amount()).isLessThan(safe.bestOrThrow().cost().amount());
  }

  @Test
  void offline_inference_with_no_batch_chosen_batches_its_prompts_as_far_as_memory_and_the_job_allow() {
    // GIVEN Llama-2-7B generating 256 tokens after 512-token prompts for 100,000 prompts, no batch chosen
    Task open = Task.inference(Presets.get("llama-2-7b")).samples(1e5).sequenceLength(512).generatedTokens(256)
        .build();
    Sizer sizer = GpuSizer.forTask(open).catalog(Fixtures.of(Fixtures.P4DE)).maxGpus(8)
        .deadline(Duration.ofDays(30));
    // WHEN sized as a plain script, as a serving engine, with the batch fixed at 1, and for only three prompts
    Option eager = sizer.recommend().bestOrThrow();
    Option engine = GpuSizer.forTask(open.toBuilder().executionMode(ExecutionMode.SERVING_ENGINE).build())
        .catalog(Fixtures.of(Fixtures.P4DE)).maxGpus(8).deadline(Duration.ofDays(30)).recommend().bestOrThrow();
    Option one = GpuSizer.forTask(open.toBuilder().microBatch(1).build()).catalog(Fixtures.of(Fixtures.P4DE))
        .maxGpus(8).deadline(Duration.ofDays(30)).recommend().bestOrThrow();
    Option few = GpuSizer.forTask(open.toBuilder().samples(3).build()).catalog(Fixtures.of(Fixtures.P4DE))
        .maxGpus(8).deadline(Duration.ofDays(30)).recommend().bestOrThrow();
    // THEN a script batches 32 sequences per replica (an A100 80GB holds them), an engine up to 256, a batch the
    // caller fixed stays, and no replica holds more sequences than the job has; batching makes the job cheaper
    assertThat(eager.microBatch()).isEqualTo(32);
    assertThat(eager.rationale() + eager.warnings()).contains("32 concurrent sequences per replica");
    assertThat(engine.microBatch()).isGreaterThan(32).isLessThanOrEqualTo(256);
    assertThat(one.microBatch()).isEqualTo(1);
    assertThat(few.microBatch()).isLessThanOrEqualTo(3);
    assertThat(eager.cost().amount()).isLessThan(one.cost().amount());
  }

  @Test
  void a_headroom_requirement_leaves_that_much_memory_free() {
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.aws()).deadline(Duration.ofDays(30))
        .minHeadroom(0.25).recommend();
    assertThat(rec.options()).isNotEmpty().allSatisfy(o -> assertThat(o.headroom().bytes())
        .isGreaterThanOrEqualTo((long) Math.ceil(o.memory().capacity().bytes() * 0.25)));
  }

  // ---------------------------------------------------------------- cost

  @Test
  void hourly_billing_rounds_the_time_up_and_the_cost_shows_it() {
    // GIVEN an offering billed by the started hour at 10 USD
    Offering hourly = Fixtures.offering("test", "a100x8-hourly", "r1", Fixtures.A100_80, 8, "10", "USD",
        BillingMode.PER_HOUR, Optional.empty(), Optional.empty());
    // WHEN
    Option o = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(hourly)).maxGpus(8).recommend().bestOrThrow();
    // THEN the billed time is whole hours, at least the wall time, less than an hour more; cost = 10 × hours
    long hours = o.billedTime().toHours();
    assertThat(o.billedTime()).isEqualTo(Duration.ofHours(hours));
    assertThat(o.billedTime()).isGreaterThanOrEqualTo(o.wallTime());
    assertThat(o.billedTime().minus(o.wallTime())).isLessThan(Duration.ofHours(1));
    assertMoney(o.cost(), BigDecimal.TEN.multiply(BigDecimal.valueOf(hours)), "USD");
  }

  @Test
  void per_second_billing_charges_the_60_second_minimum_for_a_short_run() {
    // GIVEN a tiny job, far under a minute on a p4d
    Task tiny = Fixtures.gpt2(1e6);
    Option o = GpuSizer.forTask(tiny).catalog(Fixtures.of(Fixtures.P4D)).maxGpus(8).fixedCosts(FixedCosts.none())
        .recommend().bestOrThrow();
    assertThat(o.wallTime()).isLessThan(Duration.ofSeconds(60));
    assertThat(o.billedTime()).isEqualTo(Duration.ofSeconds(60));
    assertMoney(o.cost(), new BigDecimal("32.7726").divide(BigDecimal.valueOf(60), MathContext.DECIMAL128), "USD");
  }

  @Test
  void spot_is_considered_only_when_allowed_and_priced_at_the_spot_rate() {
    Offering spot = Fixtures.offering("test", "a100x8", "r1", Fixtures.A100_80, 8, "20", "USD",
        BillingMode.PER_SECOND, Optional.of("6"), Optional.empty());
    Catalog catalog = Fixtures.of(spot);
    assertThat(GpuSizer.forTask(LLAMA_FT).catalog(catalog).recommend().options())
        .extracting(Option::pricing).containsOnly(PricingMode.ON_DEMAND);
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(catalog).allowSpot().recommend();
    Option best = rec.bestOrThrow();
    assertThat(best.pricing()).isEqualTo(PricingMode.SPOT);
    assertMoney(best.cost(), new BigDecimal(6 * best.instances())
        .multiply(BigDecimal.valueOf(best.billedTime().getSeconds()))
        .divide(BigDecimal.valueOf(3600), MathContext.DECIMAL128), "USD");
    assertThat(best.warnings()).map(Warning::toString).anyMatch(w -> w.contains("priced as if never interrupted"));
  }

  @Test
  void spot_interruptions_lengthen_the_run_and_raise_its_cost() {
    Offering spot = Fixtures.offering("test", "a100x8", "r1", Fixtures.A100_80, 8, "20", "USD",
        BillingMode.PER_SECOND, Optional.of("6"), Optional.empty());
    Interruptions often = Interruptions.of(0.2, Duration.ofMinutes(30), Duration.ofMinutes(10));
    Recommendation plain = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(spot)).maxGpus(8)
        .pricing(PricingMode.SPOT).recommend();
    Recommendation interrupted = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(spot)).maxGpus(8)
        .pricing(PricingMode.SPOT).spotInterruptions(often).recommend();
    Option a = plain.bestOrThrow();
    Option b = interrupted.bestOrThrow();
    assertThat(b.instances()).isEqualTo(a.instances());
    assertThat(b.wallTime()).isGreaterThan(a.wallTime());
    assertThat(b.cost()).isGreaterThan(a.cost());
    assertThat(b.warnings()).map(Warning::toString).anyMatch(w -> w.contains("interruptions expected"));
  }

  @Test
  void a_monthly_subscription_costs_whole_months() {
    Offering monthly = Fixtures.offering("test", "a100x8", "r1", Fixtures.A100_80, 8, "20", "USD",
        BillingMode.PER_SECOND, Optional.empty(), Optional.of("9000"));
    Option o = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(monthly)).pricing(PricingMode.MONTHLY)
        .recommend().bestOrThrow();
    assertThat(o.pricing()).isEqualTo(PricingMode.MONTHLY);
    assertThat(o.billedTime()).isEqualTo(Duration.ofHours(730));
    assertMoney(o.cost(), new BigDecimal(9000 * o.instances()), "USD");
  }

  @Test
  void an_offering_not_sold_in_the_allowed_modes_is_rejected_saying_how_it_is_sold() {
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(Fixtures.P4DE))
        .pricing(PricingMode.SPOT, PricingMode.YEARLY).recommend();
    assertThat(rec.rejected()).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(Rejection.Kind.NOT_SOLD);
      assertThat(r.reason()).isEqualTo("not sold as spot or yearly; the catalog has on-demand prices only");
    });
  }

  @Test
  void converts_prices_into_the_ranking_currency_and_marks_them() {
    // GIVEN AIStudio prices in CNY, ranked in the default USD with the bundled rates
    Recommendation usd = GpuSizer.forTask(Fixtures.gpt2(1e9)).catalog(Fixtures.aistudio()).recommend();
    Option o = usd.bestOrThrow();
    assertThat(usd.currency().getCurrencyCode()).isEqualTo("USD");
    assertThat(o.costConverted()).isTrue();
    assertThat(o.nativeCost().currency().getCurrencyCode()).isEqualTo("CNY");
    assertThat(o.cost().amount()).isEqualByComparingTo(o.nativeCost().amount()
        .multiply(o.exchangeRate().orElseThrow().rate()));
    assertThat(o.rationale()).contains("(converted from");
    // AND in CNY nothing is converted
    Option cny = GpuSizer.forTask(Fixtures.gpt2(1e9)).catalog(Fixtures.aistudio()).currency("CNY").recommend()
        .bestOrThrow();
    assertThat(cny.costConverted()).isFalse();
    assertThat(cny.cost()).isEqualTo(cny.nativeCost());
  }

  @Test
  void an_offering_without_an_exchange_rate_is_rejected() {
    Recommendation rec = GpuSizer.forTask(Fixtures.gpt2(1e9)).catalog(Fixtures.of(Fixtures.AISTUDIO_4090_1,
        Fixtures.P4D)).exchangeRates(ExchangeRates.empty()).recommend();
    assertThat(rec.options()).extracting(Option::offering).containsOnly(Fixtures.P4D);
    assertThat(rec.rejected()).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(Rejection.Kind.NO_EXCHANGE_RATE);
      assertThat(r.reason()).startsWith("priced in CNY with no exchange rate to USD");
    });
  }

  // ---------------------------------------------------------------- infeasible: suggestions

  @Test
  void when_no_option_meets_the_deadline_it_suggests_the_fastest_time_and_that_deadline_works() {
    // GIVEN a deadline nothing meets
    Sizer tooSoon = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.aws()).deadline(Duration.ofMinutes(1));
    Recommendation rec = tooSoon.recommend();
    assertThat(rec.best()).isEmpty();
    assertThatThrownBy(rec::bestOrThrow).isInstanceOf(NoFeasibleOptionException.class)
        .hasMessageContaining("nothing finishes within 1 min");
    Suggestion s = rec.suggestion().orElseThrow();
    Duration suggested = s.deadline().orElseThrow();
    // THEN the suggested deadline works, and is the fastest option's time rounded up to the minute
    Option fastest = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.aws()).deadline(suggested)
        .objective(Objective.FASTEST).recommend().bestOrThrow();
    assertThat(fastest.wallTime()).isLessThanOrEqualTo(suggested);
    assertThat(suggested.minus(fastest.wallTime())).isLessThan(Duration.ofMinutes(1));
    assertThat(rec.rejected()).allSatisfy(r -> assertThat(r.kind()).isNotEqualTo(Rejection.Kind.BUDGET));
  }

  @Test
  void when_no_option_is_within_budget_it_suggests_the_cheapest_cost_and_that_budget_works() {
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.aws()).budget(Money.of("0.01", "USD"))
        .recommend();
    Money suggested = rec.suggestion().orElseThrow().budget().orElseThrow();
    Option cheapest = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.aws()).budget(suggested).recommend()
        .bestOrThrow();
    assertThat(cheapest.cost()).isLessThanOrEqualTo(suggested);
    assertThat(suggested.minus(cheapest.cost()).amount()).isLessThan(new BigDecimal("0.01"));
    assertThat(rec.suggestion().orElseThrow().advice()).contains("a budget of " + String.format("%,.2f USD",
        suggested.amount()) + " would do");
  }

  @Test
  void when_too_few_gpus_are_allowed_it_suggests_the_fewest_that_work() {
    // GIVEN one GPU, too few to hold Llama-2-7B's training state
    Catalog catalog = Fixtures.of(Fixtures.P4DE, Fixtures.P5);
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).catalog(catalog).maxGpus(1).recommend();
    int gpus = rec.suggestion().orElseThrow().gpus().orElseThrow();
    // THEN that many GPUs work and one fewer does not
    assertThat(GpuSizer.forTask(LLAMA_FT).catalog(catalog).maxGpus(gpus).recommend().isFeasible()).isTrue();
    assertThat(GpuSizer.forTask(LLAMA_FT).catalog(catalog).maxGpus(gpus - 1).recommend().isFeasible()).isFalse();
    assertThat(rec.suggestion().orElseThrow().advice()).contains("raise maxGpus to " + gpus);
  }

  @Test
  void when_no_single_stand_alone_instance_holds_the_job_the_suggestion_says_they_are_never_joined() {
    // GIVEN only AIStudio's stand-alone development machines and a job no one of them holds (Llama-3-70B full
    // fine-tuning: ~16 bytes per parameter of training state, far more than 8 x 24 GB)
    Task big = Task.fullFineTuning(io.github.gpusizer.core.model.Presets.get("llama-3-70b")).tokens(1e8).build();
    Recommendation rec = GpuSizer.forTask(big).catalog(Fixtures.of(Fixtures.AISTUDIO_4090_8)).recommend();
    // THEN nothing is feasible, and the advice says why more instances did not help
    assertThat(rec.isFeasible()).isFalse();
    assertThat(rec.suggestion().orElseThrow().advice()).contains("no number of GPUs up to 16,384 meets every "
        + "constraint; aistudio instances are stand-alone (never joined into one multi-node job; each offering's "
        + "source says why), so each was tried on one instance");
    // and where some offering can be joined (tried up to the limit), it says nothing of the kind
    String mixed = GpuSizer.forTask(big).catalog(Fixtures.of(Fixtures.AISTUDIO_4090_8, Fixtures.P4DE))
        .deadline(Duration.ofMinutes(1)).recommend().suggestion().orElseThrow().advice();
    assertThat(mixed).contains("no number of GPUs up to 16,384 meets every constraint").doesNotContain("stand-alone");
  }

  @Test
  void when_the_cuda_stack_rules_out_every_gpu_it_suggests_the_version_that_works() {
    Recommendation rec = GpuSizer.forTask(Fixtures.gpt2(1e9)).catalog(Fixtures.of(Fixtures.P5))
        .cudaVersion("11.8").recommend();
    Suggestion s = rec.suggestion().orElseThrow();
    assertThat(s.cuda()).hasValueSatisfying(v -> assertThat(v.toString()).isEqualTo("12.0"));
    assertThat(s.advice()).contains("with CUDA 12.0 or newer");
  }

  // ---------------------------------------------------------------- sweeps

  /**
   * A model whose gradient exchange over PCIe dwarfs its arithmetic: 300 M parameters, 2 GFLOPs per sample
   * forward (test input, no real network).
   */
  private static final Task COMMUNICATION_BOUND = Task.pretraining(
          new Generic("wide-and-shallow", 300_000_000, 2e9, 10_000_000))
      .samples(1e6).microBatch(32).precision(PrecisionMode.FP16_MIXED).build();

  @Test
  void a_sweep_packs_independent_runs_onto_the_gpus_of_an_instance() {
    // GIVEN two runs and a two-GPU instance without NVLink
    Recommendation rec = GpuSizer.forTask(COMMUNICATION_BOUND).catalog(Fixtures.of(Fixtures.AISTUDIO_4090_2))
        .currency("CNY").maxGpus(2).runs(2).recommend();
    Option o = rec.bestOrThrow();
    // THEN both run at once, one GPU each, and the wall time is one run's
    assertThat(o.runs()).isEqualTo(2);
    assertThat(o.concurrentRuns()).isEqualTo(2);
    assertThat(o.layout().gpus()).isEqualTo(1);
    assertThat(o.computeTime()).isEqualTo(o.estimate().performance().totalTime().orElseThrow());
    assertThat(o.startupTime()).isPositive();
    assertThat(o.rationale()).contains("2 runs, 2 at a time on 1 GPU each");
    assertThat(o.host().cpuCores()).isEqualTo(2 * o.estimate().host().cpuCores());
  }

  @Test
  void a_sweep_runs_in_waves_when_the_gpus_are_fewer_than_the_runs() {
    Option o = GpuSizer.forTask(COMMUNICATION_BOUND).catalog(Fixtures.of(Fixtures.AISTUDIO_4090_2))
        .currency("CNY").maxGpus(2).runs(3).recommend().bestOrThrow();
    Duration oneRun = o.estimate().performance().totalTime().orElseThrow();
    int waves = (3 + o.concurrentRuns() - 1) / o.concurrentRuns();
    // one start-up, then the waves of runs (with the checkpoint writes of each)
    assertThat(o.computeTime()).isEqualTo(oneRun.multipliedBy(waves));
    assertThat(o.wallTime()).isEqualTo(o.startupTime().plus(o.computeTime()).plus(o.checkpointTime()));
  }

  @Test
  void a_single_run_leaves_gpus_idle_when_spreading_it_would_be_slower_and_says_so() {
    Option o = GpuSizer.forTask(COMMUNICATION_BOUND).catalog(Fixtures.of(Fixtures.AISTUDIO_4090_2))
        .currency("CNY").maxGpus(2).recommend().bestOrThrow();
    assertThat(o.gpus()).isEqualTo(2);
    assertThat(o.layout().gpus()).isEqualTo(1);
    Warning idle = o.warnings().stream().filter(w -> w.code().equals("idle-gpus")).findFirst().orElseThrow();
    assertThat(idle.message()).startsWith("the run uses 1 of the 2 GPUs rented: spreading it over more GPUs would be "
        + "slower; the idle GPUs could run further experiments");
    assertThat(idle.text(Warning.Surface.CLI)).endsWith("size them with --runs N");
    assertThat(idle.text(Warning.Surface.API)).endsWith("size them with runs(n) on the sizer");
  }

  // ---------------------------------------------------------------- explanations

  @Test
  void the_rationale_names_gpus_offering_layout_memory_time_cost_and_bottleneck() {
    Option o = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.of(Fixtures.P4DE)).maxGpus(8).recommend().bestOrThrow();
    assertThat(o.rationale()).matches("8× NVIDIA A100-SXM4-80GB on aws p4de.24xlarge \\(us-east-1, 1 instance, "
        + "on-demand\\): fits with ZeRO-\\S+ over 8 GPUs.* \\([0-9.]+ of 80.0 GiB\\), [0-9.]+ (h|min), [0-9,.]+ USD; "
        + "[a-z() -]+ at \\d+% MFU; assumed framework: pytorch \\(PyTorch \\(eager DDP/FSDP\\)\\); name yours for "
        + "its estimates");
  }

  @Test
  void warns_that_pytorch_leaves_tf32_off_for_fp32_jobs_on_ampere() {
    Task fp32 = Fixtures.gpt2(1e8).toBuilder().precision(PrecisionMode.FP32).build();
    Option o = GpuSizer.forTask(fp32).catalog(Fixtures.of(Fixtures.AISTUDIO_A100_1)).currency("CNY").recommend()
        .bestOrThrow();
    assertThat(o.warnings()).map(Warning::toString).anyMatch(w -> w.contains("PyTorch leaves TF32 off") && w.contains("156.0 TFLOP/s"));
  }

  @Test
  void warns_about_4090s_without_peer_to_peer_and_geforce_fp16_accumulation() {
    Option o = GpuSizer.forTask(LLAMA_FT.toBuilder().build()).catalog(Fixtures.of(Fixtures.AISTUDIO_4090_8))
        .currency("CNY").deadline(Duration.ofDays(30)).recommend().bestOrThrow();
    assertThat(o.warnings()).map(Warning::toString).anyMatch(w -> w.contains("have no PCIe peer-to-peer")
        && w.contains("staged through host memory"));
    assertThat(o.warnings()).map(Warning::toString).anyMatch(w -> w.contains("FP32 accumulation") && w.contains("330.3 TFLOPS"));
  }

  @Test
  void warns_when_a_much_smaller_card_would_do() {
    Option o = GpuSizer.forTask(Fixtures.gpt2(1e8)).catalog(Fixtures.of(Fixtures.P4DE)).recommend().bestOrThrow();
    assertThat(o.warnings()).map(Warning::toString).anyMatch(w -> w.matches("uses [0-9.]+ GiB of 80.0 GiB per GPU: a card with [0-9.]+ GiB "
        + "\\(such as the .*\\) would do"));
  }

  @Test
  void flags_a_free_offering_and_a_host_the_catalog_does_not_describe() {
    // GIVEN an offering priced at 0 whose vCPUs and RAM are 0 (unknown)
    Offering free = new Offering("myco", "x1", "r1", Fixtures.P4DE.gpu(), 8, 0, io.github.gpusizer.catalog.DataSize.ofGiB(0),
        io.github.gpusizer.catalog.DataSize.ofGB(0),
        Money.of("0", "USD"), Optional.empty(), BillingMode.PER_SECOND, Optional.empty(), Optional.empty(),
        OptionalDouble.empty(), Fabric.ETHERNET, java.time.LocalDate.of(2026, 11, 30),
        "test");
    Option o = GpuSizer.forTask(Fixtures.gpt2(1e8)).catalog(Fixtures.of(free)).recommend().bestOrThrow();
    // THEN the option says so: a critical warning on the price, a note that the host went unchecked
    assertThat(o.warnings()).anySatisfy(w -> {
      assertThat(w.code()).isEqualTo("price-zero");
      assertThat(w.severity()).isEqualTo(Warning.Severity.CRITICAL);
      assertThat(w.message()).startsWith("the catalog prices myco/x1/r1 at 0 per hour on-demand");
    });
    assertThat(o.warnings()).anySatisfy(w -> assertThat(w.message())
        .startsWith("the catalog lists 0 vCPUs and 0 RAM for x1: read as unknown"));
  }

  @Test
  void warns_about_cuda_needs_when_the_stack_is_not_given_and_not_when_it_is() {
    Task t = Fixtures.gpt2(1e8);
    Option unknown = GpuSizer.forTask(t).catalog(Fixtures.of(Fixtures.P5)).recommend().bestOrThrow();
    assertThat(unknown.warnings()).map(Warning::toString).anyMatch(w -> w.startsWith("the NVIDIA H100 SXM5 80GB needs CUDA 12.0 or newer"));
    Option known = GpuSizer.forTask(t).catalog(Fixtures.of(Fixtures.P5)).cudaVersion("12.4").recommend()
        .bestOrThrow();
    assertThat(known.warnings()).map(Warning::toString).noneMatch(w -> w.contains("needs CUDA"));
  }

  @Test
  void warns_that_datasheet_peaks_with_sparsity_are_twice_the_dense_rate_used() {
    Option o = GpuSizer.forTask(Fixtures.gpt2(1e8)).catalog(Fixtures.of(Fixtures.P5)).recommend().bestOrThrow();
    assertThat(o.warnings()).map(Warning::toString).anyMatch(w -> w.contains("dense BF16 peak of 989.4 TFLOPS")
        && w.contains("1978.8 with 2:4 structured sparsity"));
  }

  // ---------------------------------------------------------------- presets and the bundled catalog

  @Test
  void for_model_trains_an_image_preset_on_imagenet_for_90_epochs() {
    Option o = GpuSizer.forModel("resnet50").catalog(Fixtures.aws()).deadline(Duration.ofDays(7)).recommend()
        .bestOrThrow();
    Task t = o.estimate().task();
    assertThat(t.samples().orElseThrow()).isEqualTo(1_281_167.0 * 90);
    assertThat(t.imageSize()).isEqualTo(224);
    assertThat(t.precision()).isEqualTo(PrecisionMode.FP16_MIXED);
  }

  @Test
  void for_model_pretrains_a_transformer_preset_on_20_tokens_per_parameter() {
    Recommendation rec = GpuSizer.forModel("gpt2").catalog(Fixtures.aws()).recommend();
    Task t = rec.bestOrThrow().estimate().task();
    assertThat(t.tokens().orElseThrow()).isEqualTo(20.0 * 124_439_808);
    assertThat(t.sequenceLength()).isEqualTo(1024);
  }

  @Test
  void for_model_names_close_presets_for_a_misspelt_id_and_refuses_models_without_a_textbook_job() {
    assertThatThrownBy(() -> GpuSizer.forModel("resnet-5O")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resnet50");
    assertThatThrownBy(() -> GpuSizer.forModel("lstm-lm")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("describe the job with forTask(Task)");
  }

  @Test
  void sizes_a_job_on_the_bundled_catalog_by_default() {
    Recommendation rec = GpuSizer.forTask(LLAMA_FT).recommend();
    assertThat(rec.options()).isNotEmpty();
    assertThat(rec.bestOrThrow().offering()).isIn(Catalog.bundled().offerings());
  }

  // ---------------------------------------------------------------- determinism and threads

  @Test
  void gives_equal_recommendations_from_many_threads_sharing_one_sizer() throws Exception {
    Sizer shared = GpuSizer.forTask(LLAMA_FT).catalog(Fixtures.aws().merge(Fixtures.aistudio()))
        .deadline(Duration.ofDays(3)).allowSpot();
    Recommendation expected = shared.recommend();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Recommendation>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        results.add(pool.submit(shared::recommend));
      }
      for (Future<Recommendation> f : results) {
        assertThat(f.get()).isEqualTo(expected);
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void warnings_every_option_shares_are_given_once_and_the_rest_per_option() {
    // GIVEN the AIStudio 4090 machines: every option is a 4090, so the CUDA warning is everyone's
    Recommendation rec = GpuSizer.forTask(Fixtures.gpt2(500e6)).catalog(Fixtures.of(Fixtures.AISTUDIO_4090_1,
        Fixtures.AISTUDIO_4090_2, Fixtures.AISTUDIO_4090_4, Fixtures.AISTUDIO_4090_8)).currency("CNY")
        .deadline(Duration.ofDays(30)).recommend();
    assertThat(rec.options()).hasSizeGreaterThan(1);
    // THEN it is shared, each option still lists it, and shared + own = the option's warnings
    assertThat(rec.sharedWarnings()).map(Warning::code).contains("cuda-version");
    for (Option o : rec.options()) {
      assertThat(o.warnings()).containsAll(rec.sharedWarnings());
      assertThat(rec.ownWarnings(o)).doesNotContainAnyElementsOf(rec.sharedWarnings());
      assertThat(rec.ownWarnings(o).size() + rec.sharedWarnings().size()).isEqualTo(o.warnings().size());
    }
  }
}
