package io.github.gpusizer.catalog;

/** Who makes an accelerator. */
public enum Vendor {
  NVIDIA,
  AMD,
  GOOGLE,
  INTEL
}
