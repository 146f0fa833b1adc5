package dev.polite.examples;

import dev.polite.examples.compare.CompareCommand;
import dev.polite.examples.fleet.FleetCommand;
import dev.polite.examples.lessons.LessonsCommand;
import dev.polite.examples.load.LoadCommand;
import dev.polite.examples.nodes.NodesCommand;
import dev.polite.examples.overload.OverloadCommand;
import dev.polite.examples.zoo.ZooCommand;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The top of the command line: names the commands (its {@code subcommands}, and
 * {@code help COMMAND}), prints the version, and, given no command, names them and prints the
 * usage ({@link MissingCommand}).
 *
 * <p>Usage: {@code java -jar polite-examples.jar --help}
 */
@Command(name = "polite-examples",
    description = "Measures clients of a rate-limited API: the comparison demo, a load tool, the overload scenarios, the zoo of limiters, the reference's lessons, many server nodes on one limit, and a fleet of clients on one budget.",
    subcommands = {CompareCommand.class, LoadCommand.class, OverloadCommand.class, ZooCommand.class,
        LessonsCommand.class, NodesCommand.class, FleetCommand.class,
        HelpCommand.class},
    versionProvider = ExamplesVersion.class,
    usageHelpAutoWidth = true)
final class PoliteExamplesCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print the version and exit.")
  boolean version;

  @Override
  public Integer call() {
    return MissingCommand.report(spec, "command");
  }
}
