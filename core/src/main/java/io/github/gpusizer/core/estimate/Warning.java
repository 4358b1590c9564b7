package io.github.gpusizer.core.estimate;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.github.gpusizer.catalog.Gpu;
import io.github.gpusizer.core.task.PrecisionMode;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One thing to watch out for in an answer: a stable code to match on, how much it matters, what it is, and how to
 * act on it in the interface the reader uses (a command-line flag in the CLI, a method in the Java API).
 *
 * <pre>{@code
 * for (Warning w : option.warnings()) {
 *   System.out.println(w.severity() + " " + w.code() + ": " + w.text(Warning.Surface.API));
 * }
 * // WARNING cuda-version: the NVIDIA GeForce RTX 4090 needs CUDA 11.8 or newer and a driver that supports it;
 * //   rule out GPUs your stack cannot run with cudaVersion("12.1") on the sizer
 * }</pre>
 *
 * @param code a stable, lower-case, hyphenated identifier of the kind of warning ({@code "cuda-version"}); the
 *     message may change between releases, the code does not
 * @param severity how much it matters
 * @param message what the reader should know, in plain words and in no interface's terms
 * @param fix how to act on it, per interface; empty when there is nothing to set
 */
public record Warning(String code, Severity severity, String message, Optional<Fix> fix) {
  private static final Pattern CODE = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

  public Warning {
    checkArgument(CODE.matcher(checkNotNull(code, "code")).matches(),
        "warning code must be lower-case words joined by hyphens, was '%s'", code);
    checkNotNull(severity, "severity");
    checkArgument(!checkNotNull(message, "message").isBlank(), "warning message must not be blank");
    checkNotNull(fix, "fix");
  }

  /** A warning with nothing to set. */
  public static Warning of(String code, Severity severity, String message) {
    return new Warning(code, severity, message, Optional.empty());
  }

  /** A warning with a fix, given in the CLI's and the API's terms. */
  public static Warning of(String code, Severity severity, String message, String cliFix, String apiFix) {
    return new Warning(code, severity, message, Optional.of(new Fix(cliFix, apiFix)));
  }

  /**
   * That a task whose caller chose no precision runs in {@code asRun}, the best the GPU has, instead of the default
   * {@code asked} it cannot run ({@link io.github.gpusizer.core.task.Task#forGpu}).
   */
  public static Warning precisionFallback(Gpu gpu, PrecisionMode asked, PrecisionMode asRun) {
    return of("precision-fallback", Severity.INFO, "runs in " + asRun + " on the " + gpu.name() + ", which has no "
        + asked.compute() + " support (the best it has, since no precision was chosen)");
  }

  /** How much a warning matters, least first. */
  public enum Severity {
    /** Context: how a figure was reached, or a choice made for the user. */
    INFO,
    /** Costs time or money, or rests on an assumption the user should check. */
    WARNING,
    /** The run may fail: it may not fit, or the software stack may not run on the hardware. */
    CRITICAL
  }

  /** The interface a warning is read in. */
  public enum Surface {
    /** The {@code gpusizer} command line. */
    CLI,
    /** The Java API. */
    API
  }

  /**
   * How to act on a warning in each interface.
   *
   * @param cli the remedy in command-line terms ({@code "give --cuda VERSION"}); never a Java method
   * @param api the remedy in Java API terms ({@code "call cudaVersion(\"12.1\") on the sizer"})
   */
  public record Fix(String cli, String api) {
    public Fix {
      checkArgument(!checkNotNull(cli, "cli").isBlank(), "the CLI fix must not be blank");
      checkArgument(!checkNotNull(api, "api").isBlank(), "the API fix must not be blank");
    }

    /** The remedy in {@code surface}'s terms. */
    public String in(Surface surface) {
      return surface == Surface.CLI ? cli : api;
    }
  }

  /** The message followed by the fix in {@code surface}'s terms, if there is one. */
  public String text(Surface surface) {
    checkNotNull(surface, "surface");
    return fix.map(f -> message + "; " + f.in(surface)).orElse(message);
  }

  /** {@link #text(Surface) text(API)}. */
  @Override
  public String toString() {
    return text(Surface.API);
  }
}
