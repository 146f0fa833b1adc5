package dev.polite.examples.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code fleet} end to end through the command line (named for the lessons' pattern, as it starts
 * a real redis-server from the PATH as they do): two instances of four threads, 4 s per row, IETF
 * headers only, so three rows in about 20 s. It checks what must hold on any machine: the rows
 * exist in order; the shared row is refused at most 3 times (the target is 0; a margin for a
 * loaded machine); no call fails, Redis killed or not; the shared rows count their Redis round
 * trips (more than none: an instance that never asks Redis shares nothing).
 */
class LessonFleetTest {

  @Test
  void sharedRowsStayUnderTheLimitAndNoCallFailsWhenRedisIsKilled() {
    Cli cli = Cli.run("fleet", "--instances", "4", "--seconds", "4", "--headers", "ietf", "--in-process", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    JsonNode result = cli.lastJson();
    assertThat(result.get("command").asText()).isEqualTo("fleet");
    assertThat(result.get("instances_are").asText()).startsWith("isolated client instances in one process");
    List<JsonNode> rows = new ArrayList<>();
    result.get("rows").forEach(rows::add);
    assertThat(rows).extracting(row -> row.get("headers").asText() + " " + row.get("instances").asInt() + " "
        + row.get("mode").asText())
        .containsExactly("ietf 4 alone", "ietf 4 shared", "ietf 4 shared, Redis killed");
    assertThat(rows).allSatisfy(row -> {
      assertThat(row.get("ok").asLong()).as("calls answered 2xx: %s", row).isPositive();
      assertThat(row.get("failed").asLong()).as("failed calls: %s", row).isZero();
      assertThat(row.get("throughput_share").asDouble()).as("share of the limit: %s", row).isPositive();
      assertThat(row.get("p99_ms").asDouble()).isPositive();
    });

    JsonNode alone = rows.get(0);
    assertThat(alone.get("round_trips_per_call").isNull()).as("alone talks to no Redis").isTrue();
    assertThat(alone.get("targets_missed").isNull()).as("alone has no targets").isTrue();

    JsonNode shared = rows.get(1);
    // 0 is the target, and most runs meet it; a loaded machine's late Redis answers send
    // instances to pace alone for a while, and they may draw a few refusals (sdk-redis/README.md,
    // "When Redis is slow or down"). This bound catches a fleet that spends the budget once per instance: four
    // instances alone draw 18 to 20 % of the server's decisions.
    long calls = shared.get("calls").asLong();
    assertThat(shared.get("rejected").asLong()).as("shared with headers: 0 is the target; %s", shared)
        .isLessThanOrEqualTo(Math.max(3, calls / 10));
    assertThat(shared.get("round_trips_per_call").isNumber()).as(shared.toString()).isTrue();
    assertThat(shared.get("steady_round_trips_per_call").isNumber()).as(shared.toString()).isTrue();
    assertThat(shared.get("round_trips").asLong()).as("an instance that never asks Redis shares nothing").isPositive();
    assertThat(shared.get("p99_vs_alone_ms").isNumber()).isTrue();
    assertThat(shared.get("redis_fallback_share").asDouble()).isBetween(0.0, 1.0);

    JsonNode killed = rows.get(2);
    assertThat(killed.get("redis_outage").asText()).as("Redis killed and back within the run").matches("[0-9.]+-[0-9.]+ s");
    assertThat(killed.get("failed").asLong()).as("no call fails because Redis did: %s", killed).isZero();
    assertThat(killed.get("round_trips_per_call").isNumber()).isTrue();
  }

  @Test
  void aRunTooShortForASteadyStateIsRefused() {
    Cli cli = Cli.run("fleet", "--seconds", "1");

    assertThat(cli.exit).as(cli.toString()).isEqualTo(2);
    assertThat(cli.err).contains("--seconds must be at least 2");
  }
}
