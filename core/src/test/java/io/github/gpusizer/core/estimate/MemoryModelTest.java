package io.github.gpusizer.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.gpusizer.core.model.Generic;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.LoraTarget;
import io.github.gpusizer.core.task.LossKernel;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import io.github.gpusizer.core.task.WeightQuantization;
import io.github.gpusizer.core.task.ZeroStage;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class MemoryModelTest {
  private static final Estimator ESTIMATOR = Estimator.defaults();
  /** A billion parameters and no activations: the training state alone. */
  private static final Generic BILLION = new Generic("state-only", 1_000_000_000L, 1e9, 0);
  private static final Hardware A100 = Hardware.single(TestGpus.A100_SXM4_80GB);

  @Test
  void lora_rank_8_on_query_and_value_of_llama_2_7b_trains_4_194_304_parameters() {
    // GIVEN Llama-2-7B with LoRA rank 8 on Q and V (the LoRA paper's choice, LitGPT's resource table)
    Transformer llama = TestModels.LLAMA2_7B;
    // WHEN the adapter parameters are counted
    long adapters = LoraTarget.adapterParameters(llama, 8, EnumSet.of(LoraTarget.Q, LoraTarget.V));
    // THEN 32 layers × 2 matrices × 8 × (4096 + 4096)
    assertThat(adapters).isEqualTo(4_194_304L);
  }

  @Test
  void mixed_precision_adamw_keeps_16_bytes_per_parameter_and_a_foreach_scratch_at_the_optimizer_step() {
    // GIVEN a one-billion-parameter model trained with BF16 autocast and AdamW
    Task task = Task.pretraining(BILLION).precision(PrecisionMode.BF16_MIXED).optimizer(Optimizer.ADAMW).build();
    // WHEN its memory is estimated
    MemoryBreakdown b = ESTIMATOR.memory(task, A100, Layout.single()).breakdown();
    // THEN FP32 weights 4 + FP32 gradients 4 + two FP32 moments 8 bytes per parameter, plus foreach Adam's sqrt(v)
    assertThat(b.weights().bytes()).isEqualTo(4_000_000_000L);
    assertThat(b.gradients().bytes()).isEqualTo(4_000_000_000L);
    assertThat(b.optimizer().bytes()).isEqualTo(8_000_000_000L);
    assertThat(b.temporary().bytes()).isEqualTo(4_000_000_000L);
    assertThat(b.activations().bytes()).isZero();
  }

  @Test
  void pure_bf16_keeps_weights_gradients_and_moments_in_two_bytes_each() {
    Task task = Task.pretraining(BILLION).precision(PrecisionMode.BF16_PURE).optimizer(Optimizer.ADAMW).build();
    MemoryBreakdown b = ESTIMATOR.memory(task, A100, Layout.single()).breakdown();
    assertThat(b.weights().bytes() + b.gradients().bytes() + b.optimizer().bytes()).isEqualTo(8_000_000_000L);
  }

  @Test
  void eight_bit_adam_keeps_two_bytes_of_state_plus_block_constants() {
    Task task = Task.pretraining(BILLION).precision(PrecisionMode.BF16_MIXED).optimizer(Optimizer.ADAM_8BIT)
        .build();
    MemoryBreakdown b = ESTIMATOR.memory(task, A100, Layout.single()).breakdown();
    assertThat(b.optimizer().bytes()).isEqualTo(Math.round(1e9 * 2 * (1 + 4.0 / 2048)));
  }

  @Test
  void sgd_keeps_no_optimizer_state_and_momentum_one_buffer() {
    Task sgd = Task.pretraining(BILLION).precision(PrecisionMode.FP32).optimizer(Optimizer.SGD).build();
    Task momentum = sgd.toBuilder().optimizer(Optimizer.SGD_MOMENTUM).build();
    assertThat(ESTIMATOR.memory(sgd, A100, Layout.single()).breakdown().optimizer().bytes()).isZero();
    assertThat(ESTIMATOR.memory(momentum, A100, Layout.single()).breakdown().optimizer().bytes())
        .isEqualTo(4_000_000_000L);
  }

  @Test
  void zero_stages_shard_optimizer_then_gradients_then_weights_over_data_parallel_ranks() {
    // GIVEN gradient accumulation (2 micro-batches per step), so gradients live through the forward pass
    Task task = Task.pretraining(BILLION).precision(PrecisionMode.BF16_MIXED).optimizer(Optimizer.SGD_MOMENTUM)
        .globalBatch(16).build();
    Hardware eight = Hardware.of(TestGpus.A100_SXM4_80GB, 8, 1);
    Layout ddp = Layout.dataParallel(8);
    MemoryBreakdown none = ESTIMATOR.memory(task, eight, ddp).breakdown();
    MemoryBreakdown one = ESTIMATOR.memory(task, eight, ddp.withZero(ZeroStage.STAGE_1)).breakdown();
    MemoryBreakdown two = ESTIMATOR.memory(task, eight, ddp.withZero(ZeroStage.STAGE_2)).breakdown();
    MemoryBreakdown three = ESTIMATOR.memory(task, eight, ddp.withZero(ZeroStage.STAGE_3)).breakdown();
    assertThat(none.optimizer().bytes()).isEqualTo(4_000_000_000L);
    assertThat(one.optimizer().bytes()).isEqualTo(500_000_000L);
    assertThat(two.gradients().bytes()).isEqualTo(500_000_000L);
    assertThat(three.weights().bytes()).isEqualTo(500_000_000L);
    assertThat(none.total()).isGreaterThan(one.total());
    assertThat(one.total()).isGreaterThan(two.total());
    assertThat(two.total()).isGreaterThan(three.total());
  }

  @Test
  void ddp_keeps_a_second_copy_of_the_gradients_in_its_buckets() {
    Task task = Task.pretraining(BILLION).precision(PrecisionMode.FP32).optimizer(Optimizer.SGD).build();
    MemoryBreakdown single = ESTIMATOR.memory(task, A100, Layout.single()).breakdown();
    MemoryBreakdown ddp = ESTIMATOR.memory(task, Hardware.of(TestGpus.A100_SXM4_80GB, 2, 1), Layout.dataParallel(2))
        .breakdown();
    assertThat(ddp.temporary().bytes() - single.temporary().bytes()).isEqualTo(4_000_000_000L);
  }

  @Test
  void a_gpt_layer_saves_34_plus_5as_over_h_bytes_per_token_as_korthikanti_et_al_give() {
    // GIVEN a GPT-style layer: MHA, LayerNorm, FFN 4h, dropout, no FlashAttention, all weights trained, everything
    // in 16-bit (Megatron's fused LayerNorm keeps 16-bit inputs; autocast would save FP32 copies instead)
    Transformer gpt = TestModels.GPT_1_7B;
    int s = 2048;
    Task task = Task.pretraining(gpt).sequenceLength(s).precision(PrecisionMode.BF16_PURE).flashAttention(false)
        .build();
    Job job = new Job(task, A100, Layout.single());
    // WHEN one layer's saved bytes per token are computed
    double bytes = MemoryModel.layerBytesPerToken(job, gpt, true);
    // THEN they are h (34 + 5 a s / h) (Korthikanti et al. 2022, eq. 1, per token)
    double h = gpt.hidden();
    double a = gpt.heads();
    assertThat(bytes).isCloseTo(h * (34 + 5 * a * s / h), within(1e-6));
  }

  @Test
  void flash_attention_and_selective_recomputation_drop_the_attention_score_term() {
    Transformer gpt = TestModels.GPT_1_7B;
    Task eager = Task.pretraining(gpt).sequenceLength(2048).precision(PrecisionMode.BF16_PURE)
        .flashAttention(false).build();
    Task selective = eager.toBuilder().checkpointing(Checkpointing.SELECTIVE).build();
    Task flash = eager.toBuilder().flashAttention(true).build();
    double eagerBytes = MemoryModel.trainingActivations(new Job(eager, A100, Layout.single()));
    double selectiveBytes = MemoryModel.trainingActivations(new Job(selective, A100, Layout.single()));
    double flashBytes = MemoryModel.trainingActivations(new Job(flash, A100, Layout.single()));
    double h = gpt.hidden();
    double perLayerTokens = 2048.0 * gpt.totalLayers();
    assertThat(eagerBytes - selectiveBytes).isCloseTo(perLayerTokens * 5 * gpt.heads() * 2048, within(1.0));
    assertThat(flashBytes).isLessThan(eagerBytes / 3);
    assertThat(flashBytes).isGreaterThan(perLayerTokens * 34 * h);
  }

  @Test
  void full_recomputation_keeps_only_each_layers_input_plus_one_layer() {
    Transformer gpt = TestModels.GPT_1_7B;
    Task full = Task.pretraining(gpt).sequenceLength(2048).precision(PrecisionMode.FP16_MIXED)
        .checkpointing(Checkpointing.FULL).flashAttention(true).build();
    Job job = new Job(full, A100, Layout.single());
    double tokens = 2048;
    double expected = gpt.totalLayers() * tokens * 2 * gpt.hidden()
        + tokens * MemoryModel.layerBytesPerToken(job, gpt, true)
        + MemoryModel.lossBuffer(job, gpt.vocab(), true);
    assertThat(MemoryModel.trainingActivations(job)).isCloseTo(expected, within(1.0));
  }

  @Test
  void kv_cache_of_llama_2_7b_at_4096_tokens_in_bf16_is_2_gib() {
    // 2 (K and V) × 32 layers × 32 heads × 128 dims × 4096 tokens × 1 sequence × 2 bytes
    Task task = Task.inference(TestModels.LLAMA2_7B).sequenceLength(4000).generatedTokens(96).build();
    MemoryBreakdown b = ESTIMATOR.memory(task, A100, Layout.single()).breakdown();
    assertThat(b.kvCache().bytes()).isEqualTo(2L << 30);
  }

  @Test
  void encoder_only_inference_keeps_no_kv_cache() {
    // GIVEN BERT-large classifying a batch of 32 sequences of 512 tokens (even if asked to "generate")
    Task task = Task.inference(TestModels.BERT_LARGE).microBatch(32).sequenceLength(512).generatedTokens(16)
        .build();
    Estimate e = ESTIMATOR.estimate(task, A100, Layout.single());
    // THEN one bidirectional pass: no key/value cache, and a warning that nothing is generated
    assertThat(e.memory().breakdown().kvCache().bytes()).isZero();
    assertThat(e.warnings()).map(Warning::toString).anyMatch(w -> w.contains("encoder-only"));
  }

  @Test
  void encoder_decoder_inference_caches_keys_and_values_in_the_decoder_layers_only() {
    // GIVEN T0-3B (24 encoder + 24 decoder layers, 32 heads of 64) with 256 prompt and 64 generated tokens
    Task task = Task.inference(TestModels.T0_3B).sequenceLength(256).generatedTokens(64).build();
    MemoryBreakdown b = ESTIMATOR.memory(task, A100, Layout.single()).breakdown();
    // THEN 2 (K, V) × 24 decoder layers × 2048 × (256 cross-attended + 64 self-attended tokens) × 2 bytes
    assertThat(b.kvCache().bytes()).isEqualTo(2L * 24 * 2048 * (256 + 64) * 2);
  }

  @Test
  void served_llama_2_7b_weights_take_2_bytes_per_parameter_in_bf16() {
    Task task = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).build();
    MemoryBreakdown b = ESTIMATOR.memory(task, A100, Layout.single()).breakdown();
    assertThat(b.weights().bytes()).isEqualTo(2 * 6_738_415_616L);
  }

  @Test
  void nf4_with_double_quantisation_takes_4_127_bits_per_weight() {
    assertThat(MemoryModel.NF4_BYTES_PER_WEIGHT * 8).isCloseTo(4.127, within(0.001));
  }

  @Test
  void quantised_weights_shrink_in_the_order_none_int8_int4() {
    Task none = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).build();
    long bf16 = ESTIMATOR.memory(none, A100, Layout.single()).breakdown().weights().bytes();
    long int8 = ESTIMATOR.memory(none.toBuilder().quantization(WeightQuantization.INT8).build(), A100,
        Layout.single()).breakdown().weights().bytes();
    long int4 = ESTIMATOR.memory(none.toBuilder().quantization(WeightQuantization.INT4).build(), A100,
        Layout.single()).breakdown().weights().bytes();
    assertThat(bf16).isGreaterThan(int8);
    assertThat(int8).isGreaterThan(int4);
    // 16-bit embeddings and head (2 × 32000 × 4096 × 2 bytes) dominate what 4-bit leaves
    assertThat(int4).isGreaterThan(2L * 32000 * 4096 * 2);
  }

  @Test
  void qlora_holds_less_weight_memory_than_lora() {
    Task lora = Task.lora(TestModels.LLAMA2_7B, 8).sequenceLength(512).build();
    Task qlora = Task.qlora(TestModels.LLAMA2_7B, 8).sequenceLength(512).build();
    MemoryBreakdown l = ESTIMATOR.memory(lora, A100, Layout.single()).breakdown();
    MemoryBreakdown q = ESTIMATOR.memory(qlora, A100, Layout.single()).breakdown();
    assertThat(q.weights().toGB()).isLessThan(l.weights().toGB() / 3);
    assertThat(q.allocated()).isLessThan(l.allocated());
  }

  @Test
  void overhead_is_the_cuda_context_plus_the_allocator_cache() {
    Task task = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).build();
    MemoryBreakdown b = ESTIMATOR.memory(task, A100, Layout.single()).breakdown();
    assertThat(b.overhead().bytes()).isCloseTo(
        MemoryModel.CUDA_CONTEXT_BYTES + Math.round(MemoryModel.ALLOCATOR_CACHE_FRACTION * b.allocated().bytes()),
        within(2L));
    assertThat(b.total().bytes()).isEqualTo(b.allocated().bytes() + b.overhead().bytes());
  }

  @Test
  void memory_estimate_reports_headroom_when_it_fits_and_shortfall_when_not() {
    Task small = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).build();
    MemoryEstimate fits = ESTIMATOR.memory(small, A100, Layout.single());
    assertThat(fits.fits()).isTrue();
    assertThat(fits.headroom().bytes()).isEqualTo(fits.capacity().bytes() - fits.perGpu().bytes());
    Task big = Task.fullFineTuning(TestModels.LLAMA2_13B).sequenceLength(4096).build();
    MemoryEstimate tooBig = ESTIMATOR.memory(big, A100, Layout.single());
    assertThat(tooBig.fits()).isFalse();
    assertThat(tooBig.headroom().bytes()).isZero();
    assertThat(tooBig.shortfall().bytes()).isEqualTo(tooBig.perGpu().bytes() - tooBig.capacity().bytes());
  }
  @Test
  void op_level_selective_checkpointing_keeps_the_input_every_other_matmul_output_and_the_attention_output() {
    // GIVEN Llama-3.1-8B in pure BF16 with FlashAttention and selective checkpointing (torchtitan's op-level policy)
    Task task = Task.pretraining(TestModels.LLAMA3_8B).microBatch(1).sequenceLength(8192)
        .precision(PrecisionMode.BF16_PURE).checkpointing(Checkpointing.SELECTIVE).build();
    Job job = new Job(task, Hardware.single(TestGpus.H100_SXM), Layout.single());
    // WHEN the bytes one layer keeps per token are counted
    double kept = MemoryModel.selectiveLayerBytesPerToken(job, TestModels.LLAMA3_8B);
    // THEN input h, the outputs of wq (q), wv (kv), w1 (f) and w2 (h), the attention output q and its FP32 LSE
    double expected = 2.0 * (4096 + 4096 + 1024 + 14336 + 4096) + 2.0 * 4096 + 4.0 * 32;
    assertThat(kept).isEqualTo(expected);
    // AND that is about a third of what the layer keeps without recomputation (Korthikanti's 34sbh analogue)
    double all = MemoryModel.layerBytesPerToken(job, TestModels.LLAMA3_8B, false);
    assertThat(kept / all).isBetween(0.30, 0.40);
  }

  @Test
  void the_loss_buffer_holds_all_fp32_logits_one_chunk_of_eight_or_only_an_input_sized_chunk_by_loss_kernel() {
    // GIVEN LoRA of Llama-3-8B (vocabulary 128,256, hidden 4096) on 2 x 2048 tokens in BF16, by loss kernel
    Task materialized = Task.lora(TestModels.LLAMA3_8B, 8).microBatch(2).sequenceLength(2048).build();
    Hardware h100 = Hardware.single(TestGpus.H100_SXM);
    double tokens = 2 * 2048;
    // WHEN the loss buffers are worked out
    double all = MemoryModel.lossBuffer(new Job(materialized, h100, Layout.single()), 128256, true);
    double chunked = MemoryModel.lossBuffer(new Job(materialized.toBuilder().loss(LossKernel.CHUNKED).build(), h100,
        Layout.single()), 128256, true);
    double fused = MemoryModel.lossBuffer(new Job(materialized.toBuilder().loss(LossKernel.FUSED).build(), h100,
        Layout.single()), 128256, true);
    // THEN BF16 logits + three FP32 terms per logit (7.4 GB); the BF16 logits + an eighth of the FP32 terms (1.8 GB);
    // three input-sized BF16 tensors (0.1 GB)
    assertThat(all).isEqualTo(tokens * 128256 * (2 + 12));
    assertThat(chunked).isEqualTo(tokens * 128256 * (2 + 12.0 / 8));
    assertThat(fused).isEqualTo(3 * tokens * 4096 * 2);
    // AND the estimate's allocated peak falls by the difference
    Estimator estimator = Estimator.defaults();
    long peak = estimator.memory(materialized, h100, Layout.single()).breakdown().allocated().bytes();
    long chunkedPeak = estimator.memory(materialized.toBuilder().loss(LossKernel.CHUNKED).build(), h100,
        Layout.single()).breakdown().allocated().bytes();
    assertThat((double) (peak - chunkedPeak)).isCloseTo(all - chunked, within(2.0));
  }

  @Test
  void selective_checkpointing_with_flash_attention_holds_far_fewer_activations_than_none() {
    Task none = Task.pretraining(TestModels.LLAMA3_8B).microBatch(2).sequenceLength(8192).build();
    Task selective = none.toBuilder().checkpointing(Checkpointing.SELECTIVE).build();
    Task full = none.toBuilder().checkpointing(Checkpointing.FULL).build();
    Hardware h100 = Hardware.single(TestGpus.H100_SXM);
    double loss = MemoryModel.lossBuffer(new Job(none, h100, Layout.single()), 128256, true);
    double keptNone = MemoryModel.trainingActivations(new Job(none, h100, Layout.single())) - loss;
    double keptSelective = MemoryModel.trainingActivations(new Job(selective, h100, Layout.single())) - loss;
    double keptFull = MemoryModel.trainingActivations(new Job(full, h100, Layout.single())) - loss;
    assertThat(keptSelective).isLessThan(keptNone / 2.5).isGreaterThan(keptFull);
  }

  @Test
  void selective_checkpointing_without_flash_attention_drops_only_the_attention_scores() {
    // GIVEN GPT-style layers with eager attention (Korthikanti et al. 2022's setting)
    Transformer gpt = TestModels.GPT_1_7B;
    Task selective = Task.pretraining(gpt).microBatch(1).sequenceLength(2048).precision(PrecisionMode.BF16_PURE)
        .flashAttention(false).checkpointing(Checkpointing.SELECTIVE).build();
    Job job = new Job(selective, A100, Layout.single());
    // WHEN activations are counted
    double perLayer = (MemoryModel.trainingActivations(job) - MemoryModel.lossBuffer(job, gpt.vocab(), true))
        / (2048.0 * gpt.layers());
    // THEN each layer keeps 34h bytes per token (no 5as term)
    assertThat(MemoryModel.opLevelSelective(job)).isFalse();
    assertThat(perLayer).isCloseTo(34.0 * gpt.hidden(), within(1.0));
  }

  @Test
  void op_level_selective_checkpointing_recomputes_some_forward_work() {
    Task none = Task.pretraining(TestModels.LLAMA3_8B).microBatch(2).sequenceLength(8192).build();
    Task selective = none.toBuilder().checkpointing(Checkpointing.SELECTIVE).build();
    Task full = none.toBuilder().checkpointing(Checkpointing.FULL).build();
    Hardware h100 = Hardware.single(TestGpus.H100_SXM);
    double tNone = ESTIMATOR.estimate(none, h100, Layout.single()).performance().stepTime().toNanos();
    double tSelective = ESTIMATOR.estimate(selective, h100, Layout.single()).performance().stepTime().toNanos();
    double tFull = ESTIMATOR.estimate(full, h100, Layout.single()).performance().stepTime().toNanos();
    assertThat(tSelective).isGreaterThan(tNone).isLessThan(tFull);
  }

  @Test
  void the_allocator_cache_is_15_percent_where_the_card_has_room() {
    // GIVEN a 7B decode that allocates ~13.5 GB of an 80 GB card
    Task task = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).build();
    Job job = new Job(task, A100, Layout.single());
    // WHEN the allocator cache is charged
    double cache = MemoryModel.allocatorCache(job, 13.5e9);
    // THEN the full GMLake fraction
    assertThat(cache).isEqualTo(MemoryModel.ALLOCATOR_CACHE_FRACTION * 13.5e9);
  }

  @Test
  void near_capacity_the_allocator_cache_yields_to_the_tensors_down_to_its_unreleasable_fragments() {
    Task task = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).build();
    Job h200 = new Job(task, Hardware.single(TestGpus.H200_SXM), Layout.single());
    double capacity = TestGpus.H200_SXM.memory().bytes() - MemoryModel.CUDA_CONTEXT_BYTES;
    // 130 GB allocated on a 141 GB card: charged the room that is left, not 15% (19.5 GB)
    double nearly = 130e9;
    assertThat(MemoryModel.allocatorCache(h200, nearly)).isEqualTo(capacity - nearly);
    // at the capacity: only the fragments a release-and-retry leaves (2.4%)
    assertThat(MemoryModel.allocatorCache(h200, capacity))
        .isEqualTo(MemoryModel.ALLOCATOR_FRAGMENTATION_AT_LIMIT * capacity);
  }

  @Test
  void a_smaller_allocator_fraction_than_the_fragments_is_charged_as_given() {
    Task task = Task.inference(TestModels.LLAMA2_7B).sequenceLength(16).build();
    Job job = new Job(task, A100, Layout.single(), Tuning.DEFAULTS.withAllocatorCacheFraction(0.01));
    double capacity = TestGpus.A100_SXM4_80GB.memory().bytes();
    assertThat(MemoryModel.allocatorCache(job, capacity)).isEqualTo(0.01 * capacity);
  }

  @Test
  void rmsprop_keeps_one_fp32_buffer_and_a_sqrt_scratch_at_the_step() {
    // GIVEN a billion parameters trained in FP32 with RMSprop (square_avg only, PyTorch's defaults)
    Task task = Task.pretraining(BILLION).precision(PrecisionMode.FP32).optimizer(Optimizer.RMSPROP).build();
    MemoryBreakdown b = ESTIMATOR.memory(task, A100, Layout.single()).breakdown();
    // THEN 4 bytes of state per parameter, and foreach RMSprop's sqrt(square_avg) at the optimizer step
    assertThat(b.optimizer().bytes()).isEqualTo(4_000_000_000L);
    assertThat(b.temporary().bytes()).isEqualTo(4_000_000_000L);
  }

  @Test
  void megatrons_fused_16_bit_softmax_keeps_korthikantis_5_bytes_per_score_under_autocast() {
    // GIVEN BERT-large under FP16 autocast with eager operators and with Megatron's fused scale-mask-softmax
    Task eager = Task.pretraining(TestModels.BERT_LARGE).microBatch(8).sequenceLength(512)
        .precision(PrecisionMode.FP16_MIXED).attention(io.github.gpusizer.core.task.AttentionKernel.EAGER).build();
    Task fused = eager.toBuilder().attention(io.github.gpusizer.core.task.AttentionKernel.FUSED_SOFTMAX).build();
    Hardware hw = Hardware.single(TestGpus.A100_SXM4_80GB);
    // WHEN the bytes kept per score element are counted
    // THEN the fused kernel keeps 2 + 1 + 2 (softmax output in 16 bits), eager autocast 4 + 1 + 2
    assertThat(MemoryModel.scoreBytes(new Job(fused, hw, Layout.single()), true)).isEqualTo(5);
    assertThat(MemoryModel.scoreBytes(new Job(eager, hw, Layout.single()), true)).isEqualTo(7);
    // AND neither is FlashAttention, so both store the scores: the fused kernel's peak is the lower
    assertThat(fused.flashAttention()).isFalse();
    assertThat(Estimator.defaults().memory(fused, hw, Layout.single()).breakdown().activations().bytes())
        .isLessThan(Estimator.defaults().memory(eager, hw, Layout.single()).breakdown().activations().bytes());
  }

  @Test
  void flash_attention_switch_still_selects_flash_or_eager_kernels() {
    Task.Builder b = Task.pretraining(TestModels.BERT_LARGE).microBatch(1);
    assertThat(b.build().attention()).isEqualTo(io.github.gpusizer.core.task.AttentionKernel.FLASH);
    assertThat(b.flashAttention(false).build().attention())
        .isEqualTo(io.github.gpusizer.core.task.AttentionKernel.EAGER);
    assertThat(b.flashAttention(true).build().flashAttention()).isTrue();
  }

  @Test
  void tensorflow_dropout_keeps_a_float_mask_at_every_dropout_site() {
    // GIVEN BERT-large in FP32 with PyTorch's one-byte masks and with tf.nn.dropout
    Transformer tf = TestModels.BERT_LARGE.toBuilder()
        .dropout(io.github.gpusizer.core.model.Dropout.SCALED_FLOAT_MASK).build();
    Task torch = Task.pretraining(TestModels.BERT_LARGE).microBatch(8).sequenceLength(128)
        .precision(PrecisionMode.FP32).flashAttention(false).build();
    Task tensorflow = Task.pretraining(tf).microBatch(8).sequenceLength(128).precision(PrecisionMode.FP32)
        .flashAttention(false).build();
    Hardware hw = Hardware.single(TestGpus.V100_SXM2_16GB);
    Job torchJob = new Job(torch, hw, Layout.single());
    Job tfJob = new Job(tensorflow, hw, Layout.single());
    // WHEN a layer's saved bytes per token are counted
    double difference = MemoryModel.layerBytesPerToken(tfJob, tf, true)
        - MemoryModel.layerBytesPerToken(torchJob, TestModels.BERT_LARGE, true);
    // THEN each element at the three dropout sites (a·s probabilities, two h-wide block outputs) keeps a 4 B float
    // mask instead of a 1 B bool one (the scaled input is not kept: the gradient product that reads it has no
    // consumer): 3 × (16 × 128 + 2 × 1024) = 12,288 B more
    assertThat(difference).isEqualTo(3.0 * (16 * 128 + 2 * 1024));
    assertThat(io.github.gpusizer.core.model.Dropout.FUSED_MASK.savedBytesPerElement(2)).isEqualTo(1);
    assertThat(io.github.gpusizer.core.model.Dropout.SCALED_FLOAT_MASK.savedBytesPerElement(2)).isEqualTo(2);
  }

  @Test
  void a_layer_norm_in_tensorflow_operations_keeps_one_more_hidden_wide_tensor_per_norm() {
    // GIVEN BERT-large in FP32 with a fused LayerNorm and with tf.contrib.layers.layer_norm
    Transformer composed = TestModels.BERT_LARGE.toBuilder()
        .norm(io.github.gpusizer.core.model.Norm.COMPOSED_LAYER_NORM).build();
    Task fused = Task.pretraining(TestModels.BERT_LARGE).microBatch(8).sequenceLength(128)
        .precision(PrecisionMode.FP32).flashAttention(false).build();
    Task tf = Task.pretraining(composed).microBatch(8).sequenceLength(128).precision(PrecisionMode.FP32)
        .flashAttention(false).build();
    Hardware hw = Hardware.single(TestGpus.V100_SXM2_16GB);
    // WHEN a layer's saved bytes per token are counted
    double difference = MemoryModel.layerBytesPerToken(new Job(tf, hw, Layout.single()), composed, true)
        - MemoryModel.layerBytesPerToken(new Job(fused, hw, Layout.single()), TestModels.BERT_LARGE, true);
    // THEN each of the layer's two norms keeps its broadcast rsqrt(variance)·scale: 2 × 4 B × 1024 = 8,192 B more,
    // and the parameters are LayerNorm's (a scale and a bias per channel)
    assertThat(difference).isEqualTo(2.0 * 4 * 1024);
    assertThat(composed.parameters()).isEqualTo(TestModels.BERT_LARGE.parameters());
  }

  @Test
  void frozen_lora_weights_keep_no_fp32_master_copy_under_mixed_precision_or_fp8() {
    // GIVEN LoRA of Llama-2-70B sharded over 8 H200s under three recipes
    Hardware h200 = Hardware.of(TestGpus.H200_SXM, 8, 1);
    Layout fsdp = Layout.dataParallel(8).withZero(io.github.gpusizer.core.task.ZeroStage.STAGE_3);
    Task.Builder lora = Task.lora(TestModels.LLAMA2_70B, 8).microBatch(1).sequenceLength(1024);
    double fp8 = ESTIMATOR.memory(lora.precision(PrecisionMode.FP8_MIXED).build(), h200, fsdp).breakdown()
        .weights().bytes();
    double bf16 = ESTIMATOR.memory(lora.precision(PrecisionMode.BF16_MIXED).build(), h200, fsdp).breakdown()
        .weights().bytes();
    double fp32 = ESTIMATOR.memory(lora.precision(PrecisionMode.FP32).build(), h200, fsdp).breakdown()
        .weights().bytes();
    // THEN FP8 and BF16 autocast hold the frozen base in 16 bits (2 B a parameter, an eighth each), FP32 in 4 B
    double base = TestModels.LLAMA2_70B.parameters() / 8.0;
    assertThat(fp8).isCloseTo(2 * base, org.assertj.core.data.Percentage.withPercentage(1));
    assertThat(bf16).isCloseTo(2 * base, org.assertj.core.data.Percentage.withPercentage(1));
    assertThat(fp32).isCloseTo(4 * base, org.assertj.core.data.Percentage.withPercentage(1));
  }
}
