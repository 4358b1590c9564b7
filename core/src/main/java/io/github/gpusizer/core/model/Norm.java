package io.github.gpusizer.core.model;

/** The normalisation layer a transformer uses; decides its parameter count (LayerNorm has a bias, RMSNorm not). */
public enum Norm {
  LAYER_NORM,
  RMS_NORM
}
