package io.github.gpusizer.core;

import io.github.gpusizer.catalog.DataSize;
import io.github.gpusizer.catalog.Money;
import io.github.gpusizer.core.task.Checkpointing;
import io.github.gpusizer.core.task.Layout;
import io.github.gpusizer.core.task.ZeroStage;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;

/** Plain-language formatting of the sizer's numbers: hours, money, layouts. */
final class Texts {
  private Texts() {}

  /** {@code "45 min"}, {@code "14.2 h"}, {@code "1,250 h"}. */
  static String duration(Duration d) {
    double hours = d.toMillis() / 3_600_000.0;
    if (hours < 1) {
      return String.format(Locale.ROOT, "%.0f min", Math.ceil(d.toMillis() / 60_000.0));
    }
    if (hours < 1000) {
      return String.format(Locale.ROOT, "%.1f h", hours);
    }
    return String.format(Locale.ROOT, "%,.0f h", hours);
  }

  /** {@code "31 h 14 min"}, exact to the minute (rounded up). */
  static String hoursMinutes(Duration d) {
    long minutes = d.toMinutes() + (d.equals(Duration.ofMinutes(d.toMinutes())) ? 0 : 1);
    long h = minutes / 60;
    long m = minutes % 60;
    String hours = String.format(Locale.ROOT, "%,d h", h);
    return h == 0 ? m + " min" : m == 0 ? hours : hours + " " + m + " min";
  }

  /** {@code "2,310.00 CNY"}: grouped, rounded half-even to the currency's minor unit. */
  static String money(Money m) {
    int digits = Math.max(0, m.currency().getDefaultFractionDigits());
    return String.format(Locale.ROOT, "%,." + digits + "f %s",
        m.amount().setScale(digits, RoundingMode.HALF_EVEN), m.currency().getCurrencyCode());
  }

  /** {@code "38.2 GiB"}. */
  static String size(DataSize s) {
    return s.toString();
  }

  /**
   * {@code "ZeRO-3/FSDP over 8 GPUs"}, {@code "DDP with tensor parallel 2 over 8 GPUs"}, {@code "1 GPU"}; for
   * inference {@code "4 replicas with tensor parallel 2 over 8 GPUs"}.
   */
  static String layout(Layout layout, boolean training) {
    StringBuilder s = new StringBuilder();
    if (!training) {
      if (layout.dataParallel() > 1) {
        s.append(layout.dataParallel()).append(" replicas");
      }
    } else if (layout.zero() != ZeroStage.NONE) {
      s.append(layout.zero() == ZeroStage.STAGE_3 ? "ZeRO-3/FSDP" : "ZeRO-" + layout.zero().number());
      if (layout.hybridSharded()) {
        s.append(" hybrid-sharded in groups of ").append(layout.shardGroup());
      }
    } else if (layout.dataParallel() > 1) {
      s.append("DDP");
    }
    if (layout.tensorParallel() > 1) {
      s.append(s.length() > 0 ? " with " : "").append("tensor parallel ").append(layout.tensorParallel());
    }
    if (layout.pipelineParallel() > 1) {
      s.append(s.length() > 0 ? ", " : "").append("pipeline ").append(layout.pipelineParallel());
    }
    int gpus = layout.gpus();
    if (s.length() == 0) {
      return gpus == 1 ? "1 GPU" : gpus + " GPUs";
    }
    s.append(" over ").append(plural(gpus, "GPU", "GPUs"));
    if (layout.nodes() > 1) {
      s.append(" in ").append(layout.nodes()).append(" nodes");
    }
    return s.toString();
  }

  /** {@code "ZeRO-3/FSDP over 8 GPUs, full checkpointing, micro-batch 1"}; for inference {@code "..., batch of 4"}. */
  static String recipe(Layout layout, Checkpointing checkpointing, int microBatch, boolean training) {
    StringBuilder s = new StringBuilder(layout(layout, training));
    if (checkpointing != Checkpointing.NONE && training) {
      s.append(", ").append(checkpointing == Checkpointing.FULL ? "full" : "selective").append(" checkpointing");
    }
    s.append(training ? ", micro-batch " : ", batch of ").append(microBatch);
    return s.toString();
  }

  /** {@code "1 GPU"}, {@code "14,264 GPUs"}. */
  static String plural(long n, String one, String many) {
    return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? one : many);
  }
}
