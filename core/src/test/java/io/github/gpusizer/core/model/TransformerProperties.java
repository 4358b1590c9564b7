package io.github.gpusizer.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;

import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** Invariants of the transformer parameter count over random dimensions. */
class TransformerProperties {

  /** Random decoders and encoder-decoders of modest size: heads × head_dim = hidden. */
  private static Gen<Transformer> transformers() {
    Gen<Integer> layers = integers().between(1, 48);
    Gen<Integer> heads = integers().between(1, 16);
    Gen<Integer> headDim = integers().between(1, 128);
    Gen<Integer> vocab = integers().between(1, 200_000);
    Gen<Boolean> flags = booleans().all();
    return layers.zip(heads, headDim, vocab, (l, h, d, v) -> new int[] {l, h, d, v})
        .zip(flags, flags, flags, (dims, gated, tied, encoderDecoder) -> {
          Transformer.Builder b = Transformer.builder("random").layers(dims[0]).heads(dims[1])
              .hidden(dims[1] * dims[2]).vocab(dims[3]).gatedMlp(gated).tiedEmbeddings(tied);
          if (encoderDecoder) {
            b.stack(Stack.ENCODER_DECODER).decoderLayers(dims[0]).norm(Norm.RMS_NORM)
                .positions(Positions.RELATIVE_BIAS).bias(false);
          }
          return b.build();
        });
  }

  @Test
  void parameters_strictly_grow_with_layers() {
    qt().forAll(transformers()).checkAssert(t -> {
      Transformer deeper = t.toBuilder().layers(t.layers() + 1).build();
      assertThat(deeper.parameters()).isGreaterThan(t.parameters());
    });
  }

  @Test
  void parameters_strictly_grow_with_hidden_size() {
    qt().forAll(transformers()).checkAssert(t -> {
      // One more channel per head keeps hidden divisible by the heads; the FFN stays 4 × hidden by default.
      Transformer wider = t.toBuilder().hidden(t.hidden() + t.heads()).headDim(t.headDim() + 1)
          .ffn(4 * (t.hidden() + t.heads())).build();
      assertThat(wider.parameters()).isGreaterThan(t.parameters());
    });
  }

  @Test
  void parameters_strictly_grow_with_vocabulary() {
    qt().forAll(transformers()).checkAssert(t -> {
      Transformer bigger = t.toBuilder().vocab(t.vocab() + 1).build();
      // Each new token adds one embedding row, and one more output row when the head is untied.
      assertThat(bigger.parameters() - t.parameters()).isEqualTo(t.tiedEmbeddings() ? t.hidden() : 2L * t.hidden());
    });
  }

  @Test
  void active_parameters_never_exceed_parameters_and_grow_with_active_experts() {
    qt().forAll(transformers(), integers().between(2, 16), integers().between(1, 15)).checkAssert((t, e, a) -> {
      int active = Math.min(a, e - 1);
      Transformer moe = t.toBuilder().experts(e).activeExperts(active).build();
      Transformer moreActive = moe.toBuilder().activeExperts(active + 1).build();
      assertThat(moe.activeParameters()).isLessThan(moe.parameters());
      assertThat(moreActive.activeParameters()).isGreaterThan(moe.activeParameters());
      assertThat(moe.toBuilder().activeExperts(e).build().activeParameters()).isEqualTo(moe.parameters());
    });
  }

  @Test
  void dense_models_use_all_their_parameters() {
    qt().forAll(transformers()).checkAssert(t -> assertThat(t.activeParameters()).isEqualTo(t.parameters()));
  }
}
