package io.github.gpusizer.core.estimate;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.core.model.ConvNet;

/** CPU cores, RAM and disk one node needs around its GPUs. */
final class HostSizer {
  /**
   * Logical CPU cores per GPU for image work: "每块 GPU 配备至少 10~12 核心的 CPU" (seed 000: at least 10–12 cores per
   * GPU for multi-threaded asynchronous loading and preprocessing); the lower end is the floor.
   */
  static final int IMAGE_CORES_PER_GPU = 10;

  /**
   * Data-loader workers per GPU for pre-tokenised text: Megatron-LM's {@code --num-workers} default is 2; one more
   * core runs the training process itself.
   */
  static final int TEXT_LOADER_WORKERS = 2;

  /**
   * Free disk beyond data and checkpoints: "额外留出数十 GB 的空间" (seed 002: leave tens of GB extra); 50 GB, the
   * system disk of the cloud offerings in seed 000.
   */
  static final DataSize DISK_EXTRA = DataSize.ofGB(50);

  private HostSizer() {}

  static HostSizing size(Job job, MemoryEstimate memory, double gpuSamplesPerSecond) {
    Hardware hw = job.hardware;
    int gpusInNode = Math.min(job.layout.gpus(), hw.gpusPerNode());
    int nodes = job.nodes;
    double perGpuRate = gpuSamplesPerSecond / job.layout.gpus();
    double ms = InputPipeline.cpuMsPerSample(job);
    int loaders = (int) Math.ceil(perGpuRate * ms / 1000);
    boolean images = job.model instanceof ConvNet;
    int perGpu = Math.max(1 + loaders, images ? IMAGE_CORES_PER_GPU : 1 + TEXT_LOADER_WORKERS);
    int cores = perGpu * gpusInNode;

    // RAM: at least the node's GPU memory (seed 002: "至少和 GPU 内存大小相同的内存"), and enough to stage a checkpoint.
    long gpuMemory = job.gpu.memory().bytes() * gpusInNode;
    double checkpoint = checkpointBytes(job);
    long checkpointPerNode = (long) Math.ceil(checkpoint / nodes);
    long ram = roundUpGiB(Math.max(gpuMemory, checkpointPerNode));

    long data = job.task.datasetSize().map(DataSize::bytes).orElse(0L);
    long disk = data + (long) Math.ceil(checkpoint) + DISK_EXTRA.bytes();

    double bytesPerSample = InputPipeline.bytesPerSample(job);
    double nodeMBps = gpuSamplesPerSecond / nodes * bytesPerSample / 1e6;
    DiskType type = job.training || images
        ? (nodeMBps <= DiskType.HDD.typicalReadMBps() ? DiskType.HDD
            : nodeMBps <= DiskType.SATA_SSD.typicalReadMBps() ? DiskType.SATA_SSD : DiskType.NVME_SSD)
        : DiskType.SATA_SSD;
    String why = images
        ? (loaders + 1 > IMAGE_CORES_PER_GPU
            ? Text.fixed(perGpuRate, 0) + " samples/s x " + Text.fixed(ms, 1) + " ms of CPU each"
            : "10-12 cores per GPU for image loading, seed 000")
        : "1 for the training process + " + Math.max(loaders, TEXT_LOADER_WORKERS) + " loader workers";
    String reason = cores + " cores: " + perGpu + " per GPU (" + why + "); RAM " + Text.size(ram)
        + ": at least the node's " + Text.size(gpuMemory) + " of GPU memory"
        + (checkpointPerNode > gpuMemory ? " and room to stage a " + Text.size(checkpointPerNode) + " checkpoint" : "")
        + "; disk " + Text.size(disk) + ": " + Text.size(data) + " data set + "
        + Text.size((long) Math.ceil(checkpoint)) + " checkpoint + " + Text.size(DISK_EXTRA.bytes())
        + " working room; " + type
        + ": the GPUs read " + Text.fixed(nodeMBps, nodeMBps < 10 ? 2 : 0) + " MB/s per node";
    return new HostSizing(cores, DataSize.ofBytes(ram), DataSize.ofBytes(disk), type, reason);
  }

  /** A training checkpoint holds weights and optimizer state; a served model its weights. */
  static double checkpointBytes(Job job) {
    double n = job.model.parameters();
    if (!job.training) {
      return n * job.computeBytes;
    }
    double trainable = MemoryModel.trainableParameters(job);
    double stateBytes = job.precision.pureHalf() ? 2 : 4;
    double base = job.adapter ? n * job.computeBytes : 0;
    return base + trainable * (job.precision.weightBytes()
        + MemoryModel.optimizerBytesPerParameter(job, stateBytes));
  }

  private static long roundUpGiB(long bytes) {
    long gib = 1L << 30;
    return (bytes + gib - 1) / gib * gib;
  }
}
