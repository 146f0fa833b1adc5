package dev.polite.examples.lessons;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lessons naive} end to end, with a real redis-server the command starts (on the PATH;
 * CI installs it). The naive limiter's lines are the reference's exactly (its failures are
 * deterministic: the shared-store reads all land before any write); the demo server's answers are
 * the limit itself, within none: one bucket of 10 for the client in every situation.
 */
class LessonNaiveTest {

  @Test
  void naiveFailsAllFourWaysAndTheDemoServerHoldsEach() {
    Cli cli = Cli.run("lessons", "naive", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    List<JsonNode> rows = cli.jsonLines();
    assertThat(accepted(rows, "window boundary", "naive").asInt()).isEqualTo(20);
    assertThat(accepted(rows, "window boundary", "demo server token-bucket").asInt()).isEqualTo(10);
    assertThat(accepted(rows, "window boundary", "demo server sliding-log").asInt()).isEqualTo(10);

    assertThat(accepted(rows, "four servers", "naive").asInt()).isEqualTo(40);
    assertThat(accepted(rows, "four servers", "demo server token-bucket, four nodes on one Redis").asInt())
        .as("four nodes share one bucket of 10").isEqualTo(10);

    JsonNode naiveProxy = accepted(rows, "behind a proxy", "naive");
    assertThat(naiveProxy.toString()).isEqualTo("{\"asha\":5,\"ben\":5,\"chen\":0}");
    JsonNode demoProxy = accepted(rows, "behind a proxy", "demo server token-bucket, trusted proxy");
    assertThat(demoProxy.toString()).isEqualTo("{\"asha\":5,\"ben\":5,\"chen\":5}");
    JsonNode spoof = row(rows, "spoofed leftmost X-Forwarded-For", "demo server token-bucket, trusted proxy");
    assertThat(spoof.get("accepted").asInt()).as("chen's bucket had 5 left").isEqualTo(5);
    assertThat(spoof.get("key_admitted").asInt()).isEqualTo(10);
    assertThat(spoof.get("spoofed_keys").asInt()).as("no key chosen by the leftmost entry").isZero();

    JsonNode naiveStore = row(rows, "shared store", "naive GET, check, SET on Redis");
    assertThat(naiveStore.get("accepted").asInt()).isEqualTo(20);
    assertThat(naiveStore.get("stored").asInt()).isEqualTo(1);
    JsonNode lua = row(rows, "shared store", "demo server token-bucket Lua script");
    assertThat(lua.get("accepted").asInt()).isEqualTo(10);
    assertThat(lua.get("stored_tokens").asDouble()).as("what refilled during the run").isLessThan(1.0);
  }

  @Test
  void linesCarryTheReferenceBesideOurs() {
    Cli cli = Cli.run("lessons", "naive");

    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.out)
        .contains("1. window boundary: 20 of 20 accepted within 0.1 s (limit is 10 per 10 s)")
        .contains("2. four servers:    40 of 40 accepted in one window (each server counted alone)")
        .contains("3. behind a proxy:  accepted asha 5/5, ben 5/5, chen 0/5 - three users share one counter")
        .contains("4. shared store:    20 of 20 accepted, and the stored count says 1")
        .contains("reference: 20 of 20").contains("reference: 40 of 40");
  }

  private static JsonNode accepted(List<JsonNode> rows, String situation, String limiter) {
    return row(rows, situation, limiter).get("accepted");
  }

  private static JsonNode row(List<JsonNode> rows, String situation, String limiter) {
    return rows.stream()
        .filter(row -> row.get("situation").asText().equals(situation) && row.get("limiter").asText().equals(limiter))
        .findFirst().orElseThrow(() -> new AssertionError("no row " + situation + " / " + limiter + " in " + rows));
  }
}
