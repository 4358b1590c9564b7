package io.github.gpusizer.examples.cli;

import io.github.gpusizer.examples.support.Printable;
import io.github.gpusizer.examples.support.Version;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * The {@code gpusizer} command-line tool: which GPUs, how many, where to rent them, how long and how much.
 *
 * <pre>{@code
 * java -jar gpusizer.jar recommend --model llama-2-7b --task lora --tokens 50M
 * int exit = GpuSizerCli.commandLine().setOut(out).setErr(err).execute("gpus", "--format", "json");
 * }</pre>
 *
 * <p>Exit codes: 0 success; {@value #EXIT_INFEASIBLE} a valid request that cannot be met (the message says what
 * would make it feasible); {@value #EXIT_BAD_INPUT} bad input of any kind (options, values, files);
 * {@value #EXIT_INTERNAL} an internal error (a bug: rerun with {@code --debug} and report the stack trace). Error
 * lines are {@link Printable#line printable}: a control character the user typed or a file held is shown escaped.
 */
@Command(name = "gpusizer", mixinStandardHelpOptions = true, versionProvider = GpuSizerCli.VersionProvider.class,
    sortOptions = false, usageHelpAutoWidth = true,
    description = "Sizes GPU hardware, cloud offerings, time and cost for deep-learning training, fine-tuning and "
        + "inference.",
    subcommands = {GpusCommand.class, OffersCommand.class, EstimateCommand.class, RecommendCommand.class,
        CompareCommand.class,
        ServeCommand.class,
        CheckCommand.class, CompletionCommand.class, ManPageGenerator.class, CommandLine.HelpCommand.class},
    footer = {"", "Exit codes: 0 ok, 1 the request cannot be met (the message says what would make it feasible), "
        + "2 bad input (options, values, files), 3 internal error (rerun with --debug)."})
public final class GpuSizerCli implements Runnable {
  public static final int EXIT_INFEASIBLE = 1;
  public static final int EXIT_BAD_INPUT = 2;
  public static final int EXIT_INTERNAL = 3;

  @Spec
  CommandSpec spec;

  /** {@code gpusizer --version}: the library version the build wrote into {@link Version}'s resource. */
  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"gpusizer " + Version.library()};
    }
  }

  @Option(names = "--debug", description = "Print the stack trace of an error.")
  boolean debug;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "a subcommand is required: gpus, offers, estimate, recommend, compare, serve, check or completion");
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line: case-insensitive enum values, one-line errors, exit codes as documented. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new GpuSizerCli());
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setParameterExceptionHandler(GpuSizerCli::handleParseException);
    cli.setExecutionExceptionHandler(GpuSizerCli::handleExecutionException);
    cli.setExecutionStrategy(GpuSizerCli::executeGuarded);
    return cli;
  }

  /**
   * The one top-level handler for what escapes a command as an {@link Error} (picocli hands only
   * {@link Exception}s to the exception handler): out of memory, a stack overflow, a linkage error. Exit
   * {@value #EXIT_INTERNAL} with one line, the stack trace only with {@code --debug}.
   */
  private static int executeGuarded(ParseResult parsed) {
    try {
      return new CommandLine.RunLast().execute(parsed); // exceptions go on to the handlers above
    } catch (Error e) {
      CommandLine cmd = deepest(parsed);
      PrintWriter err = cmd.getErr();
      String message = e instanceof OutOfMemoryError
          ? "out of memory (" + e.getMessage() + "); give the JVM more memory (-Xmx) or smaller inputs"
          : (e instanceof StackOverflowError ? "stack overflow" : e.toString())
              + " (rerun with --debug and report the stack trace)";
      err.println(Printable.line(commandName(cmd) + ": internal error: " + message));
      if (debug(parsed)) {
        e.printStackTrace(err);
      }
      err.flush();
      return EXIT_INTERNAL;
    }
  }

  private static CommandLine deepest(ParseResult parsed) {
    ParseResult r = parsed;
    while (r.subcommand() != null) {
      r = r.subcommand();
    }
    return r.commandSpec().commandLine();
  }

  private static int handleParseException(ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    PrintWriter err = cmd.getErr();
    StringBuilder message = new StringBuilder(commandName(cmd)).append(": ").append(firstLine(e.getMessage()));
    if (e instanceof UnmatchedArgumentException unmatched) {
      List<String> suggestions = unmatched.getSuggestions();
      if (!suggestions.isEmpty()) {
        message.append("; did you mean ").append(String.join(" or ", suggestions)).append('?');
      }
    }
    message.append(" (see '").append(commandName(cmd)).append(" --help')");
    err.println(Printable.line(message.toString()));
    if (Arrays.asList(args).contains("--debug")) {
      e.printStackTrace(err);
    }
    err.flush();
    return EXIT_BAD_INPUT;
  }

  private static int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    int code;
    String message;
    Throwable cause = e instanceof UncheckedIOException ? e.getCause() : e;
    if (cause instanceof InfeasibleException) {
      code = EXIT_INFEASIBLE;
      message = cause.getMessage();
    } else if (cause instanceof IllegalArgumentException) {
      code = EXIT_BAD_INPUT;
      message = cause.getMessage();
    } else if (cause instanceof IOException io) {
      code = EXIT_BAD_INPUT;
      message = describe(io);
    } else if (cause instanceof OutputFailedException) {
      code = EXIT_INTERNAL;
      message = cause.getMessage();
    } else {
      code = EXIT_INTERNAL;
      message = "internal error: " + cause + " (rerun with --debug and report the stack trace)";
    }
    err.println(Printable.line(commandName(cmd) + ": " + firstLine(message == null ? cause.toString() : message)));
    if (debug(parsed)) {
      e.printStackTrace(err);
    }
    err.flush();
    return code;
  }

  private static String describe(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "cannot read " + e.getMessage() + ": no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "cannot read " + e.getMessage() + ": permission denied";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return "cannot read " + fs.getFile() + ": " + fs.getReason();
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  private static boolean debug(ParseResult parsed) {
    for (ParseResult r = parsed; r != null; r = r.subcommand()) {
      if (r.hasMatchedOption("--debug")) {
        return true;
      }
    }
    return false;
  }

  private static String commandName(CommandLine cmd) {
    return cmd.getCommandSpec().qualifiedName();
  }

  private static String firstLine(String message) {
    return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
  }
}
