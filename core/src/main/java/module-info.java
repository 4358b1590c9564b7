/** Workload model, estimators, cost model and the GpuSizer recommendation engine. */
module io.github.gpusizer.core {
  requires transitive io.github.gpusizer.catalog;
  requires transitive com.google.common;
  requires com.fasterxml.jackson.core;

  exports io.github.gpusizer.core;
  exports io.github.gpusizer.core.cost;
  exports io.github.gpusizer.core.estimate;
  exports io.github.gpusizer.core.model;
  exports io.github.gpusizer.core.serving;
  exports io.github.gpusizer.core.task;
}
