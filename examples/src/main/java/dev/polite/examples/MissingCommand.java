package dev.polite.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What a command made of subcommands says when given none: one line naming them, taken from
 * picocli's spec so that it names exactly the subcommands there are (a new one is named without
 * being listed twice), then the usage, both on stderr; exit code 2, a bad command line.
 *
 * <p>Usage: {@code return MissingCommand.report(spec, "lesson");} prints {@code Missing lesson:
 * naive, algorithms, race, redis-down, refund or help LESSON.} and the usage.
 */
public final class MissingCommand {
  private MissingCommand() {}

  /**
   * Prints {@link #line} and the usage of {@code spec}'s command on its stderr.
   *
   * @param noun what a subcommand is called, such as {@code command} or {@code lesson}
   * @return 2, the exit code of a bad command line
   */
  public static int report(CommandSpec spec, String noun) {
    CommandLine commandLine = spec.commandLine();
    commandLine.getErr().println(line(spec, noun));
    commandLine.usage(commandLine.getErr());
    return 2;
  }

  /**
   * {@code Missing NOUN: a, b or help NOUN.}: the subcommands in the order declared, the help
   * command last, in the form it is given.
   */
  static String line(CommandSpec spec, String noun) {
    List<String> names = new ArrayList<>();
    boolean help = false;
    for (Map.Entry<String, CommandLine> subcommand : spec.subcommands().entrySet()) {
      if (subcommand.getValue().getCommandSpec().helpCommand()) {
        help = true;
      } else {
        names.add(subcommand.getKey());
      }
    }
    return "Missing " + noun + ": " + String.join(", ", names)
        + (help ? " or help " + noun.toUpperCase(Locale.ROOT) : "") + ".";
  }
}
