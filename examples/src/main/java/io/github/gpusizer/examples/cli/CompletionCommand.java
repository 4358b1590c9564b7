package io.github.gpusizer.examples.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code gpusizer completion bash|zsh}: the shell completion script of every command, option and closed set of
 * values, from picocli's {@link AutoComplete}. One script serves both shells: under zsh it loads zsh's
 * {@code bashcompinit} first.
 *
 * <pre>{@code
 * source <(java -jar gpusizer.jar completion bash)   # completes `gpusizer ...`, with gpusizer an alias or wrapper
 * }</pre>
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
    description = {"Print the shell completion script for gpusizer (bash or zsh).",
        "Load it with: source <(gpusizer completion bash), where gpusizer runs java -jar gpusizer.jar."})
final class CompletionCommand implements Callable<Integer> {
  enum Shell { BASH, ZSH }

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "bash|zsh", completionCandidates = Completions.Shells.class, description = "The shell: bash or zsh.")
  Shell shell;

  @Override
  public Integer call() {
    // picocli's script registers completion for bash and, through bashcompinit, for zsh
    String script = AutoComplete.bash(spec.root().name(), spec.root().commandLine());
    spec.commandLine().getOut().print(script);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
