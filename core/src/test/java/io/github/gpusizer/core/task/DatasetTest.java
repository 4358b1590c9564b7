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
  void rejects_an_empty_data_set() {
    assertThatThrownBy(() -> new Dataset("empty", 0, DataSize.ofGB(1), "test"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("empty: samples must be > 0, was 0");
  }
}
