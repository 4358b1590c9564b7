package io.github.gpusizer.examples.cli;

/** How a command prints its result: an aligned table for people, JSON or CSV for programs. */
public enum Format {
  TABLE,
  JSON,
  CSV,
  /** {@code recommend} only: a SkyPilot task YAML for the best option ({@link SkyPilotTask}). */
  SKYPILOT
}
