package io.github.gpusizer.catalog;

/** The kind of device memory; high-bandwidth stacks (HBM) or graphics DRAM (GDDR). */
public enum MemoryType {
  GDDR5,
  GDDR5X,
  GDDR6,
  GDDR6X,
  GDDR7,
  HBM2,
  HBM2E,
  HBM3,
  HBM3E
}
