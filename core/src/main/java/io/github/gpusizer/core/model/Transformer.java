package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

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
    int activeExperts) implements ModelSpec {

  public Transformer {
    checkArgument(!checkNotNull(name, "name").isBlank(), "model needs a name");
    checkNotNull(stack, "stack");
    checkArgument(layers > 0, "%s: layers must be > 0, was %s", name, layers);
    checkArgument(stack == Stack.ENCODER_DECODER ? decoderLayers > 0 : decoderLayers == 0,
        "%s: decoder layers must be > 0 for an encoder-decoder model and 0 otherwise, was %s", name, decoderLayers);
    checkArgument(hidden > 0, "%s: hidden size must be > 0, was %s", name, hidden);
    checkArgument(heads > 0, "%s: heads must be > 0, was %s", name, heads);
    checkArgument(kvHeads > 0 && heads % kvHeads == 0,
        "%s: KV heads must be > 0 and divide the %s heads, was %s", name, heads, kvHeads);
    checkArgument(headDim > 0, "%s: head dimension must be > 0, was %s", name, headDim);
    checkArgument(ffn > 0, "%s: FFN size must be > 0, was %s", name, ffn);
    checkArgument(vocab > 0, "%s: vocabulary must be > 0, was %s", name, vocab);
    checkArgument(maxPositions > 0, "%s: max positions must be > 0, was %s", name, maxPositions);
    checkNotNull(norm, "norm");
    checkNotNull(positions, "positions");
    checkArgument(typeVocab >= 0, "%s: token-type vocabulary must be >= 0, was %s", name, typeVocab);
    checkArgument(experts >= 1, "%s: experts must be >= 1, was %s", name, experts);
    checkArgument(activeExperts >= 1 && activeExperts <= experts,
        "%s: active experts must be in 1..%s, was %s", name, experts, activeExperts);
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** A builder with the settings of a GPT-2-style decoder as defaults; heads and hidden are required. */
  public Builder toBuilder() {
    return new Builder(name).stack(stack).layers(layers).decoderLayers(decoderLayers).hidden(hidden).heads(heads)
        .kvHeads(kvHeads).headDim(headDim).ffn(ffn).vocab(vocab).maxPositions(maxPositions).gatedMlp(gatedMlp)
        .tiedEmbeddings(tiedEmbeddings).bias(bias).norm(norm).positions(positions).typeVocab(typeVocab)
        .pooler(pooler).experts(experts).activeExperts(activeExperts);
  }

  /** All layers of all stacks. */
  public int totalLayers() {
    return layers + decoderLayers;
  }

  /** Width of the key and value projections: {@code kvHeads × headDim}. */
  public int kvDim() {
    return kvHeads * headDim;
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

    public Transformer build() {
      checkArgument(heads > 0, "%s: heads must be > 0, was %s", name, heads);
      int dim = headDim > 0 ? headDim : hidden / heads;
      return new Transformer(name, stack, layers, decoderLayers, hidden, heads, kvHeads > 0 ? kvHeads : heads, dim,
          ffn > 0 ? ffn : 4 * hidden, vocab, maxPositions, gatedMlp, tiedEmbeddings, bias, norm, positions, typeVocab,
          pooler, experts, activeExperts);
    }
  }
}
