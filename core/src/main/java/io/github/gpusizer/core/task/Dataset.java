package io.github.gpusizer.core.task;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.EditDistance;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A training set: how many samples one epoch reads and how much disk it takes, which size the input pipeline, the
 * disk and the job's length.
 *
 * <pre>{@code
 * Task t = Task.pretraining(Presets.get("resnet50")).dataset(Dataset.IMAGENET_1K).epochs(90).build();
 * }</pre>
 *
 * @param name short name
 * @param samples samples in one epoch
 * @param sizeOnDisk the data set as downloaded
 * @param source where the two figures come from
 */
public record Dataset(String name, long samples, DataSize sizeOnDisk, String source) {

  /** ILSVRC-2012 classification training set: 1,281,167 images (Russakovsky et al. 2015), 138 GB tar. */
  public static final Dataset IMAGENET_1K = new Dataset("imagenet-1k", 1_281_167, DataSize.ofGB(138),
      "Russakovsky et al. 2015, IJCV 115 (1,281,167 training images); image-net.org download page "
          + "(ILSVRC2012_img_train.tar, 138 GB)");

  /** COCO 2017 training images: 118,287 images, 18 GB zip (the seed's example of a mid-sized data set). */
  public static final Dataset COCO_2017 = new Dataset("coco-2017", 118_287, DataSize.ofGB(18),
      "cocodataset.org download page: 2017 Train images [118K/18GB]; Lin et al. 2014 (Microsoft COCO)");

  /** PASCAL VOC 2012 detection trainval: 11,540 images in a 2 GB tar (the seed's example of a small data set). */
  public static final Dataset PASCAL_VOC_2012 = new Dataset("pascal-voc-2012", 11_540, DataSize.ofGB(2),
      "PASCAL VOC 2012 development kit: 11,540 trainval images for detection; training/validation data, 2 GB tar "
          + "(host.robots.ox.ac.uk/pascal/VOC/voc2012)");

  /** The data sets above. */
  public static final ImmutableList<Dataset> KNOWN = ImmutableList.of(IMAGENET_1K, COCO_2017, PASCAL_VOC_2012);

  /**
   * A known data set by name, case-insensitively; a name without its version or size suffix names the one data set
   * it begins ({@code imagenet} is {@code imagenet-1k}, {@code coco} is {@code coco-2017}).
   *
   * @throws IllegalArgumentException naming the known data sets, and the closest to a misspelt name, if there is
   *     none of that name
   */
  public static Dataset get(String name) {
    String key = checkNotNull(name, "name").strip().toLowerCase(java.util.Locale.ROOT);
    List<Dataset> begun = new ArrayList<>();
    for (Dataset d : KNOWN) {
      if (d.name.equals(key)) {
        return d;
      }
      if (!key.isEmpty() && d.name.startsWith(key + "-")) {
        begun.add(d);
      }
    }
    if (begun.size() == 1) {
      return begun.get(0);
    }
    String close = KNOWN.stream().map(Dataset::name)
        .filter(known -> Math.min(EditDistance.between(key, known), EditDistance.between(key, stem(known)))
            <= Math.max(2, key.length() / 3))
        .collect(Collectors.joining(", "));
    throw new IllegalArgumentException("unknown data set '" + name + "'; known: "
        + KNOWN.stream().map(Dataset::name).collect(Collectors.joining(", "))
        + (close.isEmpty() ? "" : "; did you mean: " + close + "?"));
  }

  /** A name without its last {@code -suffix} ({@code imagenet} of {@code imagenet-1k}). */
  private static String stem(String name) {
    int dash = name.lastIndexOf('-');
    return dash < 0 ? name : name.substring(0, dash);
  }

  public Dataset {
    checkArgument(!checkNotNull(name, "name").isBlank(), "data set needs a name");
    checkArgument(samples > 0, "%s: samples must be > 0, was %s", name, samples);
    checkArgument(checkNotNull(sizeOnDisk, "sizeOnDisk").bytes() > 0, "%s: size on disk must be > 0, was %s", name,
        sizeOnDisk);
    checkArgument(!checkNotNull(source, "source").isBlank(), "%s needs a source for its figures", name);
  }
}
