package dev.polite.examples.overload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code overload}: the simulated scenarios (deterministic) and the live discovery run against
 * the in-process demo server (structure and sanity only: a short real-time run on a shared
 * machine promises no timing).
 */
class OverloadCommandTest {
  private static final List<String> FIELDS = List.of(
      "scenario", "config", "sent_rps", "server_rejected", "goodput_rps", "local_drop", "recovery_s");

  @Test
  void simulatedScenariosGiveOneJsonRowPerScenarioAndConfig() {
    Cli cli = Cli.run("overload", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    List<JsonNode> rows = cli.jsonLines();
    assertThat(rows).hasSize(15);
    for (JsonNode row : rows) {
      assertThat(row.fieldNames()).toIterable().containsExactlyElementsOf(FIELDS);
    }
    assertThat(rows).extracting(row -> row.get("scenario").asText() + "/" + row.get("config").asText())
        .contains("B1.1/none", "B1.1/book", "B1.1/polite", "B1.2/polite", "B1.3/polite",
            "B1.3-0.5rps/polite", "discovery/none", "discovery/aimd", "discovery/cubic");
    JsonNode b11 = rows.stream().filter(r -> r.get("scenario").asText().equals("B1.1")
        && r.get("config").asText().equals("polite")).findFirst().orElseThrow();
    assertThat(b11.get("server_rejected").asDouble()).as("the target: at most 20 %% refused").isLessThanOrEqualTo(0.20);
    assertThat(b11.get("goodput_rps").asDouble()).isGreaterThanOrEqualTo(97);
  }

  @Test
  void simulatedTableHasAHeaderAndTheRows() {
    Cli cli = Cli.run("overload");

    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.out).contains("scenario     config   sent_rps   rejected   goodput local_drop recovery_s");
    assertThat(cli.out).containsPattern("discovery +cubic +\\d+\\.\\d +\\d+\\.\\d% +\\d+\\.\\d +\\d+\\.\\d% ");
  }

  @Test
  void liveDiscoveryGivesARowPerControllerAgainstTheDemoServer() {
    Cli cli = Cli.run("overload", "--live", "--seconds", "4", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    List<JsonNode> rows = cli.jsonLines();
    assertThat(rows).extracting(row -> row.get("config").asText()).containsExactly("aimd", "cubic");
    for (JsonNode row : rows) {
      assertThat(row.fieldNames()).toIterable().containsExactlyElementsOf(FIELDS);
      assertThat(row.get("scenario").asText()).isEqualTo("discovery");
      assertThat(row.get("sent_rps").asDouble()).as(row.toString()).isPositive().isLessThanOrEqualTo(60);
      assertThat(row.get("goodput_rps").asDouble()).as(row.toString()).isPositive();
      assertThat(row.get("server_rejected").asDouble()).as(row.toString()).isLessThan(0.5);
      assertThat(row.get("local_drop").asDouble()).as(row.toString()).isBetween(0.0, 1.0);
      assertThat(row.get("recovery_s").isNull() || row.get("recovery_s").asDouble() >= 0).isTrue();
    }
  }

  @Test
  void secondsOutOfRangeIsABadCommandLine() {
    Cli cli = Cli.run("overload", "--live", "--seconds", "1");

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("--seconds must be 2 to 3600, was 1");
  }

  @Test
  void liveAndSweepTogetherIsABadCommandLine() {
    Cli cli = Cli.run("overload", "--live", "--sweep");

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("--live and --sweep");
    assertThat(cli.out).isEmpty();
  }

  @Test
  void recoveryIsTheStartOfTheLastStretchInsideTheBand() {
    long[] settlesAt3 = {0, 5, 20, 20, 20, 20, 20, 20, 20, 20};
    // [t-5, t) averages: t=5: 13, 6: 17, 7: 20, ... within 18-22 from t = 7 on.
    assertThat(LiveDiscovery.recoverySeconds(settlesAt3)).isEqualTo(7);
    long[] endsOutside = {20, 20, 20, 20, 20, 20, 0};
    assertThat(LiveDiscovery.recoverySeconds(endsOutside)).isNaN();
    assertThat(LiveDiscovery.recoverySeconds(new long[] {20, 20, 20})).as("shorter than the window").isNaN();
    assertThat(LiveDiscovery.recoverySeconds(new long[] {20, 20, 20, 20, 20})).isEqualTo(5);
  }
}
