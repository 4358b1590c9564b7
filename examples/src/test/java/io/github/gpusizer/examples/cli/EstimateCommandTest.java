package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class EstimateCommandTest {
  private static final String[] LORA = {"estimate", "--model", "llama-2-7b", "--task", "lora", "--gpu", "h100",
      "--seq", "512", "--tokens", "50M"};

  private static String[] with(String[] base, String... more) {
    String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  @Test
  void without_micro_batch_it_takes_the_largest_that_fits_as_recommend_does_and_says_so() {
    // GIVEN ResNet-50 on ImageNet for 90 epochs on 8 V100s, the micro-batch left open or set to 1
    String[] job = {"estimate", "--gpu", "v100-sxm2-16gb", "--gpus", "8", "--model", "resnet50", "--dataset",
        "imagenet", "--epochs", "90"};
    JsonNode open = Cli.run(with(job, "--format", "json")).json();
    JsonNode one = Cli.run(with(job, "--micro-batch", "1", "--format", "json")).json();
    Cli.Run table = Cli.run(job);
    // THEN the open one runs a larger micro-batch, in less time, and the table says it chose it
    int mb = open.at("/task/microBatch").asInt();
    assertThat(mb).isGreaterThan(1);
    assertThat(one.at("/task/microBatch").asInt()).isEqualTo(1);
    assertThat(open.at("/time/totalSeconds").asDouble()).isLessThan(one.at("/time/totalSeconds").asDouble() / 2);
    assertThat(table.exit()).as(table.err()).isZero();
    assertThat(table.out()).contains("micro-batch " + mb + ", the largest that fits; give --micro-batch to fix it");
    assertThat(Cli.run(with(job, "--micro-batch", "1")).out()).doesNotContain("the largest that fits");
  }

  @Test
  void json_reports_model_memory_throughput_flops_and_time() {
    Cli.Run run = Cli.run(with(LORA, "--format", "json"));
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode e = run.json();
    // Llama-2-7B: 6,738,415,616 parameters; LoRA r=8 on q and v: 32 layers x 2 x 8 x (4096 + 4096) = 4,194,304
    assertThat(e.at("/model/parameters").asLong()).isEqualTo(6_738_415_616L);
    assertThat(e.at("/model/trainableParameters").asLong()).isEqualTo(4_194_304L);
    JsonNode memory = e.get("memory");
    long sum = 0;
    for (String part : List.of("weights", "gradients", "optimizer", "activations", "kvCache", "temporary")) {
      sum += memory.at("/breakdown/" + part).asLong();
    }
    assertThat(memory.get("allocatedBytes").asLong()).isEqualTo(sum);
    assertThat(memory.get("perGpuBytes").asLong()).isEqualTo(sum + memory.at("/breakdown/overhead").asLong());
    assertThat(memory.get("fits").asBoolean()).isTrue();
    double samples = e.at("/throughput/samplesPerSecond").asDouble();
    assertThat(e.at("/throughput/tokensPerSecond").asDouble()).isCloseTo(samples * 512, within(samples * 512 * 1e-4));
    assertThat(e.at("/flops/mfu").asDouble()).isBetween(0.0, 1.0);
    assertThat(e.at("/flops/achievedTflopsPerGpu").asDouble()).isPositive();
    assertThat(e.at("/flops/perStep").asDouble()).isPositive();
    double total = e.at("/time/totalSeconds").asDouble();
    assertThat(total).isCloseTo(50e6 / e.at("/throughput/tokensPerSecond").asDouble(), within(total * 0.01));
    assertThat(e.get("bottleneck").asText()).isIn("COMPUTE", "MEMORY_BANDWIDTH", "COMMUNICATION", "CPU_INPUT",
        "DISK_INPUT");
    assertThat(e.at("/host/cpuCores").asInt()).isPositive();
  }

  @Test
  void engine_compiled_decodes_faster_than_the_eager_default_and_is_reported() {
    String[] decode = {"estimate", "--model", "llama-2-7b", "--task", "infer", "--gpu", "a100-80gb", "--prompt", "16",
        "--generate", "200", "--format", "json"};
    JsonNode eager = Cli.run(decode).json();
    JsonNode compiled = Cli.run(with(decode, "--engine", "compiled")).json();
    assertThat(eager.at("/task/executionMode").asText()).isEqualTo("EAGER");
    assertThat(compiled.at("/task/executionMode").asText()).isEqualTo("COMPILED");
    // gpt-fast: 25.5 tokens/s eager, 107 compiled on an A100-80GB
    assertThat(compiled.at("/throughput/tokensPerSecond").asDouble())
        .isGreaterThan(3 * eager.at("/throughput/tokensPerSecond").asDouble());
  }

  @Test
  void a_gpu_without_bf16_runs_the_best_precision_it_has_as_recommend_does_unless_one_is_chosen() {
    // GIVEN BERT-base fine-tuning on a V100 (Volta: FP16 tensor cores, no BF16) with no precision chosen
    String[] v100 = {"estimate", "--model", "bert-base", "--task", "finetune", "--tokens", "10M", "--gpu",
        "v100-sxm2-16gb"};
    // WHEN estimated, THEN it runs in FP16 mixed precision, as recommend sizes it, and says so
    Cli.Run run = Cli.run(with(v100, "--format", "json"));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.json().at("/task/precision").asText()).isEqualTo("FP16_MIXED");
    assertThat(Cli.run(v100).out()).contains("runs in FP16_MIXED on the Tesla V100-SXM2-16GB, which has no BF16");
    // and BF16 chosen outright is still refused, with the reason
    Cli.Run bf16 = Cli.run(with(v100, "--precision", "bf16"));
    assertThat(bf16.exit()).isNotZero();
    assertThat(bf16.err()).contains("BF16 needs compute capability 8.0");
  }

  @Test
  void engine_serving_is_refused_for_training() {
    Cli.Run run = Cli.run(with(LORA, "--engine", "serving"));
    assertThat(run.exit()).isNotZero();
    assertThat(run.err()).contains("--engine serving applies only to --task infer");
  }

  @Test
  void inter_node_bandwidth_defaults_to_the_gpu_class_and_can_be_given() {
    String[] twoNodes = {"estimate", "--model", "gpt2", "--gpu", "h100", "--gpus", "16", "--nodes", "2",
        "--format", "json"};
    assertThat(Cli.run(twoNodes).json().at("/hardware/interNodeGbps").asDouble()).isEqualTo(3200);
    assertThat(Cli.run(with(twoNodes, "--inter-node-gbps", "400")).json().at("/hardware/interNodeGbps").asDouble())
        .isEqualTo(400);
  }

  @Test
  void nodes_joined_by_plain_ethernet_are_slower_than_by_a_cluster_fabric_of_the_same_bandwidth() {
    String[] fsdp = {"estimate", "--model", "llama-2-7b", "--gpu", "a100", "--gpus", "16", "--nodes", "2", "--zero",
        "3", "--micro-batch", "2", "--global-batch", "64", "--seq", "4096", "--inter-node-gbps", "100", "--format",
        "json"};
    double rdma = Cli.run(fsdp).json().at("/time/stepSeconds").asDouble();
    double tcp = Cli.run(with(fsdp, "--fabric", "ethernet")).json().at("/time/stepSeconds").asDouble();
    assertThat(Cli.run(with(fsdp, "--fabric", "cluster")).json().at("/time/stepSeconds").asDouble())
        .isEqualTo(rdma);
    assertThat(tcp).isGreaterThan(rdma);
    Cli.Run wrong = Cli.run(with(fsdp, "--fabric", "ethernt"));
    assertThat(wrong.exit()).isEqualTo(2);
    assertThat(wrong.err()).contains("--fabric must be one of cluster, ethernet, standalone")
        .contains("was 'ethernt'; did you mean: ethernet?");
    assertThat(Cli.run(with(fsdp, "--fabric", "standalone")).err()).contains("never joined");
  }

  @Test
  void a_chunked_or_fused_loss_holds_fewer_logits_than_the_materialized_default() {
    String[] lora = {"estimate", "--model", "llama-3-8b", "--task", "lora", "--gpu", "rtx-4090", "--micro-batch", "2",
        "--seq", "2048", "--checkpointing", "full", "--format", "json"};
    double materialized = Cli.run(lora).json().at("/memory/allocatedBytes").asDouble();
    double chunked = Cli.run(with(lora, "--loss", "chunked")).json().at("/memory/allocatedBytes").asDouble();
    double fused = Cli.run(with(lora, "--loss", "fused")).json().at("/memory/allocatedBytes").asDouble();
    assertThat(fused).isLessThan(chunked);
    assertThat(chunked).isLessThan(materialized - 5e9); // 2 x 2048 tokens x 128,256 logits x 10.5 bytes fewer
    Cli.Run wrong = Cli.run(with(lora, "--loss", "chunkd"));
    assertThat(wrong.exit()).isEqualTo(2);
    assertThat(wrong.err()).contains("--loss");
  }

  @Test
  void without_an_amount_of_work_total_time_is_null() {
    JsonNode e = Cli.run("estimate", "--model", "gpt2", "--gpu", "a100", "--format", "json").json();
    assertThat(e.at("/time/totalSeconds").isNull()).isTrue();
    assertThat(e.at("/time/stepSeconds").asDouble()).isPositive();
  }

  @Test
  void a_known_data_set_gives_the_samples_per_epoch_and_sizes_the_disk() {
    JsonNode e = Cli.run("estimate", "--model", "resnet50", "--gpu", "a100", "--micro-batch", "256",
        "--dataset", "imagenet-1k", "--epochs", "90", "--format", "json").json();
    assertThat(e.at("/task/samples").asDouble()).isEqualTo(1_281_167.0 * 90);
    assertThat(e.at("/host/diskBytes").asLong()).isGreaterThan(138_000_000_000L);
    assertThat(e.at("/time/totalSeconds").asDouble()).isPositive();
  }

  @Test
  void image_models_have_no_tokens_per_second() {
    JsonNode e = Cli.run("estimate", "--model", "resnet50", "--gpu", "a100", "--micro-batch", "64", "--format", "json")
        .json();
    assertThat(e.at("/throughput/tokensPerSecond").isNull()).isTrue();
    assertThat(e.at("/task/imageSize").asInt()).isEqualTo(224);
  }

  @Test
  void more_gpus_with_zero_3_need_less_memory_per_gpu() {
    long one = Cli.run("estimate", "--model", "llama-2-7b", "--gpu", "a100-80gb", "--zero", "3", "--gpus", "2",
        "--format", "json").json().at("/memory/perGpuBytes").asLong();
    long eight = Cli.run("estimate", "--model", "llama-2-7b", "--gpu", "a100-80gb", "--zero", "3", "--gpus", "8",
        "--format", "json").json().at("/memory/perGpuBytes").asLong();
    assertThat(eight).isLessThan(one);
  }

  @Test
  void json_gives_memory_time_and_rates_with_their_intervals() {
    // GIVEN LoRA on an H100 with 50M tokens WHEN estimated as JSON
    JsonNode json = Cli.run(with(LORA, "--format", "json")).json();
    // THEN every figure has a low and a high end around it, and the verdict is spelt out
    JsonNode memory = json.get("memory");
    assertThat(memory.get("perGpuBytesLow").asLong()).isLessThanOrEqualTo(memory.get("perGpuBytes").asLong());
    assertThat(memory.get("perGpuBytesHigh").asLong()).isGreaterThan(memory.get("perGpuBytes").asLong());
    assertThat(memory.get("fit").asText()).isEqualTo("fits");
    assertThat(memory.get("errorBand").asText()).contains("LoRA/QLoRA fine-tuning");
    JsonNode time = json.get("time");
    assertThat(time.get("totalSecondsLow").asDouble()).isLessThan(time.get("totalSeconds").asDouble());
    assertThat(time.get("totalSecondsHigh").asDouble()).isGreaterThan(time.get("totalSeconds").asDouble());
    assertThat(time.get("stepSecondsHigh").asDouble() / time.get("stepSeconds").asDouble())
        .isCloseTo(time.get("totalSecondsHigh").asDouble() / time.get("totalSeconds").asDouble(),
            within(1e-4)); // both are the band's p90 ratio; the JSON keeps six significant digits
    JsonNode rates = json.get("throughput");
    assertThat(rates.get("tokensPerSecondLow").asDouble()).isLessThan(rates.get("tokensPerSecond").asDouble());
    assertThat(rates.get("tokensPerSecondHigh").asDouble()).isGreaterThan(rates.get("tokensPerSecond").asDouble());
  }

  @Test
  void table_shows_the_total_time_with_its_interval_and_where_the_interval_comes_from() {
    String out = Cli.run(LORA).out();
    assertThat(out).containsPattern("total time +\\d+\\.\\d (h|min) \\(\\d+\\.\\d–\\d+\\.\\d (h|min)\\)");
    assertThat(out).contains("time and rate intervals: p10–p90 of predicted/measured over ");
  }

  @Test
  void peak_near_the_capacity_may_not_fit_and_says_so_but_still_exits_zero() {
    // GIVEN Llama-2-7B LoRA at sequence 1280 on a 24 GiB RTX 4090: about 22.7 GiB nominal, within 10% of the capacity
    String[] tight = {"estimate", "--model", "llama-2-7b", "--task", "lora", "--gpu", "rtx4090", "--seq", "1280"};
    // WHEN estimated
    Cli.Run json = Cli.run(with(tight, "--format", "json"));
    Cli.Run table = Cli.run(tight);
    // THEN the nominal peak fits but the interval reaches past the capacity: a risk, named in the warnings
    assertThat(json.exit()).as(json.err()).isZero();
    JsonNode memory = json.json().get("memory");
    assertThat(memory.get("fits").asBoolean()).isTrue();
    assertThat(memory.get("fit").asText()).isEqualTo("may not fit");
    assertThat(memory.get("perGpuBytesHigh").asLong()).isGreaterThan(memory.get("capacityBytes").asLong());
    assertThat(json.json().get("warnings").toString()).contains("may not fit: needs ");
    assertThat(table.out()).contains("MAY NOT FIT: needs ");
  }

  @Test
  void peak_just_past_the_capacity_may_not_fit_and_exits_one_saying_it_probably_does_not() {
    // GIVEN Llama-2-7B LoRA at sequence 2560 without recomputation on a 24 GiB RTX 4090: about 26.6 GiB nominal,
    // the interval's low end (about 23.2 GiB) within the card
    String[] over = {"estimate", "--model", "llama-2-7b", "--task", "lora", "--gpu", "rtx4090", "--seq", "2560",
        "--micro-batch", "1", "--checkpointing", "none"};
    Cli.Run json = Cli.run(with(over, "--format", "json"));
    Cli.Run table = Cli.run(over);
    // THEN the verdict is "may not fit" (the interval straddles the card), yet no plan is made on a nominal peak past
    // it: exit 1, saying it probably does not fit and what would
    JsonNode memory = json.json().get("memory");
    assertThat(memory.get("fits").asBoolean()).isFalse();
    assertThat(memory.get("fit").asText()).isEqualTo("may not fit");
    assertThat(memory.get("perGpuBytesLow").asLong()).isLessThan(memory.get("capacityBytes").asLong());
    assertThat(table.exit()).isEqualTo(1);
    assertThat(table.out()).contains("MAY NOT FIT: needs ");
    assertThat(table.err()).contains("the task probably does not fit (it may, if the estimate is high)")
        .contains("--checkpointing full");
  }

  @Test
  void table_shows_both_memory_figures_and_the_bottleneck() {
    Cli.Run run = Cli.run(LORA);
    assertThat(run.exit()).isZero();
    assertThat(run.out()).contains("allocated (torch max_memory_allocated)", "total (as nvidia-smi shows)",
        "tokens/s", "MFU", "bottleneck", "fits");
  }

  @Test
  void csv_is_one_row_with_dotted_columns() {
    List<String> lines = Cli.run(with(LORA, "--format", "csv")).out().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).contains("model.parameters", "memory.perGpuBytes", "memory.breakdown.weights",
        "throughput.tokensPerSecond", "flops.mfu", "time.totalSeconds", "bottleneck");
    assertThat(lines.get(1)).contains("6738415616");
  }

  @Test
  void custom_transformer_counts_like_the_preset() {
    long preset = Cli.run("estimate", "--model", "llama-2-7b", "--gpu", "h100", "--format", "json").json()
        .at("/model/parameters").asLong();
    long custom = Cli.run("estimate", "--transformer", "layers=32,hidden=4096,heads=32", "--gpu", "h100",
        "--format", "json").json().at("/model/parameters").asLong();
    assertThat(custom).isEqualTo(preset);
  }

  @Test
  void a_task_that_does_not_fit_prints_the_estimate_and_exits_1_with_advice() {
    Cli.Run run = Cli.run("estimate", "--model", "llama-2-7b", "--gpu", "rtx4090", "--format", "json");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.json().at("/memory/fits").asBoolean()).isFalse();
    assertThat(run.err()).contains("does not fit", "GeForce RTX 4090");
  }

  @Test
  void advice_names_a_micro_batch_that_fits() {
    Cli.Run run = Cli.run("estimate", "--model", "gpt2", "--gpu", "t4", "--precision", "fp16", "--seq", "1024",
        "--micro-batch", "256");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).containsPattern("--micro-batch \\d+");
  }

  @Test
  void inference_options_set_prompt_and_generated_tokens() {
    JsonNode e = Cli.run("estimate", "--model", "llama-2-7b", "--task", "infer", "--gpu", "a100-80gb", "--prompt",
        "512", "--generate", "256", "--micro-batch", "8", "--format", "json").json();
    assertThat(e.at("/task/sequenceLength").asInt()).isEqualTo(512);
    assertThat(e.at("/task/generatedTokens").asInt()).isEqualTo(256);
    assertThat(e.at("/memory/breakdown/kvCache").asLong()).isPositive();
    assertThat(e.at("/model/trainableParameters").asLong()).isZero();
  }

  @Test
  void a_shard_group_holds_more_per_gpu_than_sharding_over_all_ranks_and_says_so() {
    // GIVEN FSDP of Llama-2-7B over 16 A100s on two nodes, fully sharded and sharded within each node (HSDP)
    String[] fsdp = {"estimate", "--model", "llama-2-7b", "--gpu", "a100-80gb", "--zero", "3", "--gpus", "16",
        "--nodes", "2", "--tokens", "10M", "--micro-batch", "1", "--format", "json"};
    JsonNode full = Cli.run(fsdp).json();
    JsonNode hybrid = Cli.run(with(fsdp, "--shard-group", "8")).json();

    // THEN the hybrid layout holds twice the shards' share per GPU, and its description names the groups
    assertThat(hybrid.at("/memory/perGpuBytes").asLong()).isGreaterThan(full.at("/memory/perGpuBytes").asLong());
    assertThat(hybrid.at("/layout/description").asText()).contains("shard groups of 8");
    Cli.Run ddp = Cli.run("estimate", "--model", "gpt2", "--gpu", "a100", "--gpus", "8", "--shard-group", "4");
    assertThat(ddp.exit()).isEqualTo(2);
    assertThat(ddp.err()).contains("--shard-group needs --zero");
  }

  @Test
  void context_parallelism_splits_each_sequence_and_its_activations_over_the_gpus() {
    // GIVEN Llama-2-7B at 4096 tokens on 8 A100s: data-parallel, and each sequence split over 4 GPUs (--cp 4)
    String[] fsdp = {"estimate", "--model", "llama-2-7b", "--gpu", "a100-80gb", "--zero", "3", "--gpus", "8",
        "--seq", "4096", "--micro-batch", "1", "--tokens", "10M", "--format", "json"};
    Cli.Run plain = Cli.run(fsdp);
    Cli.Run split = Cli.run(with(fsdp, "--cp", "4"));
    Cli.Run longName = Cli.run(with(fsdp, "--context-parallel", "4"));

    // THEN the layout says so, and a GPU holds a quarter of the activations
    assertThat(activations(split) * 4).isCloseTo(activations(plain), org.assertj.core.api.Assertions.within(8L));
    assertThat(split.json().at("/layout/contextParallel").asInt()).isEqualTo(4);
    assertThat(split.json().at("/layout/dataParallel").asInt()).isEqualTo(2);
    assertThat(split.json().at("/layout/description").asText()).contains("CP 4");
    assertThat(plain.json().at("/layout/contextParallel").asInt()).isEqualTo(1);
    assertThat(longName.json().at("/memory/perGpuBytes")).isEqualTo(split.json().at("/memory/perGpuBytes"));
    Cli.Run odd = Cli.run(with(fsdp, "--cp", "3"));
    assertThat(odd.exit()).isEqualTo(2);
    assertThat(odd.err()).contains("--gpus (8) must be a multiple of --tp x --pp x --cp (1 x 1 x 3)");
  }

  @Test
  void interleaved_stages_shrink_the_pipeline_bubble() {
    String[] pipeline = {"estimate", "--model", "llama-2-13b", "--gpu", "a100-80gb", "--pp", "4", "--gpus", "8",
        "--zero", "1", "--global-batch", "64", "--micro-batch", "1", "--tokens", "100M", "--format", "json"};
    double plain = Cli.run(pipeline).json().at("/time/stepSeconds").asDouble();
    double interleaved = Cli.run(with(pipeline, "--virtual-stages", "2")).json().at("/time/stepSeconds")
        .asDouble();
    assertThat(interleaved).isLessThan(plain);
  }

  @Test
  void the_attention_kernel_and_dropout_change_activation_memory() {
    // GIVEN BERT-large training at sequence 512 without and with the kernels that keep the scores
    String[] bert = {"estimate", "--model", "bert-large", "--gpu", "v100-32gb", "--task", "finetune", "--seq",
        "512", "--micro-batch", "4", "--precision", "fp16", "--format", "json"};
    long flash = activations(Cli.run(bert));
    long fused = activations(Cli.run(with(bert, "--attention", "fused-softmax")));
    long eager = activations(Cli.run(with(bert, "--attention", "eager")));
    long tensorflow = activations(Cli.run(with(bert, "--attention", "eager", "--dropout", "tensorflow")));

    // THEN stored scores cost memory, kept in FP32 more than in 16 bits, and TensorFlow's dropout more again
    assertThat(fused).isGreaterThan(flash);
    assertThat(eager).isGreaterThan(fused);
    assertThat(tensorflow).isGreaterThan(eager);
    Cli.Run both = Cli.run(with(bert, "--attention", "eager", "--flash-attention", "off"));
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.err()).contains("--attention or --flash-attention");
  }

  private static long activations(Cli.Run run) {
    assertThat(run.exit()).as(run.err()).isZero();
    return run.json().at("/memory/breakdown/activations").asLong();
  }

  @Test
  void an_inference_that_does_not_fit_is_offered_tensor_parallelism_or_quantisation_never_zero() {
    // GIVEN Llama-2-70B in BF16 on one 40 GB A100 (140 GB of weights)
    Cli.Run run = Cli.run("estimate", "--model", "llama-2-70b", "--task", "infer", "--gpu", "a100-40gb", "--prompt",
        "512", "--generate", "128");
    // THEN it exits 1 with a remedy that fits inference, and says nothing of ZeRO
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).contains("does not fit").contains("each of these would fit: --tp 4 --gpus 4")
        .doesNotContain("--zero");
  }
}
