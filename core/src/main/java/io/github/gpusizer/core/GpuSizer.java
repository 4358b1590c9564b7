package io.github.gpusizer.core;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableSet;
import io.github.gpusizer.catalog.Catalog;
import io.github.gpusizer.catalog.CudaVersion;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.catalog.Offering;
import io.github.gpusizer.core.cost.CostModel;
import io.github.gpusizer.core.cost.ExchangeRates;
import io.github.gpusizer.core.cost.Interruptions;
import io.github.gpusizer.core.cost.PricingMode;
import io.github.gpusizer.core.cost.UnknownExchangeRateException;
import io.github.gpusizer.core.estimate.Estimator;
import io.github.gpusizer.core.estimate.Fit;
import io.github.gpusizer.core.estimate.FixedCosts;
import io.github.gpusizer.core.estimate.Hardware;
import io.github.gpusizer.core.model.ConvNet;
import io.github.gpusizer.core.model.ModelSpec;
import io.github.gpusizer.core.model.Presets;
import io.github.gpusizer.core.model.Transformer;
import io.github.gpusizer.core.task.Dataset;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.Optimizer;
import io.github.gpusizer.core.task.PrecisionMode;
import io.github.gpusizer.core.task.Task;
import java.time.Duration;
import java.util.Arrays;
import java.util.Currency;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * Recommends hardware for a deep-learning job: which GPU, how many, on which priced offering, with which parallel
 * layout, how long and at what cost, and why. The entry point: {@link #forTask(Task)} hands back the {@link Sizer}
 * to configure.
 *
 * <pre>{@code
 * Recommendation rec = GpuSizer.forTask(task)
 *     .deadline(Duration.ofHours(24))
 *     .budget(Money.of("2000", "CNY"))
 *     .recommend();
 * rec.best().ifPresent(o -> System.out.println(o.rationale()));
 * }</pre>
 */
public final class GpuSizer {
  /**
   * A day: the seed guides advise a training run that finishes within 24 hours, so the model can be improved the
   * next day (seed 000, "选择 GPU 数量").
   */
  public static final Duration DEFAULT_DEADLINE = Duration.ofHours(24);
  /** The default window of {@link Objective#BEST_VALUE}: options at most 1.5 × as slow as the fastest. */
  public static final double DEFAULT_BEST_VALUE_FACTOR = 1.5;
  /**
   * The default bound on GPUs per job: eight 8-GPU servers, the seed guides' "classic" 8-GPU configuration (seed
   * 000) times eight. A search bound, not a physical limit: raise it with {@link Sizer#maxGpus(int)}; when nothing fits
   * within it the suggestion says how many GPUs would do.
   */
  public static final int DEFAULT_MAX_GPUS = 64;
  /**
   * The bound on {@link Sizer#maxGpus} and {@link Sizer#maxNodes}: the estimator's {@code Hardware} and {@code Layout} model
   * at most 1,000,000 GPUs ("beyond any cluster"); a larger bound used to fail deep inside {@link Sizer#recommend()}.
   */
  public static final int MAX_CLUSTER_GPUS = 1_000_000;
  /** The ranking currency when no budget says otherwise. */
  public static final Currency DEFAULT_CURRENCY = Currency.getInstance("USD");

  /** Hoffmann et al. 2022: compute-optimal training uses about 20 tokens per parameter. */
  private static final double CHINCHILLA_TOKENS_PER_PARAMETER = 20;
  /** He et al. 2016; Goyal et al. 2017: ResNet trains for 90 epochs on ImageNet. */
  private static final double RESNET_EPOCHS = 90;
  /** Goyal et al. 2017: 32 images per GPU. */
  private static final int GOYAL_IMAGES_PER_GPU = 32;

  private GpuSizer() {}

  /**
   * Starts sizing a task.
   *
   * @throws IllegalArgumentException if the task has no amount of work (tokens, or samples × epochs): without it
   *     neither time nor cost can be estimated
   */
  public static Sizer forTask(Task task) {
    checkNotNull(task, "task");
    checkArgument(task.tokens().isPresent() || task.samples().isPresent(),
        "task must give its amount of work as tokens or samples × epochs to size time and cost; %s has neither",
        task.kind());
    return new Sizer(task);
  }

  /**
   * Starts sizing a preset model ({@link Presets#ids()}) with textbook defaults, for a first look:
   *
   * <ul>
   *   <li>a transformer is pre-trained from scratch on 20 tokens per parameter, the compute-optimal amount of
   *       Hoffmann et al. 2022 ("Training Compute-Optimal Large Language Models", arXiv:2203.15556), in sequences
   *       of its own context up to 8,192 tokens ({@link Task.Builder#LONGEST_DEFAULT_SEQUENCE}), BF16 mixed
   *       precision where the GPU has it, AdamW, the largest micro-batch that fits;
   *   <li>an image model is trained on ImageNet-1k for 90 epochs (1,281,167 training images, Russakovsky et al.
   *       2015; the 90-epoch ResNet schedule of He et al. 2016 and Goyal et al. 2017, arXiv:1706.02677) at its
   *       reference resolution, FP16 mixed precision, SGD with momentum, 32 images per GPU (Goyal et al.'s
   *       per-GPU batch).
   * </ul>
   *
   * <pre>{@code
   * Recommendation rec = GpuSizer.forModel("resnet50").recommend();
   * }</pre>
   *
   * @throws IllegalArgumentException for an unknown id (naming the closest known ones), or a model with no
   *     textbook workload (recurrent and generic models: describe the job with {@link #forTask(Task)})
   */
  public static Sizer forModel(String presetId) {
    return forPreset(presetId);
  }

  /**
   * The micro-batch {@link Sizer#recommend()} would run the task at on this hardware and layout when the task leaves
   * it open: the largest that fits at the high end of the memory estimate's interval ({@link Fit#FITS}), of the
   * micro-batches the search tries (dividing each rank's share of a global batch; without one, up to 32 samples per
   * GPU in training, and for offline inference up to the sequences each replica has), with the task's other
   * settings kept; where the task chose its micro-batch, none larger. Empty if none fits.
   *
   * <pre>{@code
   * OptionalInt mb = GpuSizer.largestMicroBatch(task, Hardware.of(v100, 8, 1), Layout.dataParallel(8),
   *     Estimator.defaults());
   * }</pre>
   *
   * @throws IllegalArgumentException if the hardware cannot run the task at all or the layout does not fit it
   */
  public static OptionalInt largestMicroBatch(Task task, Hardware hardware, Layout layout, Estimator estimator) {
    checkNotNull(task, "task");
    checkNotNull(hardware, "hardware");
    checkNotNull(layout, "layout");
    checkNotNull(estimator, "estimator");
    for (int mb : LayoutSearch.microBatchesOf(task, LayoutSearch.usefulBatch(task), layout.dataParallel())) {
      Task t = mb == task.microBatch() ? task : task.toBuilder().microBatch(mb).build();
      if (estimator.memory(t, hardware, layout).fit() == Fit.FITS) {
        return OptionalInt.of(mb);
      }
    }
    return OptionalInt.empty();
  }

  private static Sizer forPreset(String presetId) {
    ModelSpec model = Presets.get(checkNotNull(presetId, "presetId"));
    if (model instanceof Transformer) {
      Transformer t = (Transformer) model;
      return forTask(Task.pretraining(t).tokens(CHINCHILLA_TOKENS_PER_PARAMETER * t.parameters())
          .build());
    }
    if (model instanceof ConvNet) {
      ConvNet c = (ConvNet) model;
      return forTask(Task.pretraining(c).dataset(Dataset.IMAGENET_1K).epochs(RESNET_EPOCHS)
          .imageSize(c.referenceResolution()).microBatch(GOYAL_IMAGES_PER_GPU)
          .precision(PrecisionMode.FP16_MIXED).optimizer(Optimizer.SGD_MOMENTUM).build());
    }
    throw new IllegalArgumentException("preset '" + presetId + "' (" + model.getClass().getSimpleName()
        + ") has no textbook workload; describe the job with forTask(Task)");
  }
}
