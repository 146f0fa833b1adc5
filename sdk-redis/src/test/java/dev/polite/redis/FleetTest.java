package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.internal.RedisProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Instances sharing one key's budget through a real Redis, against the real demo server (10 a
 * second, burst 10): real threads and time, since what is shared is a schedule on Redis's clock.
 */
class FleetTest {
  private static final Duration RUN = Duration.ofSeconds(3);

  private RedisProcess redis;
  private final List<RedisSharedState> states = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    redis = RedisProcess.start();
  }

  @AfterEach
  void stop() {
    states.forEach(RedisSharedState::close);
    redis.close();
  }

  private RedisSharedState state() {
    RedisSharedState state = RedisSharedState.builder(redis.uri()).prefix("fleet-test:").build();
    synchronized (states) {
      states.add(state);
    }
    return state;
  }

  private static DemoServer server(HeaderStyle headers) {
    return DemoServer.builder().limit(10).window(Duration.ofSeconds(1)).headers(headers).start();
  }

  @Test
  void fourInstancesSpendOneBudgetWithoutARefusal() throws Exception {
    try (DemoServer server = server(HeaderStyle.IETF)) {
      FleetRun run = FleetRun.run(server.url(), 4, 3, RUN, this::state);
      long admitted = server.stats().admitted();
      assertThat(run.failures).isEmpty();
      assertThat(server.stats().rejected()).as("refused by the server").isLessThanOrEqualTo(1);
      // 10 at once, then 10 a second: about 40 in 3 s; a loaded machine may send fewer, never more.
      assertThat(admitted).isBetween(25L, 41L);
      long trips = states.stream().mapToLong(RedisSharedState::roundTrips).sum();
      assertThat((double) trips / run.ok.get()).as("round trips per call").isLessThan(1.0);
    }
  }

  @Test
  void withoutHeadersOneRefusalPausesTheFleet() throws Exception {
    try (DemoServer server = server(HeaderStyle.NONE)) {
      FleetRun shared = FleetRun.run(server.url(), 4, 3, RUN, this::state);
      assertThat(shared.failures).isEmpty();
      long refusedShared = server.stats().rejected();
      server.resetStats();
      FleetRun alone = FleetRun.run(server.url(), 4, 3, RUN, dev.polite.SharedState::none);
      assertThat(alone.failures).isEmpty();
      long refusedAlone = server.stats().rejected();
      assertThat(refusedShared).as("refused sharing (alone: %d)", refusedAlone).isLessThan(refusedAlone);
    }
  }
}
