package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.gpusizer.core.task.ExecutionMode;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import org.junit.jupiter.api.Test;

/** The execution mode's overheads: host time, the kernel launch floor, and who manages the memory. */
class ExecutionModeTest {
  private static final Hardware A100 = Hardware.single(TestGpus.A100_SXM4_80GB);
  private static final Task DECODE = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).generatedTokens(200)
      .build();

  private static StepTime step(Task task, Hardware hardware) {
    return ComputeModel.step(new Job(task, hardware, Layout.single()));
  }

  private static Task in(Task task, ExecutionMode mode) {
    return task.toBuilder().executionMode(mode).build();
  }

  @Test
  void tasks_run_eagerly_unless_told_otherwise() {
    assertThat(DECODE.executionMode()).isEqualTo(ExecutionMode.EAGER);
    assertThat(Task.pretraining(TestModels.LLAMA2_7B).build().executionMode()).isEqualTo(ExecutionMode.EAGER);
  }

  @Test
  void compiled_decoding_is_faster_than_eager_by_exactly_the_host_time_it_removes() {
    // GIVEN Llama-2-7B decoding one sequence on an A100-80GB, eagerly and graph-captured
    StepTime eager = step(DECODE, A100);
    StepTime compiled = step(in(DECODE, ExecutionMode.COMPILED), A100);
    // THEN the GPU work is the same, the eager host wait is gone, and nothing else changed
    assertThat(eager.hostSeconds()).isGreaterThan(0.5 * eager.seconds());
    assertThat(compiled.hostSeconds()).isZero();
    assertThat(compiled.computeSeconds() + compiled.memorySeconds())
        .isCloseTo(eager.computeSeconds() + eager.memorySeconds(), within(1e-12));
    assertThat(eager.seconds() - compiled.seconds()).isCloseTo(eager.hostSeconds(), within(1e-12));
  }

  @Test
  void compiled_llama_decoding_lands_near_gpt_fasts_107_tokens_per_second_and_eager_near_25() {
    // GIVEN gpt-fast's Llama-2-7B on an A100-80GB: 25.5 tokens/s eager, 107 with torch.compile (PyTorch blog 2023)
    double eager = Estimator.defaults().estimate(DECODE, A100, Layout.single()).performance().tokensPerSecond();
    double compiled = Estimator.defaults().estimate(in(DECODE, ExecutionMode.COMPILED), A100, Layout.single())
        .performance().tokensPerSecond();
    // THEN the compiled estimate reads the weights at the bandwidth limit, about 4.7x the eager one
    assertThat(compiled).isBetween(100.0, 130.0);
    assertThat(eager).isBetween(20.0, 30.0);
  }

  @Test
  void a_serving_engine_decodes_as_fast_as_compiled_code() {
    StepTime compiled = step(in(DECODE, ExecutionMode.COMPILED), A100);
    StepTime engine = step(in(DECODE, ExecutionMode.SERVING_ENGINE), A100);
    assertThat(engine.seconds()).isEqualTo(compiled.seconds());
  }

  @Test
  void compiled_prefill_of_a_short_prompt_takes_less_time_than_eager_prefill() {
    // GIVEN only the prompt (time to first token): 16 tokens through 32 layers
    Task prefill = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).build();
    StepTime eager = step(prefill, A100);
    StepTime compiled = step(in(prefill, ExecutionMode.COMPILED), A100);
    // THEN eager waits 32 x 1.22 ms for the host; compiled does not
    assertThat(eager.seconds()).isGreaterThanOrEqualTo(32 * ComputeModel.HOST_SECONDS_PER_LAYER);
    assertThat(compiled.seconds()).isLessThan(eager.seconds() / 2);
  }

  @Test
  void eager_cnn_inference_at_batch_1_is_no_faster_than_dispatching_each_kernel_from_python() {
    // GIVEN ResNet-50 (174 kernels per forward pass) classifying one image on an A100
    Task one = Task.inference(TestModels.RESNET50).microBatch(1).precision(PrecisionMode.FP16_MIXED).build();
    StepTime eager = step(one, A100);
    // THEN the pass takes at least 174 x 20 us: under 290 images/s however fast the GPU is
    assertThat(TestModels.RESNET50.kernels()).isEqualTo(174);
    assertThat(eager.seconds()).isCloseTo(174 * ComputeModel.EAGER_SECONDS_PER_KERNEL, within(1e-9));
    assertThat(eager.hostSeconds()).isGreaterThan(0.9 * eager.seconds());
  }

  @Test
  void compiled_cnn_inference_at_batch_1_still_pays_the_device_launch_floor() {
    Task one = Task.inference(TestModels.RESNET50).microBatch(1).precision(PrecisionMode.FP16_MIXED)
        .executionMode(ExecutionMode.COMPILED).build();
    StepTime compiled = step(one, A100);
    assertThat(compiled.seconds()).isGreaterThanOrEqualTo(174 * ComputeModel.KERNEL_FLOOR_SECONDS - 1e-12);
    assertThat(compiled.seconds()).isLessThan(174 * ComputeModel.EAGER_SECONDS_PER_KERNEL);
  }

  @Test
  void the_launch_floor_leaves_large_batch_cnn_training_alone() {
    // GIVEN ResNet-50 training at batch 256, where every kernel runs far longer than its launch
    Task train = Task.pretraining(TestModels.RESNET50).microBatch(256).precision(PrecisionMode.FP16_MIXED).build();
    assertThat(step(train, A100).hostSeconds()).isZero();
  }

  @Test
  void eager_and_compiled_pytorch_hold_the_caching_allocators_share_a_serving_engine_its_own_pool() {
    // GIVEN Llama-2-7B serving a batch of 8 with 1024 + 512 tokens of context
    Task serve = Task.inference(TestModels.LLAMA2_7B).microBatch(8).sequenceLength(1024).generatedTokens(512)
        .build();
    MemoryBreakdown eager = MemoryModel.breakdown(new Job(serve, A100, Layout.single()));
    MemoryBreakdown compiled = MemoryModel.breakdown(new Job(in(serve, ExecutionMode.COMPILED), A100,
        Layout.single()));
    MemoryBreakdown engine = MemoryModel.breakdown(new Job(in(serve, ExecutionMode.SERVING_ENGINE), A100,
        Layout.single()));
    double allocated = eager.allocated().bytes();
    // THEN PyTorch: CUDA context + 15% of the allocated peak; the engine: context, paged-KV waste, 10% kept free
    assertThat((double) eager.overhead().bytes()).isCloseTo(MemoryModel.CUDA_CONTEXT_BYTES
        + MemoryModel.ALLOCATOR_CACHE_FRACTION * allocated, within(2.0));
    assertThat(compiled.overhead()).isEqualTo(eager.overhead());
    assertThat(engine.weights()).isEqualTo(eager.weights());
    assertThat(engine.kvCache()).isEqualTo(eager.kvCache());
    assertThat((double) engine.overhead().bytes()).isCloseTo(MemoryModel.CUDA_CONTEXT_BYTES
        + MemoryModel.PAGED_KV_WASTE_FRACTION * engine.kvCache().bytes()
        + (1 - MemoryModel.SERVING_MEMORY_UTILIZATION) * TestGpus.A100_SXM4_80GB.memory().bytes(), within(2.0));
  }
  @Test
  void a_serving_engine_prefills_a_token_budget_at_a_time_so_its_activation_peak_stops_growing_with_the_batch() {
    // GIVEN Llama-2-7B answering 1024-token prompts, eagerly and in a serving engine, 2 and 8 at a time
    Task two = Task.inference(TestModels.LLAMA2_7B).microBatch(2).sequenceLength(1024).generatedTokens(512).build();
    Task eight = two.toBuilder().microBatch(8).build();
    double logits8 = 4.0 * 8 * TestModels.LLAMA2_7B.vocab();
    // WHEN their working sets are estimated
    double eager2 = MemoryModel.inferenceWorkingSet(new Job(two, A100, Layout.single()));
    double engine2 = MemoryModel.inferenceWorkingSet(new Job(in(two, ExecutionMode.SERVING_ENGINE), A100,
        Layout.single()));
    double eager8 = MemoryModel.inferenceWorkingSet(new Job(eight, A100, Layout.single()));
    double engine8 = MemoryModel.inferenceWorkingSet(new Job(in(eight, ExecutionMode.SERVING_ENGINE), A100,
        Layout.single()));
    // THEN 2 × 1024 tokens fit the engine's 2048-token iteration and cost what eager code costs; 8 × 1024 are
    // prefilled a quarter at a time, while eager code holds them all (the logits stay per sequence)
    assertThat(MemoryModel.ENGINE_BATCHED_TOKENS).isEqualTo(2048);
    assertThat(engine2).isEqualTo(eager2);
    assertThat(engine8 - logits8).isCloseTo((eager8 - logits8) / 4, within(1.0));
  }

  @Test
  void a_serving_engines_band_widens_its_activations_and_context_not_the_weights_kv_cache_and_reserve_it_fixes() {
    // GIVEN Llama-3-70B in FP8 with an FP8 KV cache on one H100 80GB, 8 sequences of 1000 + 1000 tokens, eager
    // PyTorch and a serving engine
    Task eager = Task.inference((io.github.gpusizer.core.model.Transformer) io.github.gpusizer.core.model.Presets
        .get("llama-3-70b")).microBatch(8).sequenceLength(1000).generatedTokens(1000)
        .precision(PrecisionMode.FP8_MIXED).kvCache(io.github.gpusizer.catalog.Precision.FP8).build();
    Hardware h100 = Hardware.single(TestGpus.H100_SXM);
    MemoryEstimate torch = Estimator.defaults().memory(eager, h100, Layout.single());
    MemoryEstimate engine = Estimator.defaults().memory(in(eager, ExecutionMode.SERVING_ENGINE), h100,
        Layout.single());
    MemoryBreakdown b = engine.breakdown();
    // THEN the engine's exact part is its weights, KV cache and reserve (its overhead less the CUDA context), and
    // its interval is that plus the band's interval of the rest: it surely fits, about 2 GiB to spare
    long reserve = b.overhead().bytes() - MemoryModel.CUDA_CONTEXT_BYTES;
    assertThat(engine.exact().bytes()).isEqualTo(b.weights().bytes() + b.kvCache().bytes() + reserve);
    long rest = b.total().bytes() - engine.exact().bytes();
    assertThat((double) engine.perGpuInterval().high().bytes())
        .isCloseTo(engine.exact().bytes() + rest / engine.errorBand().lowRatio(), within(2.0));
    assertThat(engine.fit()).isEqualTo(Fit.FITS);
    // AND under PyTorch's caching allocator, whose reserve grows with all it holds, the band widens the whole peak:
    // 80 GiB nominal may reach some 95 GiB
    assertThat(torch.exact()).isEqualTo(io.github.gpusizer.catalog.DataSize.ZERO);
    assertThat(torch.perGpuInterval()).isEqualTo(torch.errorBand().ofPredicted(torch.perGpu()));
    assertThat(torch.fit()).isNotEqualTo(Fit.FITS);
  }

  @Test
  void a_tensorflow_graph_leaves_five_percent_of_the_free_memory_to_the_system_instead_of_a_caching_allocator() {
    // GIVEN BERT-large pre-training in FP32 with Adam on a 16 GiB V100, as eager PyTorch and as a TensorFlow graph
    // (tf.train's Adam: one fused ApplyAdam kernel per variable)
    Task torch = Task.pretraining(TestModels.BERT_LARGE_DLE).microBatch(8).sequenceLength(128)
        .precision(PrecisionMode.FP32).optimizer(Optimizer.ADAM).flashAttention(false).build();
    Task tensorflow = in(torch, ExecutionMode.TENSORFLOW_GRAPH);
    Hardware v100 = Hardware.single(TestGpus.V100_SXM2_16GB);
    // WHEN their memory is estimated
    MemoryBreakdown pt = Estimator.defaults().memory(torch, v100, Layout.single()).breakdown();
    MemoryBreakdown tf = Estimator.defaults().memory(tensorflow, v100, Layout.single()).breakdown();
    // THEN the tensors are the same, and TensorFlow's overhead is its CUDA context (700 MiB) plus max(300 MiB, 5% of
    // the free memory): 5% of (16384 - 700) MiB = 784.2 MiB (TensorFlow 1.x MinSystemMemory)
    assertThat(tf.allocated()).isEqualTo(pt.allocated());
    double context = 700 << 20;
    assertThat(pt.overhead().bytes()).isGreaterThan(1343L << 20);
    assertThat((double) tf.overhead().bytes()).isCloseTo(context + 0.05 * ((16L << 30) - context), within(1.0));
    assertThat(tensorflow.executionMode().usesPyTorchAllocator()).isFalse();
    assertThat(tensorflow.executionMode().launchesFromPython()).isFalse();
  }

  @Test
  void a_tensorflow_graph_holds_the_adamw_terms_that_read_only_variables_from_the_start_of_the_step() {
    // GIVEN BERT-large pre-training in FP32 on a V100 with BERT's AdamW written in TensorFlow operations, and with
    // tf.train's fused Adam; and the same two in eager PyTorch
    Task adam = Task.pretraining(TestModels.BERT_LARGE_DLE).microBatch(8).sequenceLength(128)
        .precision(PrecisionMode.FP32).optimizer(Optimizer.ADAM).flashAttention(false).build();
    Task adamw = adam.toBuilder().optimizer(Optimizer.ADAMW).build();
    Hardware v100 = Hardware.single(TestGpus.V100_SXM2_16GB);
    // WHEN their memory is estimated
    double graphAdam = allocated(in(adam, ExecutionMode.TENSORFLOW_GRAPH), v100);
    double graphAdamw = allocated(in(adamw, ExecutionMode.TENSORFLOW_GRAPH), v100);
    // THEN the graph's AdamW holds beta1*m, beta2*v and weight_decay*theta, 12 bytes per parameter, beyond the
    // fused Adam (the executor runs them as soon as the variables are read); eager PyTorch holds no such terms
    assertThat(graphAdamw - graphAdam).isCloseTo(12.0 * TestModels.BERT_LARGE_DLE.parameters(), within(4.0));
    assertThat(allocated(adamw, v100)).isEqualTo(allocated(adam, v100));
  }

  private static double allocated(Task task, Hardware hardware) {
    return Estimator.defaults().memory(task, hardware, Layout.single()).breakdown().allocated().bytes();
  }

  @Test
  void a_tensorflow_graph_reserves_at_least_300_mib_on_a_small_card() {
    // GIVEN a 16 GiB card whose free memory is small once a (caller-given) 12 GiB context is counted
    Task tensorflow = in(Task.pretraining(TestModels.BERT_LARGE_DLE).microBatch(1).sequenceLength(128)
        .precision(PrecisionMode.FP32).flashAttention(false).build(), ExecutionMode.TENSORFLOW_GRAPH);
    Job job = new Job(tensorflow, Hardware.single(TestGpus.V100_SXM2_16GB), Layout.single(),
        Tuning.DEFAULTS.withCudaContextBytes(12L << 30));
    // THEN 5% of the 4 GiB left (204.8 MiB) is below the floor, and the floor of 300 MiB is reserved
    assertThat(MemoryModel.tensorFlowSystemReserve(job)).isEqualTo(300.0 * (1 << 20));
  }
}
