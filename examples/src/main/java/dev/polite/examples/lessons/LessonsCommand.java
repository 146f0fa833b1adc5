package dev.polite.examples.lessons;

import dev.polite.examples.MissingCommand;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lessons}: the reference text's lessons, one subcommand each, every one printing its
 * numbers beside the reference's (or, with {@code --json}, one JSON object per measured thing).
 * A new lesson is one more class in {@code subcommands}.
 *
 * <p>Usage: {@code java -jar polite-examples.jar lessons algorithms --json}
 */
@Command(name = "lessons",
    description = "The reference text's lessons, runnable, each beside the reference's numbers.",
    subcommands = {NaiveLesson.class, AlgorithmsLesson.class, RaceLesson.class, RedisDownLesson.class,
        RefundLesson.class, HelpCommand.class},
    usageHelpAutoWidth = true)
public final class LessonsCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    return MissingCommand.report(spec, "lesson");
  }
}
