package io.github.gpusizer.core.estimate;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.core.model.ConvNet;

/** CPU cores, RAM and disk one node needs around its GPUs, each with the rule that gave it. */
final class HostSizer {
  /** The guide the 10–12 cores per GPU come from, by its public name. */
  private static final String AI_GUIDE = "Baidu AIStudio's GPU guide";

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

  /**
   * Host memory of one GPU process before any model: the CUDA runtime and PyTorch load their kernel images and cuDNN
   * into host memory on first use, about 1–2 GB (pytorch/pytorch#12873: 1.1 GB on the first {@code .to("cuda")},
   * 1.9 GB resident after a convolution; pytorch/pytorch#19397: "+2 GB in my RAM" for a tiny model); 2 GiB per
   * process.
   */
  static final DataSize PER_PROCESS = DataSize.ofGiB(2);

  /** An allowance for the operating system, the launcher and logging on each node (not a measured figure). */
  static final DataSize OS = DataSize.ofGiB(4);

  private HostSizer() {}

  static HostSizing size(Job job, MemoryEstimate memory, double gpuSamplesPerSecond) {
    Hardware hw = job.hardware;
    int gpusInNode = Math.min(job.layout.gpus(), hw.gpusPerNode());
    int nodes = job.nodes;
    double perGpuRate = gpuSamplesPerSecond / job.layout.gpus();
    double ms = InputPipeline.cpuMsPerSample(job);
    boolean images = job.model instanceof ConvNet;
    boolean heavyPreprocessing = job.training && (images || ms > 0);

    // ---- cores
    int loaders = (int) Math.ceil(perGpuRate * ms / 1000);
    int perGpu = Math.max(1 + loaders, images ? IMAGE_CORES_PER_GPU : 1 + TEXT_LOADER_WORKERS);
    int cores = perGpu * gpusInNode;
    String coresWhy;
    if (images) {
      coresWhy = loaders + 1 > IMAGE_CORES_PER_GPU
          ? Text.fixed(perGpuRate, 0) + " images/s x " + Text.fixed(ms, 1) + " ms of CPU to decode and augment each = "
              + loaders + " loader cores + 1 for the training process"
          : "Baidu AIStudio's GPU guide: 10-12 per GPU for image decoding and augmentation (" + Text.fixed(perGpuRate, 0)
              + " images/s x " + Text.fixed(ms, 1) + " ms each needs only " + loaders + ", the floor covers bursts)";
    } else if (ms > 0) {
      coresWhy = Text.fixed(perGpuRate, 0) + " samples/s x " + Text.fixed(ms, 1) + " ms of CPU each = " + loaders
          + " loader cores + 1 for the training process";
    } else if (job.training) {
      coresWhy = "1 for the training process + " + TEXT_LOADER_WORKERS
          + " loader workers (Megatron-LM's default): the data is pre-tokenised, nothing to decode or augment; "
          + AI_GUIDE + "'s 10-12 per GPU are for image decoding and augmentation, cores = samples/s x ms of CPU per "
          + "sample";
    } else {
      coresWhy = "1 for the serving process + " + TEXT_LOADER_WORKERS + " for tokenising and scheduling requests "
          + "(the allowance of Megatron-LM's 2 default loader workers): nothing to decode or augment; " + AI_GUIDE
          + "'s 10-12 per GPU are for image decoding and augmentation, cores = samples/s x ms of CPU per sample";
    }
    String coresReason = cores + " cores: " + perGpu + " per GPU (" + coresWhy + ")";

    // ---- RAM
    long gpuMemory = job.gpu.memory().bytes() * gpusInNode;
    double checkpoint = checkpointBytes(job);
    long checkpointPerNode = (long) Math.ceil(checkpoint / nodes);
    long runtime = OS.bytes() + PER_PROCESS.bytes() * gpusInNode;
    long ram;
    HostSizing.RamRule rule;
    String ramReason;
    if (heavyPreprocessing) {
      rule = HostSizing.RamRule.AT_LEAST_GPU_MEMORY;
      ram = roundUpGiB(Math.max(gpuMemory, Math.max(checkpointPerNode, runtime)));
      ramReason = "RAM " + Text.size(ram) + ": at least the node's " + Text.size(gpuMemory) + " of GPU memory, "
          + "the deep-learning server guide's rule for training with heavy preprocessing (decoded and augmented batches queue in RAM)"
          + (checkpointPerNode > gpuMemory ? ", and room to stage a " + Text.size(checkpointPerNode) + " checkpoint"
              : "");
    } else {
      rule = HostSizing.RamRule.WEIGHTS_PIPELINE_AND_OS;
      ram = roundUpGiB(runtime + checkpointPerNode);
      ramReason = "RAM " + Text.size(ram) + ": " + Text.size(checkpointPerNode)
          + (job.training ? job.adapter ? " to stage the frozen base weights and the adapter's checkpoint"
                  : " to stage the node's checkpoint (weights and optimizer state)"
              : " of weights in the page cache (safetensors files are memory-mapped and copied to the GPUs)")
          + " + " + Text.size(PER_PROCESS.bytes() * gpusInNode) + " for " + gpusInNode + " GPU processes (CUDA "
          + "runtime and libraries) + " + Text.size(OS.bytes()) + " for the OS; "
          + (job.training ? "pre-tokenised batches take a few MB, so the deep-learning server guide's RAM >= GPU memory, meant for heavy "
              + "preprocessing, does not apply"
              : "the deep-learning server guide's RAM >= GPU memory is a rule for training with heavy preprocessing, not for serving");
    }

    // ---- disk
    long data = job.task.datasetSize().map(DataSize::bytes).orElse(0L);
    long disk = data + (long) Math.ceil(checkpoint) + DISK_EXTRA.bytes();
    double bytesPerSample = InputPipeline.bytesPerSample(job);
    double nodeSamples = gpuSamplesPerSecond / nodes;
    double nodeMBps = nodeSamples * bytesPerSample / 1e6;
    DataAccess access = !(job.training || images) ? DataAccess.LOADING_ONLY
        : images ? DataAccess.RANDOM_FILES : DataAccess.SEQUENTIAL_SHARDS;
    DiskType type;
    StringBuilder why = new StringBuilder();
    why.append("disk ").append(Text.size(disk)).append(": ").append(Text.size(data)).append(" data set + ")
        .append(diskStateText(job, checkpoint)).append(" + ").append(Text.size(DISK_EXTRA.bytes()))
        .append(" working room; ");
    if (access == DataAccess.LOADING_ONLY) {
      type = DiskType.SATA_SSD;
      why.append(type.label()).append(": the weights are read once, sequentially, at start-up");
    } else {
      type = slowestFor(access, bytesPerSample, nodeSamples);
      why.append(type.label()).append(": the GPUs read ").append(Text.fixed(nodeMBps, nodeMBps < 10 ? 2 : 0))
          .append(" MB/s per node as ").append(access.label());
      if (access == DataAccess.RANDOM_FILES) {
        why.append(" (").append(Text.fixed(nodeSamples, 0)).append(" files/s of ")
            .append(Text.fixed(bytesPerSample / 1e3, 0)).append(" kB; a hard disk reads ")
            .append(Text.fixed(DiskType.HDD.filesPerSecond(bytesPerSample), 0))
            .append(" such files/s at random, the deep-learning server guide: a 100-150 MB/s hard disk cannot keep a GPU fed)");
        DiskType packed = slowestFor(DataAccess.SEQUENTIAL_SHARDS, bytesPerSample, nodeSamples);
        if (packed.ordinal() < type.ordinal()) {
          why.append("; packed into sequential shards (WebDataset tar, TFRecord) a ").append(packed.label())
              .append(" would do");
        } else {
          why.append("; packing into shards (WebDataset tar, TFRecord) would not let a cheaper disk do");
        }
      }
      double volume = DiskType.NETWORK_VOLUME.readMBps(access, bytesPerSample);
      why.append("; a network volume at its baseline (gp3: 3,000 IOPS, 125 MiB/s) reads ")
          .append(Text.fixed(volume, 0)).append(" MB/s this way, ")
          .append(volume >= nodeMBps ? "enough" : "too little");
      if (nodeMBps > DiskType.NVME_SSD.readMBps(access, bytesPerSample)) {
        why.append("; even an NVMe SSD falls short: cache the data set in RAM or read from several disks");
      }
      if (data > 0 && data + runtime <= ram && job.task.samples().isPresent()
          && job.task.datasetSize().isPresent()) {
        why.append("; the ").append(Text.size(data)).append(" data set fits in the node's RAM page cache, so "
            + "epochs after the first read from memory");
      }
    }
    return new HostSizing(cores, DataSize.ofBytes(ram), DataSize.ofBytes(disk), type, access, rule, coresReason,
        ramReason, why.toString());
  }

  /** The slowest local disk that reads {@code samplesPerSecond} samples of {@code bytes} each, else NVMe. */
  static DiskType slowestFor(DataAccess access, double bytes, double samplesPerSecond) {
    double needMBps = samplesPerSecond * bytes / 1e6;
    for (DiskType t : new DiskType[] {DiskType.HDD, DiskType.SATA_SSD, DiskType.NVME_SSD}) {
      if (t.readMBps(access, bytes) >= needMBps) {
        return t;
      }
    }
    return DiskType.NVME_SSD;
  }

  /** A training checkpoint holds weights and optimizer state; a served model its weights. */
  static double checkpointBytes(Job job) {
    if (!job.training) {
      return baseWeightBytes(job);
    }
    double trainable = MemoryModel.trainableParameters(job);
    double stateBytes = job.precision.pureHalf() ? 2 : 4;
    double base = job.adapter ? baseWeightBytes(job) : 0;
    return base + trainable * (job.precision.weightBytes()
        + MemoryModel.optimizerBytesPerParameter(job, stateBytes));
  }

  /**
   * What {@link #checkpointBytes} holds on disk, in words: the weights to serve, a training checkpoint, or an
   * adapter's frozen base weights (read at start-up) beside its own small checkpoint.
   */
  private static String diskStateText(Job job, double checkpoint) {
    if (!job.training) {
      return Text.size((long) Math.ceil(checkpoint)) + " weights";
    }
    if (!job.adapter) {
      return Text.size((long) Math.ceil(checkpoint)) + " checkpoint";
    }
    double base = baseWeightBytes(job);
    return Text.size((long) Math.ceil(base)) + " base weights + " + Text.size((long) Math.ceil(checkpoint - base))
        + " adapter checkpoint";
  }

  /** The weights a run reads at start-up (an adapter's frozen base, a served model), in its compute precision. */
  private static double baseWeightBytes(Job job) {
    return job.model.parameters() * job.computeBytes;
  }

  private static long roundUpGiB(long bytes) {
    long gib = 1L << 30;
    return (bytes + gib - 1) / gib * gib;
  }
}
