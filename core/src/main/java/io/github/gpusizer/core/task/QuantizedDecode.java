package io.github.gpusizer.core.task;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * How fast weight-only quantised kernels stream their weights while decoding, measured: each row is the share of the
 * 16-bit decode's bandwidth that one framework's kernels reach on one format, from one published source. A framework
 * without a measured share of its own takes the median of these rows for the format ({@link #share}): dequantising
 * costs arithmetic per byte, so 4- and 8-bit kernels reach less of the memory bandwidth than 16-bit ones.
 *
 * <pre>{@code
 * double int4 = QuantizedDecode.share(WeightQuantization.INT4); // 0.78: the median of five sources
 * }</pre>
 */
public final class QuantizedDecode {
  /**
   * One measured share.
   *
   * @param format the weight format
   * @param framework the framework whose kernels were measured
   * @param source where the figures are published
   * @param share achieved bandwidth on the format over achieved bandwidth at 16 bits (the same source's 16-bit
   *     decode where it gives one, else the model's 16-bit rate on that GPU), at most 1
   */
  public record Measured(WeightQuantization format, Framework framework, String source, double share) {
    public Measured {
      checkArgument(share > 0 && share <= 1, "share must be in (0, 1], was %s", share);
    }
  }

  /** The RTX 4090's 16-bit decode rate in the model: 1,008 GB/s × GDDR6X's 0.91 ({@code Efficiency}). */
  private static final double RTX_4090_MODEL_GBPS = 1008 * 0.91;

  /** Every measured share, one row per source and format. */
  public static final ImmutableList<Measured> MEASURED = ImmutableList.of(
      // gpt-fast README, Llama-2-7B on an A100-80GB: 1,069 (INT8) and 863 (INT4, groups of 32) of 1,397 GB/s (BF16)
      new Measured(WeightQuantization.INT8, Framework.GPT_FAST,
          "pytorch-labs/gpt-fast@0f925b5d4ce457b89a7ca6c9ce50f42bf2576945:README.md", 1069.20 / 1397.31),
      new Measured(WeightQuantization.INT4, Framework.GPT_FAST,
          "pytorch-labs/gpt-fast@0f925b5d4ce457b89a7ca6c9ce50f42bf2576945:README.md", 862.69 / 1397.31),
      // llama.cpp llama-bench tg128: Q8_0 98.13 tokens/s x 7.16 GB = 703 GB/s against F16's 61.03 x 13.48 GB = 822
      // GB/s on an RTX 4090 (pull request 4766); Q4_0 127.43 x 3.82 GB = 487 GB/s on an RTX 3090 Ti of the same
      // 1,008 GB/s (pull request 4812)
      new Measured(WeightQuantization.INT8, Framework.LLAMA_CPP, "ggml-org/llama.cpp pull requests 4766 and 4812",
          703.0 / 822),
      new Measured(WeightQuantization.INT4, Framework.LLAMA_CPP, "ggml-org/llama.cpp pull requests 4766 and 4812",
          487.0 / 822),
      // TinyChat (AWQ, 4-bit, groups of 128) on an RTX 4090: 6.02 ms a token against its Hugging Face FP16 baseline's
      // 16.17 ms, reading about 3.90 GB against 13.48 GB: (16.17 / 6.02) / (13.48 / 3.90)
      new Measured(WeightQuantization.INT4, Framework.HF_GENERATE,
          "mit-han-lab/llm-awq@048e19e1e7a982c8fa37aaf9ffb803dc4f1c8a62:tinychat/README.md",
          (16.17 / 6.02) / (13.48 / 3.90)),
      // ExLlamaV2 README, Llama-7B GPTQ 4-bit on an RTX 4090: 198 tokens/s x 3.96 GB (6.48 G weights at 4.25 bits and
      // the 16-bit embedding and head) = 784 GB/s
      new Measured(WeightQuantization.INT4, Framework.EXLLAMAV2,
          "turboderp/exllamav2@01d01a14feb2a3dc40a9c3a9aafbf581984bab36:README.md", 198 * 3.96 / RTX_4090_MODEL_GBPS),
      // MLC-LLM's llm-perf-bench, Llama-2-7B q4f16_1 (4 bits and an FP16 scale per 32: 4.5 bits) on an RTX 4090:
      // 204.8 tokens/s x 4.17 GB = 854 GB/s
      new Measured(WeightQuantization.INT4, Framework.MLC_LLM,
          "mlc-ai/llm-perf-bench@027460030bf1ff2dce035d671fad1b885eb960b6:README.md",
          Math.min(1, 204.8 * 4.17 / RTX_4090_MODEL_GBPS)));

  /** {@link #share} per format, computed once: the estimators read it for every quantised decode step. */
  private static final double[] SHARES = java.util.Arrays.stream(WeightQuantization.values())
      .mapToDouble(q -> shareWithout(q, "")).toArray();

  private QuantizedDecode() {}

  /** The median measured share for a format over every source (1 for formats nobody measured here). */
  public static double share(WeightQuantization format) {
    return SHARES[format.ordinal()];
  }

  /** {@link #share} without the rows of one source: what the rule says for a source held out. */
  public static double shareWithout(WeightQuantization format, String source) {
    List<Double> shares = MEASURED.stream().filter(m -> m.format() == format && !m.source().equals(source))
        .map(Measured::share).sorted().toList();
    int n = shares.size();
    return n == 0 ? 1 : n % 2 == 1 ? shares.get(n / 2) : (shares.get(n / 2 - 1) + shares.get(n / 2)) / 2;
  }
}
