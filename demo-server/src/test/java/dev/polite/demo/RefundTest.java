package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.demo.internal.RedisProcess;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Refunds with {@code --cost-header} give back at most what the caller reserved (named in the
 * header) and has not had back, for every algorithm that takes refunds, in memory and in a shared
 * Redis (a real redis-server on an ephemeral port). A refund used to refill the bucket whatever
 * was reserved: a client spent its 10 with plain requests, sent {@code X-Cost: -10}, and had 10
 * more, for ever.
 *
 * <p>Limit 10 an hour, so a unit takes 6 minutes to come back: the memory store's clock stands
 * still, and Redis's own moves by milliseconds during the test, refilling nothing whole.
 */
class RefundTest extends ServedDemoTest {
  private static final List<Algorithm> REFUNDERS = List.of(Algorithm.TOKEN_BUCKET, Algorithm.GCRA, Algorithm.LEAKY_METER);
  private static RedisProcess redis;

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisProcess.start();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  private List<DemoServer> servers(Algorithm algorithm, String key) {
    List<DemoServer> servers = new ArrayList<>();
    DemoServerConfig.Builder builder = DemoServer.builder().algorithm(algorithm).limit(10).window(Duration.ofHours(1))
        .costHeader("X-Cost");
    servers.add(start(builder));
    servers.add(start(builder.store(redis.uri()).whenDown(WhenDown.CLOSED).redisTimeout(Duration.ofSeconds(1))));
    return servers;
  }

  private static long remaining(HttpResponse<String> answer) throws Exception {
    return JSON.readTree(answer.body()).get("remaining").asLong();
  }

  @Test
  void aRefundOfUnitsNeverReservedIsRefusedAndSpendsNothingBack() throws Exception {
    for (Algorithm algorithm : REFUNDERS) {
      String key = "spender-" + algorithm.cliName();
      for (DemoServer server : servers(algorithm, key)) {
        String where = algorithm.cliName() + " in " + server.config().store();
        for (int i = 0; i < 10; i++) {
          assertThat(get(server, "/api/a", "X-Api-Key", key).statusCode()).as(where).isEqualTo(200);
        }
        assertThat(get(server, "/api/a", "X-Api-Key", key).statusCode()).as(where + ": spent").isEqualTo(429);

        HttpResponse<String> refund = get(server, "/api/a", "X-Api-Key", key, "X-Cost", "-10");
        assertThat(refund.statusCode()).as(where + ": plain requests reserve nothing to give back").isEqualTo(409);
        assertThat(refund.body()).contains("X-Cost", "nothing");
        assertThat(get(server, "/api/a", "X-Api-Key", key).statusCode()).as(where + ": still spent").isEqualTo(429);
      }
    }
  }

  @Test
  void aRefundGivesBackAtMostWhatWasReservedAndOnlyOnce() throws Exception {
    for (Algorithm algorithm : REFUNDERS) {
      String key = "reserver-" + algorithm.cliName();
      for (DemoServer server : servers(algorithm, key)) {
        String where = algorithm.cliName() + " in " + server.config().store();
        assertThat(remaining(get(server, "/api/a", "X-Api-Key", key, "X-Cost", "4"))).as(where).isEqualTo(6);
        for (int i = 0; i < 6; i++) {
          assertThat(get(server, "/api/a", "X-Api-Key", key).statusCode()).as(where).isEqualTo(200);
        }
        HttpResponse<String> refund = get(server, "/api/a", "X-Api-Key", key, "X-Cost", "-10");
        assertThat(refund.statusCode()).as(where).isEqualTo(200);
        JsonNode body = JSON.readTree(refund.body());
        assertThat(body.get("refunded").asLong()).as(where + ": what was reserved, not what was asked").isEqualTo(4);
        assertThat(body.get("remaining").asLong()).as(where).isEqualTo(4);
        assertThat(get(server, "/api/a", "X-Api-Key", key, "X-Cost", "-1").statusCode())
            .as(where + ": settled already").isEqualTo(409);

        // a reservation settled in two parts, as a streamed answer is
        assertThat(remaining(get(server, "/api/a", "X-Api-Key", key, "X-Cost", "4"))).as(where).isZero();
        assertThat(JSON.readTree(get(server, "/api/a", "X-Api-Key", key, "X-Cost", "-1").body()).get("refunded").asLong())
            .as(where).isEqualTo(1);
        assertThat(JSON.readTree(get(server, "/api/a", "X-Api-Key", key, "X-Cost", "-3").body()).get("refunded").asLong())
            .as(where).isEqualTo(3);
        assertThat(get(server, "/api/a", "X-Api-Key", key, "X-Cost", "-1").statusCode()).as(where).isEqualTo(409);

        JsonNode refunds = JSON.readTree(get(server, "/stats?top=0").body()).get("refunds");
        assertThat(refunds).as(where + ": /stats counts refunds").isNotNull();
        assertThat(refunds.get("given").asLong()).as(where).isEqualTo(3);
        assertThat(refunds.get("clamped").asLong()).as(where + ": -10 with 4 reserved").isEqualTo(1);
        assertThat(refunds.get("refused").asLong()).as(where).isEqualTo(2);
        assertThat(refunds.get("units").asLong()).as(where).isEqualTo(8);
        assertThat(server.stats().admitted()).as(where + ": refunds are not requests").isEqualTo(8);
      }
    }
  }
}
