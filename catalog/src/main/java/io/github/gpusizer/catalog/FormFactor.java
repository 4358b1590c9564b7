package io.github.gpusizer.catalog;

/** How an accelerator is built into a server; decides its links and power. */
public enum FormFactor {
  /** NVIDIA SXM module on an HGX/DGX board, NVLink between all GPUs of the board. */
  SXM,
  /** Data-centre PCIe card; NVLink only through an optional bridge between pairs. */
  PCIE,
  /** OCP Accelerator Module (AMD Instinct MI250X, MI300X). */
  OAM,
  /** GeForce or workstation card built for desktops, PCIe only. */
  CONSUMER,
  /** CPU and GPU on one module (NVIDIA Grace Hopper). */
  SUPERCHIP,
  /** A Google TPU chip, reached only as a cloud service. */
  TPU
}
