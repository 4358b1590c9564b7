package io.github.gpusizer.core.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.core.model.Presets;
import org.junit.jupiter.api.Test;

class DatasetTest {

  @Test
  void imagenet_has_its_published_training_set() {
    assertThat(Dataset.IMAGENET_1K.samples()).isEqualTo(1_281_167);
    assertThat(Dataset.IMAGENET_1K.sizeOnDisk()).isEqualTo(DataSize.ofGB(138));
    assertThat(Dataset.get("ImageNet-1k")).isSameAs(Dataset.IMAGENET_1K);
  }

  @Test
  void a_task_over_a_data_set_reads_its_samples_every_epoch_and_knows_its_size() {
    // GIVEN ResNet-50 for 90 epochs of ImageNet
    Task t = Task.pretraining(Presets.get("resnet50")).dataset(Dataset.IMAGENET_1K).epochs(90).build();
    // THEN the work is 90 epochs of samples and the disk holds the data set
    assertThat(t.samples()).hasValue(1_281_167.0 * 90);
    assertThat(t.datasetSize()).contains(DataSize.ofGB(138));
  }

  @Test
  void an_unknown_data_set_lists_the_known_ones() {
    assertThatThrownBy(() -> Dataset.get("cifar"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown data set 'cifar'; known: imagenet-1k, coco-2017, pascal-voc-2012");
  }

  @Test
  void a_name_without_its_suffix_names_the_data_set_it_begins() {
    assertThat(Dataset.get("ImageNet")).isEqualTo(Dataset.IMAGENET_1K);
    assertThat(Dataset.get("coco")).isEqualTo(Dataset.COCO_2017);
    assertThat(Dataset.get("pascal-voc")).isEqualTo(Dataset.PASCAL_VOC_2012);
    // a word that begins no name, or only part of a word, names nothing
    assertThatThrownBy(() -> Dataset.get("pascal-v")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Dataset.get("")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void a_misspelt_data_set_gets_the_closest_name() {
    assertThatThrownBy(() -> Dataset.get("imagenet-1l"))
        .hasMessage("unknown data set 'imagenet-1l'; known: imagenet-1k, coco-2017, pascal-voc-2012; "
            + "did you mean: imagenet-1k?");
    assertThatThrownBy(() -> Dataset.get("imagnet")).hasMessageEndingWith("did you mean: imagenet-1k?");
  }

  @Test
  void rejects_an_empty_data_set() {
    assertThatThrownBy(() -> new Dataset("empty", 0, DataSize.ofGB(1), "test"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("empty: samples must be > 0, was 0");
  }
}
