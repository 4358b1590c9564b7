package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableSet;
import java.util.Arrays;

/**
 * A transformer given by its dimensions; the parameter count follows from them exactly.
 *
 * <pre>{@code
 * Transformer llama2 = Transformer.builder("llama-2-7b")
 *     .layers(32).hidden(4096).heads(32).ffn(11008).vocab(32000).maxPositions(4096)
 *     .gatedMlp(true).norm(Norm.RMS_NORM).positions(Positions.ROTARY).bias(false).tiedEmbeddings(false)
 *     .build();
 * llama2.parameters(); // 6,738,415,616
 * }</pre>
 *
 * @param name short name
 * @param stack decoder-only, encoder-only or encoder-decoder
 * @param layers layers of the (first) stack: all layers for decoder- or encoder-only models, the encoder's for T5
 * @param decoderLayers decoder layers of an encoder-decoder model; 0 otherwise
 * @param hidden model width h
 * @param heads attention heads a
 * @param kvHeads key/value heads (fewer than {@code heads} with grouped-query attention)
 * @param headDim width of one head, usually {@code hidden / heads}
 * @param ffn inner width of the MLP
 * @param vocab vocabulary size (as the embedding matrix is stored, padding included)
 * @param maxPositions longest sequence the model was built for
 * @param gatedMlp SwiGLU/GeGLU-style MLP with three matrices instead of two
 * @param tiedEmbeddings the output projection shares the input embedding matrix
 * @param bias linear layers carry biases
 * @param norm normalisation layer
 * @param positions position encoding
 * @param typeVocab token-type (segment) embeddings, 2 for BERT, else 0
 * @param pooler a BERT-style pooler (one h×h dense layer with bias) on top
 * @param experts MLP experts per layer, 1 for a dense model
 * @param activeExperts experts each token is routed to, 1 for a dense model
 * @param extraBiases linear layers with a bias beyond those {@code bias} switches on (Qwen2: q/k/v only; GPT-J: MLP
 *     and the output head)
 * @param parallelBlock attention and MLP read one shared normalised input, so each layer has one norm instead of two
 *     (GPT-J)
 * @param relativeAttentionBuckets T5-style relative position buckets: each stack learns a {@code buckets × heads}
 *     bias table (in its first layer, shared by the others); 0 unless {@code positions} is
 *     {@link Positions#RELATIVE_BIAS}
 * @param encoderPositions positions of an encoder-decoder model's own encoder position table, stored as a parameter
 *     of {@code encoderPositions × hidden} besides the decoder's {@code maxPositions} (Whisper's sinusoidal
 *     {@code embed_positions}, an {@code nn.Embedding} of {@code max_source_positions} rows in Hugging Face's
 *     {@code WhisperEncoder}); 0 for none
 * @param melBins mel-spectrogram bins an audio encoder's convolutional front-end reads: two kernel-3 {@code Conv1d}
 *     with biases, {@code melBins → hidden} and {@code hidden → hidden} (Whisper's {@code conv1}, {@code conv2}); 0
 *     for a model that reads tokens
 * @param activation how the MLP activation is implemented, which sets what it keeps for the backward pass
 * @param dropout how dropout is implemented, which sets what each dropout site keeps for the backward pass
 */
public record Transformer(
    String name,
    Stack stack,
    int layers,
    int decoderLayers,
    int hidden,
    int heads,
    int kvHeads,
    int headDim,
    int ffn,
    int vocab,
    int maxPositions,
    boolean gatedMlp,
    boolean tiedEmbeddings,
    boolean bias,
    Norm norm,
    Positions positions,
    int typeVocab,
    boolean pooler,
    int experts,
    int activeExperts,
    ImmutableSet<BiasSite> extraBiases,
    boolean parallelBlock,
    int relativeAttentionBuckets,
    int encoderPositions,
    int melBins,
    Activation activation,
    Dropout dropout) implements ModelSpec {

  /**
   * T5's default number of relative position buckets ({@code relative_attention_num_buckets = 32} in Hugging Face's
   * {@code T5Config}; Raffel et al. 2020, section 2.1).
   */
  public static final int T5_RELATIVE_BUCKETS = 32;

  /**
   * Validates every dimension (each must be in range; the parameter count must fit a {@code long}).
   *
   * @throws IllegalArgumentException naming the model, the field, the rule and the bad value
   */
  public Transformer(
      String name, Stack stack, int layers, int decoderLayers, int hidden, int heads, int kvHeads, int headDim,
      int ffn, int vocab, int maxPositions, boolean gatedMlp, boolean tiedEmbeddings, boolean bias, Norm norm,
      Positions positions, int typeVocab, boolean pooler, int experts, int activeExperts,
      ImmutableSet<BiasSite> extraBiases, boolean parallelBlock, int relativeAttentionBuckets, int encoderPositions,
      int melBins, Activation activation, Dropout dropout) {
    checkArgument(!checkNotNull(name, "name").isBlank(), "model needs a name");
    checkNotNull(activation, "activation");
    checkNotNull(dropout, "dropout");
    checkNotNull(stack, "stack");
    checkArgument(layers > 0, "%s: layers must be > 0, was %s", name, layers);
    checkArgument(stack == Stack.ENCODER_DECODER ? decoderLayers > 0 : decoderLayers == 0,
        "%s: decoder layers must be > 0 for an encoder-decoder model and 0 otherwise, was %s", name, decoderLayers);
    checkArgument(hidden > 0, "%s: hidden size must be > 0, was %s", name, hidden);
    checkArgument(heads > 0, "%s: heads must be > 0, was %s", name, heads);
    checkArgument(kvHeads > 0 && heads % kvHeads == 0,
        "%s: KV heads must be > 0 and divide the %s heads, was %s", name, heads, kvHeads);
    checkArgument(headDim > 0, "%s: head dimension must be > 0, was %s", name, headDim);
    checkArgument((long) heads * headDim <= Integer.MAX_VALUE,
        "%s: attention width heads × head dimension must be <= %s, was %s × %s", name, Integer.MAX_VALUE, heads,
        headDim);
    checkArgument(ffn > 0, "%s: FFN size must be > 0, was %s", name, ffn);
    checkArgument(vocab > 0, "%s: vocabulary must be > 0, was %s", name, vocab);
    checkArgument(maxPositions > 0, "%s: max positions must be > 0, was %s", name, maxPositions);
    checkNotNull(norm, "norm");
    checkNotNull(positions, "positions");
    checkArgument(typeVocab >= 0, "%s: token-type vocabulary must be >= 0, was %s", name, typeVocab);
    checkArgument(experts >= 1, "%s: experts must be >= 1, was %s", name, experts);
    checkArgument(activeExperts >= 1 && activeExperts <= experts,
        "%s: active experts must be in 1..%s, was %s", name, experts, activeExperts);
    checkNotNull(extraBiases, "extraBiases");
    checkArgument(positions == Positions.RELATIVE_BIAS ? relativeAttentionBuckets > 0 : relativeAttentionBuckets == 0,
        "%s: relative attention buckets must be > 0 with relative position biases and 0 otherwise, was %s",
        name, relativeAttentionBuckets);
    checkArgument(!parallelBlock || stack != Stack.ENCODER_DECODER,
        "%s: a parallel attention/MLP block is only modelled for decoder- or encoder-only stacks", name);
    checkArgument(encoderPositions == 0 || (encoderPositions > 0 && stack == Stack.ENCODER_DECODER),
        "%s: encoder positions must be > 0 for an encoder-decoder model's own encoder table, or 0, was %s", name,
        encoderPositions);
    checkArgument(melBins == 0 || (melBins > 0 && stack == Stack.ENCODER_DECODER),
        "%s: mel bins must be > 0 for an encoder-decoder model's audio front-end, or 0, was %s", name, melBins);
    this.name = name;
    this.stack = stack;
    this.layers = layers;
    this.decoderLayers = decoderLayers;
    this.hidden = hidden;
    this.heads = heads;
    this.kvHeads = kvHeads;
    this.headDim = headDim;
    this.ffn = ffn;
    this.vocab = vocab;
    this.maxPositions = maxPositions;
    this.gatedMlp = gatedMlp;
    this.tiedEmbeddings = tiedEmbeddings;
    this.bias = bias;
    this.norm = norm;
    this.positions = positions;
    this.typeVocab = typeVocab;
    this.pooler = pooler;
    this.experts = experts;
    this.activeExperts = activeExperts;
    this.extraBiases = ImmutableSet.copyOf(extraBiases);
    this.parallelBlock = parallelBlock;
    this.relativeAttentionBuckets = relativeAttentionBuckets;
    this.encoderPositions = encoderPositions;
    this.melBins = melBins;
    this.activation = activation;
    this.dropout = dropout;
    try {
      TransformerParameters.count(this, experts);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(name + ": the parameter count of these dimensions overflows a long", e);
    }
  }

  /** The constructor before {@code dropout} existed: PyTorch's fused dropout with a one-byte mask. */
  public Transformer(
      String name, Stack stack, int layers, int decoderLayers, int hidden, int heads, int kvHeads, int headDim,
      int ffn, int vocab, int maxPositions, boolean gatedMlp, boolean tiedEmbeddings, boolean bias, Norm norm,
      Positions positions, int typeVocab, boolean pooler, int experts, int activeExperts,
      ImmutableSet<BiasSite> extraBiases, boolean parallelBlock, int relativeAttentionBuckets, int encoderPositions,
      int melBins, Activation activation) {
    this(name, stack, layers, decoderLayers, hidden, heads, kvHeads, headDim, ffn, vocab, maxPositions, gatedMlp,
        tiedEmbeddings, bias, norm, positions, typeVocab, pooler, experts, activeExperts, extraBiases, parallelBlock,
        relativeAttentionBuckets, encoderPositions, melBins, activation, Dropout.FUSED_MASK);
  }

  /** The constructor before {@code activation} existed: a fused activation. */
  public Transformer(
      String name, Stack stack, int layers, int decoderLayers, int hidden, int heads, int kvHeads, int headDim,
      int ffn, int vocab, int maxPositions, boolean gatedMlp, boolean tiedEmbeddings, boolean bias, Norm norm,
      Positions positions, int typeVocab, boolean pooler, int experts, int activeExperts,
      ImmutableSet<BiasSite> extraBiases, boolean parallelBlock, int relativeAttentionBuckets, int encoderPositions,
      int melBins) {
    this(name, stack, layers, decoderLayers, hidden, heads, kvHeads, headDim, ffn, vocab, maxPositions, gatedMlp,
        tiedEmbeddings, bias, norm, positions, typeVocab, pooler, experts, activeExperts, extraBiases, parallelBlock,
        relativeAttentionBuckets, encoderPositions, melBins, Activation.FUSED);
  }

  /** The constructor before {@code encoderPositions} and {@code melBins} existed: neither (a token-input model). */
  public Transformer(
      String name, Stack stack, int layers, int decoderLayers, int hidden, int heads, int kvHeads, int headDim,
      int ffn, int vocab, int maxPositions, boolean gatedMlp, boolean tiedEmbeddings, boolean bias, Norm norm,
      Positions positions, int typeVocab, boolean pooler, int experts, int activeExperts,
      ImmutableSet<BiasSite> extraBiases, boolean parallelBlock, int relativeAttentionBuckets) {
    this(name, stack, layers, decoderLayers, hidden, heads, kvHeads, headDim, ffn, vocab, maxPositions, gatedMlp,
        tiedEmbeddings, bias, norm, positions, typeVocab, pooler, experts, activeExperts, extraBiases, parallelBlock,
        relativeAttentionBuckets, 0, 0, Activation.FUSED);
  }

  /**
   * The constructor before {@code extraBiases}, {@code parallelBlock} and {@code relativeAttentionBuckets} existed:
   * no extra biases, sequential blocks, and {@link #T5_RELATIVE_BUCKETS} buckets for relative position biases.
   */
  public Transformer(
      String name, Stack stack, int layers, int decoderLayers, int hidden, int heads, int kvHeads, int headDim,
      int ffn, int vocab, int maxPositions, boolean gatedMlp, boolean tiedEmbeddings, boolean bias, Norm norm,
      Positions positions, int typeVocab, boolean pooler, int experts, int activeExperts) {
    this(name, stack, layers, decoderLayers, hidden, heads, kvHeads, headDim, ffn, vocab, maxPositions, gatedMlp,
        tiedEmbeddings, bias, norm, positions, typeVocab, pooler, experts, activeExperts, ImmutableSet.of(), false,
        positions == Positions.RELATIVE_BIAS ? T5_RELATIVE_BUCKETS : 0);
  }

  /**
   * A builder with the settings of a GPT-2-style decoder as defaults (learned positions, LayerNorm, biases, FFN
   * {@code 4 × hidden}); layers, hidden, heads and vocab are required.
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** A builder preset to this model's settings, to derive a variant. */
  public Builder toBuilder() {
    return new Builder(name).stack(stack).layers(layers).decoderLayers(decoderLayers).hidden(hidden).heads(heads)
        .kvHeads(kvHeads).headDim(headDim).ffn(ffn).vocab(vocab).maxPositions(maxPositions).gatedMlp(gatedMlp)
        .tiedEmbeddings(tiedEmbeddings).bias(bias).norm(norm).positions(positions).typeVocab(typeVocab)
        .pooler(pooler).experts(experts).activeExperts(activeExperts)
        .extraBiases(extraBiases.toArray(new BiasSite[0])).parallelBlock(parallelBlock)
        .relativeAttentionBuckets(relativeAttentionBuckets).encoderPositions(encoderPositions).melBins(melBins)
        .activation(activation).dropout(dropout);
  }

  /**
   * Whether the given linear layers carry biases: those {@code bias} switches on ({@link BiasSite#QKV},
   * {@link BiasSite#ATTENTION_OUT}, {@link BiasSite#MLP}) or those listed in {@link #extraBiases()}.
   */
  public boolean hasBias(BiasSite site) {
    return extraBiases.contains(site) || (bias && site != BiasSite.LM_HEAD);
  }

  /** All layers of all stacks. */
  public int totalLayers() {
    return layers + decoderLayers;
  }

  /** Width of the key and value projections: {@code kvHeads × headDim}. */
  public int kvDim() {
    return kvHeads * headDim;
  }

  /** Width of the query projection output: {@code heads × headDim}. */
  public long queryDim() {
    return (long) heads * headDim;
  }

  /** Weights of one layer's attention projections (Q, K, V, O; no biases). */
  public long attentionWeights() {
    return (long) hidden * queryDim() * 2 + 2L * hidden * kvDim();
  }

  /** Weights of one MLP expert (two matrices, three when gated; no biases). */
  public long mlpWeights() {
    return (gatedMlp ? 3L : 2L) * hidden * ffn;
  }

  /**
   * Weights of the linear layers inside the transformer layers, all experts: what 4- and 8-bit weight quantisation
   * (bitsandbytes, GPTQ, AWQ) replaces. Embeddings and the output head stay in 16-bit (bitsandbytes and GPTQ skip
   * the {@code lm_head} by default).
   */
  public long quantizableWeights() {
    long perLayer = attentionWeights() + mlpWeights() * experts;
    long crossAttention = stack == Stack.ENCODER_DECODER ? (long) decoderLayers * attentionWeights() : 0;
    return (long) totalLayers() * perLayer + crossAttention;
  }

  /** Whether the model computes vocabulary logits for every token (decoders; encoder-only models do not). */
  public boolean hasLanguageHead() {
    return stack != Stack.ENCODER;
  }

  /**
   * Parameters one token passes through in matrix multiplications: active parameters less the embedding tables,
   * which are looked up, not multiplied; the output head counts (tied or not) when the model has one.
   */
  public double matmulParameters() {
    long h = hidden;
    long lookup = (long) vocab * h + (long) typeVocab * h
        + (positions == Positions.LEARNED ? (long) maxPositions * h : 0);
    long head = hasLanguageHead() && tiedEmbeddings ? (long) vocab * h : 0;
    return Math.max(0, activeParameters() - lookup + head);
  }

  /**
   * Output widths per token of one layer's matrix multiplications in the order the forward pass runs them, as
   * torchtitan's Llama writes the layer: {@code wq, wk, wv, wo}, then {@code w1, w3, w2} for a gated MLP
   * ({@code w2(silu(w1(x)) * w3(x))}) or {@code up, down}; MLP widths times the active experts. A fresh array.
   */
  public double[] matmulOutputWidths() {
    double q = queryDim();
    double kv = kvDim();
    double f = (double) ffn * activeExperts;
    double down = (double) hidden * activeExperts;
    return gatedMlp ? new double[] {q, kv, kv, hidden, f, f, down} : new double[] {q, kv, kv, hidden, f, down};
  }

  /**
   * Whether the model was trained with dropout. Heuristic: the learned-position generation (BERT, GPT-2, ViT,
   * Whisper) uses dropout 0.1; rotary/ALiBi models (Llama, Mistral, MPT, Qwen) set it to 0.
   */
  public boolean usesDropout() {
    return positions == Positions.LEARNED;
  }

  @Override
  public long parameters() {
    return TransformerParameters.count(this, experts);
  }

  @Override
  public long activeParameters() {
    return TransformerParameters.count(this, activeExperts);
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private final String name;
    private Stack stack = Stack.DECODER;
    private int layers;
    private int decoderLayers;
    private int hidden;
    private int heads;
    private int kvHeads;
    private int headDim;
    private int ffn;
    private int vocab;
    private int maxPositions = 2048;
    private boolean gatedMlp;
    private boolean tiedEmbeddings;
    private boolean bias = true;
    private Norm norm = Norm.LAYER_NORM;
    private Positions positions = Positions.LEARNED;
    private int typeVocab;
    private boolean pooler;
    private int experts = 1;
    private int activeExperts = 1;
    private ImmutableSet<BiasSite> extraBiases = ImmutableSet.of();
    private boolean parallelBlock;
    private int relativeAttentionBuckets = -1;
    private int encoderPositions;
    private int melBins;
    private Activation activation = Activation.FUSED;
    private Dropout dropout = Dropout.FUSED_MASK;

    private Builder(String name) {
      this.name = name;
    }

    public Builder stack(Stack v) { this.stack = v; return this; }
    public Builder layers(int v) { this.layers = v; return this; }
    public Builder decoderLayers(int v) { this.decoderLayers = v; return this; }
    public Builder hidden(int v) { this.hidden = v; return this; }
    public Builder heads(int v) { this.heads = v; return this; }
    /** Defaults to {@code heads} (multi-head attention). */
    public Builder kvHeads(int v) { this.kvHeads = v; return this; }
    /** Defaults to {@code hidden / heads}. */
    public Builder headDim(int v) { this.headDim = v; return this; }
    /** Defaults to {@code 4 × hidden}. */
    public Builder ffn(int v) { this.ffn = v; return this; }
    public Builder vocab(int v) { this.vocab = v; return this; }
    public Builder maxPositions(int v) { this.maxPositions = v; return this; }
    public Builder gatedMlp(boolean v) { this.gatedMlp = v; return this; }
    public Builder tiedEmbeddings(boolean v) { this.tiedEmbeddings = v; return this; }
    public Builder bias(boolean v) { this.bias = v; return this; }
    public Builder norm(Norm v) { this.norm = v; return this; }
    public Builder positions(Positions v) { this.positions = v; return this; }
    public Builder typeVocab(int v) { this.typeVocab = v; return this; }
    public Builder pooler(boolean v) { this.pooler = v; return this; }
    public Builder experts(int v) { this.experts = v; return this; }
    public Builder activeExperts(int v) { this.activeExperts = v; return this; }
    /** Biases beyond those {@link #bias(boolean)} switches on; none by default. */
    public Builder extraBiases(BiasSite... v) { this.extraBiases = ImmutableSet.copyOf(Arrays.asList(v)); return this; }
    public Builder parallelBlock(boolean v) { this.parallelBlock = v; return this; }
    /** Defaults to {@link #T5_RELATIVE_BUCKETS} with {@link Positions#RELATIVE_BIAS}, else 0. */
    public Builder relativeAttentionBuckets(int v) { this.relativeAttentionBuckets = v; return this; }
    /** The encoder's own position table of an encoder-decoder model (Whisper); none by default. */
    public Builder encoderPositions(int v) { this.encoderPositions = v; return this; }
    /** Mel bins of an audio front-end of two kernel-3 convolutions (Whisper); none (token input) by default. */
    public Builder melBins(int v) { this.melBins = v; return this; }
    /** How the MLP activation is implemented; {@link Activation#FUSED} by default. */
    public Builder activation(Activation v) { this.activation = v; return this; }
    /** How dropout is implemented; {@link Dropout#FUSED_MASK} by default. */
    public Builder dropout(Dropout v) { this.dropout = v; return this; }

    /**
     * Builds the transformer; the builder is unchanged and may build again.
     *
     * @throws IllegalArgumentException naming the model, the field and the rule when a dimension is out of range
     */
    public Transformer build() {
      checkArgument(heads > 0, "%s: heads must be > 0, was %s", name, heads);
      checkArgument(headDim > 0 || hidden % heads == 0,
          "%s: hidden size %s is not a multiple of the %s heads; give the head dimension explicitly",
          name, hidden, heads);
      int dim = headDim > 0 ? headDim : hidden / heads;
      int buckets = relativeAttentionBuckets >= 0 ? relativeAttentionBuckets
          : positions == Positions.RELATIVE_BIAS ? T5_RELATIVE_BUCKETS : 0;
      checkArgument(ffn > 0 || 4L * hidden <= Integer.MAX_VALUE,
          "%s: the default FFN size 4 × hidden must be <= %s, was 4 × %s; give the FFN size explicitly", name,
          Integer.MAX_VALUE, hidden);
      return new Transformer(name, stack, layers, decoderLayers, hidden, heads, kvHeads > 0 ? kvHeads : heads, dim,
          ffn > 0 ? ffn : 4 * hidden, vocab, maxPositions, gatedMlp, tiedEmbeddings, bias, norm, positions, typeVocab,
          pooler, experts, activeExperts, extraBiases, parallelBlock, buckets, encoderPositions, melBins, activation, dropout);
    }
  }
}
