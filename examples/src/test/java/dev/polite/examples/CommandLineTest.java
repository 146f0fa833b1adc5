package dev.polite.examples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Help, usage and exit codes: nothing here sends a request. */
class CommandLineTest {

  @ParameterizedTest
  @ValueSource(strings = {"--help", "compare --help", "load --help"})
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
  })
  void badArgumentsGetTheUsageAndExitTwo(String args) {
    Cli cli = Cli.run(args.split(" "));

    assertThat(cli.exit).as(cli.toString()).isEqualTo(2);
    assertThat(cli.err).contains("Usage: polite-examples").doesNotContain("\tat ");
    assertThat(cli.out).isEmpty();
  }

  @Test
  void noCommandGetsTheUsageAndExitTwo() {
    Cli cli = Cli.run();

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("Usage: polite-examples", "compare", "load");
  }
}
