package dev.polite.examples.lessons;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lessons redis-down} end to end: it starts (and freezes) a real redis-server from the
 * PATH. About 4 s, two of them Jedis's default 2 s read timeout, which is the lesson. Timing
 * tolerances are wide for a shared machine: the demo server's store fails open within 0.5 s of
 * its 20 ms timeout; Jedis's defaults wait 1.9 to 4 s for a frozen Redis. The twelve requests
 * are exact: 12, 0 and 5 allowed, the outage logged once in each mode.
 */
class LessonRedisDownTest {

  @Test
  void failingOpenIsFastOnlyWithShortTimeoutsAndEachModeDecidesAsTheReference() {
    Cli cli = Cli.run("lessons", "redis-down", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    List<JsonNode> rows = cli.jsonLines();
    assertThat(failOpen(rows, "not running", "ours").get("seconds").asDouble()).isLessThan(0.5);
    assertThat(failOpen(rows, "not running", "Jedis defaults").get("seconds").asDouble())
        .as("Jedis does not retry a refused connection").isLessThan(1.0);
    assertThat(failOpen(rows, "frozen", "ours").get("seconds").asDouble()).isLessThan(0.5);
    assertThat(failOpen(rows, "frozen", "Jedis defaults").get("seconds").asDouble())
        .as("Jedis's default 2 s read timeout").isBetween(1.9, 4.0);
    for (JsonNode row : rows) {
      if (row.get("measure").asText().equals("fail open")) {
        assertThat(row.get("allowed").asBoolean()).isTrue();
      }
    }

    List<JsonNode> quick = rows.stream().filter(row -> row.get("measure").asText().equals("12 quick requests")).toList();
    assertThat(quick).extracting(row -> row.get("when_down").asText() + "=" + row.get("allowed").asInt())
        .containsExactly("open=12", "closed=0", "local=5");
    assertThat(quick).allSatisfy(row -> {
      assertThat(row.get("allowed").asInt()).isEqualTo(row.get("reference").asInt());
      assertThat(row.get("outage_logged").asInt()).as("the transition logged once").isEqualTo(1);
    });
  }

  private static JsonNode failOpen(List<JsonNode> rows, String redis, String client) {
    return rows.stream()
        .filter(row -> row.get("measure").asText().equals("fail open"))
        .filter(row -> row.get("redis").asText().startsWith(redis) && row.get("client").asText().startsWith(client))
        .findFirst().orElseThrow(() -> new AssertionError("no row " + redis + " / " + client + " in " + rows));
  }
}
