package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each command's CSV header is the one it declares, whatever the data: every GPU or one, offerings with and
 * without spot or subscription prices, transformers and CNNs, training and inference, feasible and infeasible
 * requests. A field a report adds without declaring it shows up here as an extra column.
 */
class CsvHeadersTest {
  private static String smi(String name) {
    try {
      return Path.of(CsvHeadersTest.class.getResource("/nvidia-smi/" + name).toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static Stream<Arguments> commands() {
    return Stream.of(
        Arguments.of(GpusReport.CSV_COLUMNS, List.of("gpus")),
        Arguments.of(GpusReport.CSV_COLUMNS, List.of("gpus", "--gpu", "tpu-v4")),
        Arguments.of(OffersReport.CSV_COLUMNS, List.of("offers")),
        Arguments.of(OffersReport.CSV_COLUMNS, List.of("offers", "--provider", "lambda")),   // no spot price
        Arguments.of(OffersReport.CSV_COLUMNS, List.of("offers", "--provider", "aws")),      // no subscription
        Arguments.of(OffersReport.CSV_COLUMNS, List.of("offers", "--max-price", "0.01USD")), // no rows
        Arguments.of(EstimateReport.CSV_COLUMNS, List.of("estimate", "--gpu", "h100", "--model", "llama-2-7b",
            "--task", "lora", "--tokens", "50M")),
        Arguments.of(EstimateReport.CSV_COLUMNS, List.of("estimate", "--gpu", "h100", "--model", "resnet-50",
            "--dataset", "imagenet-1k")),
        Arguments.of(EstimateReport.CSV_COLUMNS, List.of("estimate", "--gpu", "h100", "--model", "llama-2-7b",
            "--task", "infer", "--prompt", "100", "--generate", "100")),
        Arguments.of(RecommendReport.CSV_COLUMNS, List.of("recommend", "--model", "llama-2-7b", "--task", "lora",
            "--tokens", "50M", "--spot")),
        Arguments.of(RecommendReport.CSV_COLUMNS, List.of("recommend", "--model", "resnet-50", "--dataset",
            "imagenet-1k")),
        Arguments.of(RecommendReport.CSV_COLUMNS, List.of("recommend", "--model", "llama-3-70b", "--tokens", "15T")),
        Arguments.of(ServeReport.CSV_COLUMNS, List.of("serve", "--model", "llama-2-70b", "--rps", "5", "--prompt",
            "1000", "--output", "200")),
        Arguments.of(ServeReport.CSV_COLUMNS, List.of("serve", "--model", "llama-2-70b", "--rps", "500",
            "--prompt", "1000", "--output", "200", "--ttft", "10ms")),
        Arguments.of(CompareReport.CSV_COLUMNS, List.of("compare", "--model", "llama-2-7b", "--task", "lora",
            "--tokens", "50M", "--offering", "aws/p4de.24xlarge,lambda/gpu_1x_gh200", "--electricity", "0.15USD")),
        Arguments.of(CheckReport.CSV_COLUMNS, List.of("check", "--nvidia-smi-csv", smi("h200.csv"))),
        Arguments.of(CheckReport.CSV_COLUMNS, List.of("check", "--nvidia-smi-csv", smi("two-a100-one-busy.csv"),
            "--model", "llama-2-7b", "--task", "lora", "--tokens", "1M")));
  }

  @org.junit.jupiter.api.Test
  void compare_writes_one_csv_row_per_rental() {
    Cli.Run run = Cli.run("compare", "--model", "llama-2-7b", "--task", "lora", "--tokens", "50M", "--offering",
        "aws/p4de.24xlarge,lambda/gpu_1x_gh200", "--format", "csv");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out().lines()).hasSize(3);
    assertThat(run.out().lines().skip(1)).anySatisfy(l -> assertThat(l).startsWith("aws/p4de.24xlarge,"))
        .anySatisfy(l -> assertThat(l).startsWith("lambda/gpu_1x_gh200,"));
  }

  @ParameterizedTest
  @MethodSource("commands")
  void the_header_is_the_declared_one(List<String> declared, List<String> args) {
    String[] argv = Stream.concat(args.stream(), Stream.of("--format", "csv")).toArray(String[]::new);

    Cli.Run run = Cli.run(argv);

    assertThat(run.exit()).as(run.err()).isIn(0, GpuSizerCli.EXIT_INFEASIBLE);
    assertThat(run.out().lines().findFirst().orElse("")).isEqualTo(String.join(",", declared));
  }
}
