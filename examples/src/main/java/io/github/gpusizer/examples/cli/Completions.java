package io.github.gpusizer.examples.cli;

import io.github.gpusizer.examples.support.Choices;
import io.github.gpusizer.examples.support.Words;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The words shell completion offers for options that take one of a closed set ({@code completionCandidates} of
 * picocli's {@code @Option}): the {@link Words} tables themselves, so completion and parsing never disagree.
 */
final class Completions {
  private Completions() {}

  private abstract static class Of implements Iterable<String> {
    private final Choices<?> choices;

    Of(Choices<?> choices) {
      this.choices = choices;
    }

    @Override
    public Iterator<String> iterator() {
      return choices.words().iterator();
    }
  }

  static final class Tasks extends Of {
    Tasks() {
      super(Words.TASKS);
    }
  }

  static final class Precisions extends Of {
    Precisions() {
      super(Words.PRECISIONS);
    }
  }

  static final class Optimizers extends Of {
    Optimizers() {
      super(Words.OPTIMIZERS);
    }
  }

  static final class CheckpointingModes extends Of {
    CheckpointingModes() {
      super(Words.CHECKPOINTING);
    }
  }

  static final class Quant extends Of {
    Quant() {
      super(Words.QUANT);
    }
  }

  static final class ServingQuant extends Of {
    ServingQuant() {
      super(Words.SERVING_QUANT);
    }
  }

  static final class KvTypes extends Of {
    KvTypes() {
      super(Words.KV_TYPES);
    }
  }

  static final class Frameworks extends Of {
    Frameworks() {
      super(Words.FRAMEWORKS);
    }
  }

  static final class Engines extends Of {
    Engines() {
      super(Words.ENGINES);
    }
  }

  static final class Attention extends Of {
    Attention() {
      super(Words.ATTENTION);
    }
  }

  static final class Losses extends Of {
    Losses() {
      super(Words.LOSSES);
    }
  }

  static final class Dropouts extends Of {
    Dropouts() {
      super(Words.DROPOUT);
    }
  }

  static final class OnOff extends Of {
    OnOff() {
      super(Words.ON_OFF);
    }
  }

  static final class Objectives extends Of {
    Objectives() {
      super(Words.OBJECTIVES);
    }
  }

  /** {@code --format}'s values in lower case, as docs/cli.md writes them. */
  static final class Formats implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Stream.of(Format.values()).map(f -> f.name().toLowerCase(Locale.ROOT)).iterator();
    }
  }

  /** {@code completion}'s shells. */
  static final class Shells implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return List.of("bash", "zsh").iterator();
    }
  }
}
