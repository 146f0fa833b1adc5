package dev.polite.examples.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code nodes} end to end through the CLI: real demo servers in process and a real redis-server
 * from the PATH, at half the reference's rates (limit 50/s, the client at 150/s) and 2 counted
 * seconds per scenario, so the run takes about 20 s and leaves the shared cores some room. The
 * bounds are the designs' own, with margin for a loaded machine: each alone admits about the
 * client's rate, the share and the shared design about the limit, the synced one between the
 * limit and limit + client rate × S (+ 10 % slack), the share falls to limit / N on one node, and
 * randomness alone rejects a few percent to a quarter (the reference: about 12 %).
 */
class NodesCommandTest {

  @Test
  void theFourDesignsOnTheSameTrafficBehaveAsTheReferenceSays() {
    Cli cli = Cli.run("nodes", "--json", "--seconds", "2", "--scale", "0.5", "--sync-intervals", "200,20,500",
        "--outage", "2");

    assertThat(cli.exit).as(cli.toString()).isZero();
    List<JsonNode> rows = cli.jsonLines();
    double limit = 50;
    double client = 150;
    // What the client managed to send (a late sender catches up, so a second may hold more).
    double sent = row(rows, "spread", "each alone, full limit").get("sent_per_second").asDouble();
    assertThat(sent).isBetween(0.85 * client, 1.3 * client);
    assertThat(admitted(rows, "spread", "each alone, full limit")).isBetween(0.95 * sent, sent);
    assertThat(admitted(rows, "spread", "each alone, limit / N")).isBetween(0.8 * limit, 1.1 * limit);
    assertThat(admitted(rows, "spread", "shared atomic")).isBetween(0.9 * limit, 1.1 * limit);
    assertThat(admitted(rows, "spread", "synced every 200 ms")).isBetween(limit, 1.1 * (limit + client * 0.2));
    assertThat(admitted(rows, "sync-interval", "synced every 20 ms"))
        .isLessThan(admitted(rows, "sync-interval", "synced every 500 ms"));
    assertThat(admitted(rows, "sync-interval", "synced every 500 ms")).isBetween(limit, 1.1 * (limit + client * 0.5));

    assertThat(admitted(rows, "one-node", "each alone, limit / N")).isBetween(0.8 * limit / 10, 1.2 * limit / 10);
    assertThat(admitted(rows, "one-node", "shared atomic")).isBetween(0.9 * limit, 1.1 * limit);

    JsonNode shared = row(rows, "store-down", "shared atomic");
    assertThat(shared.get("during_per_second").asDouble()).as("fails open").isGreaterThan(0.8 * client);
    assertThat(shared.get("before_per_second").asDouble()).isLessThan(1.1 * limit);
    JsonNode synced = row(rows, "store-down", "synced");
    assertThat(synced.get("during_per_second").asDouble()).as("the local share").isLessThan(0.8 * client);
    assertThat(synced.get("after_per_second").asDouble()).as("syncing again").isBetween(limit, 1.1 * (limit + client * 0.2));

    JsonNode randomness = row(rows, "randomness", "random spread");
    assertThat(randomness.get("rejected_percent").asDouble()).isBetween(2.0, 25.0);
    assertThat(rows).allSatisfy(row -> assertThat(row.get("failed").asLong()).as(row.toString()).isZero());
  }

  private static double admitted(List<JsonNode> rows, String scenario, String lane) {
    return row(rows, scenario, lane).get("admitted_per_second").asDouble();
  }

  private static JsonNode row(List<JsonNode> rows, String scenario, String lane) {
    return rows.stream()
        .filter(row -> row.get("scenario").asText().equals(scenario) && row.get("lane").asText().startsWith(lane))
        .findFirst().orElseThrow(() -> new AssertionError("no row " + scenario + " / " + lane + " in " + rows));
  }
}
