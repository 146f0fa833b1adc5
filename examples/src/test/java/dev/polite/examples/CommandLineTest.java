package dev.polite.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** Help, usage and exit codes: nothing here sends a request. */
class CommandLineTest {

  /** The top's help, the help command's, and every command's own, the commands from picocli's spec. */
  static Stream<String> everyHelp() {
    return Stream.concat(Stream.of("--help", "help", "help zoo"), commands().map(name -> name + " --help"));
  }

  @ParameterizedTest
  @MethodSource("everyHelp")
  void everyCommandHasHelp(String args) {
    Cli cli = Cli.run(args.split(" "));

    assertThat(cli.exit).isZero();
    assertThat(cli.out).startsWith("Usage: polite-examples");
  }

  @Test
  void loadHelpNamesTheClientsAndTheJsonFields() {
    Cli cli = Cli.run("load", "--help");

    assertThat(cli.out.replaceAll("\\s+", " ")).contains("--client", "polite", "naive", "retry-after", "paced", "--rate", "--burst",
        "--concurrency", "failsafe", "client, requests, succeeded, failed, rejected, sent, retries, seconds");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "load",
      "load --url http://127.0.0.1:1/api",
      "load --url http://127.0.0.1:1/api --requests many",
      "load --url not-a-url --requests 1",
      "load --url http://127.0.0.1:1/api --requests 1 --client impatient",
      "load --url http://127.0.0.1:1/api --requests 0",
      "load --url http://127.0.0.1:1/api --requests 1 --concurrency 0",
      "load --url http://127.0.0.1:1/api --requests 1 --client paced --rate -1",
      "compare --requests 0",
      "compare --clients naive,bogus",
      "compare --frobnicate",
      "frobnicate",
      "help frobnicate",
  })
  void badArgumentsAreOneLineAndExitTwo(String args) {
    Cli cli = Cli.run(args.split(" "));

    assertThat(cli.exit).as(cli.toString()).isEqualTo(2);
    assertThat(cli.err.lines()).as(cli.toString()).singleElement().asString()
        .startsWith("polite-examples").contains("--help')").doesNotContain("Usage:", "\tat ");
    assertThat(cli.out).isEmpty();
  }

  @Test
  void aBadFlagIsNamedWithTheCommandAndWhereItsHelpIs() {
    Cli cli = Cli.run("load", "--url", "http://127.0.0.1:1/api", "--requests", "1", "--frobnicate");

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).isEqualTo("polite-examples load: Unknown option: '--frobnicate' "
        + "(see 'polite-examples load --help')" + System.lineSeparator());
  }

  @Test
  void aMisspeltFlagIsNamedRatherThanTheRequiredOptionItLeftMissing() {
    Cli cli = Cli.run("load", "--url", "http://127.0.0.1:1/api", "--requets", "5");

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("Unknown option or argument: '--requets', '5'")
        .doesNotContain("Missing required");
  }

  @Test
  void anUnknownCommandIsCalledACommand() {
    Cli cli = Cli.run("frobnicate");

    assertThat(cli.err).startsWith("polite-examples: Unknown command: 'frobnicate'");
  }

  @Test
  void helpForACommandPrintsItsUsageAndExitsZero() {
    Cli cli = Cli.run("help", "load");

    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.err).isEmpty();
    assertThat(cli.out).startsWith("Usage: polite-examples load").contains("--url=URL", "--requests=N")
        .doesNotContain("Missing");
    assertThat(cli.out).isEqualTo(Cli.run("load", "--help").out);
  }

  @ParameterizedTest
  @ValueSource(strings = {"--version", "-V"})
  void versionIsTheProjectsVersion(String flag) {
    Cli cli = Cli.run(flag);

    assertThat(cli.exit).isZero();
    assertThat(cli.err).isEmpty();
    // The build stamps the version: never "null", "unknown" or an unfiltered ${project.version}.
    assertThat(cli.out.strip()).matches("polite-examples \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
  }

  @Test
  void aFileErrorNamesTheFile() throws Exception {
    Path file = Files.createTempFile("polite-examples", ".txt");
    try {
      Cli cli = Cli.run("compare", "--requests", "1", "--clients", "polite",
          "--report", file.resolve("report.html").toString());

      assertThat(cli.exit).as(cli.toString()).isEqualTo(1);
      assertThat(cli.err.lines()).singleElement().asString().isEqualTo("error: not a directory: " + file);
    } finally {
      Files.delete(file);
    }
  }

  @Test
  void noCommandGetsTheUsageAndExitTwo() {
    Cli cli = Cli.run();

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("Usage: polite-examples");
    String missing = cli.err.lines().findFirst().orElseThrow();
    assertThat(missing).startsWith("Missing command: ").endsWith(" or help COMMAND.");
    assertThat(commands()).as("every command is named").allMatch(name -> missing.matches(".*[ ,]" + name + "[ ,].*"));
  }

  /** The commands picocli knows, in the order declared, but for the help command. */
  private static Stream<String> commands() {
    return new CommandLine(new PoliteExamplesCommand()).getSubcommands().entrySet().stream()
        .filter(command -> !command.getValue().getCommandSpec().helpCommand()).map(Map.Entry::getKey);
  }
}
