package dev.polite.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Observation mode's meters: the would-be meters move while {@code polite.calls.wait} shows that
 * not one attempt was held, on a fake clock that never moves because nothing slept.
 */
class ObservingMetersTest {
  private final Polite h = new Polite();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final PoliteMetrics metrics = PoliteMetrics.create();

  ObservingMetersTest() throws java.io.IOException {
    metrics.bindTo(registry);
  }

  @AfterEach
  void close() {
    h.close();
  }

  @Test
  void theWouldBeMetersMoveAndNoAttemptWaits() throws Exception {
    h.enqueue(429, "Retry-After", "2");
    for (int i = 0; i < 3; i++) {
      h.enqueue(200);
    }
    OkHttpClient client = h.client(h.builder().observeOnly(true).startingRate(1)
        .maxWait(Duration.ofMillis(2_500)).addListener(metrics));

    assertThat(h.call(client, "/a")).isEqualTo(429); // handed back, not retried
    for (int i = 0; i < 3; i++) {
      assertThat(h.call(client, "/a")).isEqualTo(200);
    }

    assertThat(h.server.getRequestCount()).isEqualTo(4);
    assertThat(h.clock.sleeps()).isEmpty();
    String key = h.key();
    Timer waited = registry.get("polite.calls.wait").tag("key", key).timer();
    assertThat(waited.count()).isEqualTo(4);
    assertThat(waited.max(TimeUnit.NANOSECONDS)).isZero();
    assertThat(registry.get("polite.calls.retries").tag("key", key).counter().count()).isZero();
    assertThat(registry.get("polite.calls.rejected").tag("key", key).counter().count()).isEqualTo(1);

    // At 1 per second, after a Retry-After of 2 s: the retry it would have made, the next two
    // calls held 2 s each (the pause, then the pace's queue behind it), and the last one refused:
    // it would have waited 3 s, past the max wait of 2.5 s.
    assertThat(registry.get("polite.calls.would.retries").tag("key", key).counter().count())
        .isEqualTo(1);
    Timer wouldWait = registry.get("polite.calls.would.wait").tag("key", key).timer();
    assertThat(wouldWait.count()).isEqualTo(3);
    assertThat(wouldWait.totalTime(TimeUnit.SECONDS)).isCloseTo(0 + 2 + 2, within(1e-6));
    assertThat(wouldWait.max(TimeUnit.SECONDS)).isCloseTo(2, within(1e-6));
    assertThat(registry.get("polite.calls.would.gave.up").tag("key", key)
        .tag("reason", "wait_too_long").counter().count()).isEqualTo(1);
    assertThat(registry.get("polite.calls.gave.up").tag("key", key)
        .tag("reason", "wait_too_long").counter().count()).isZero();
  }

  @Test
  void anEnforcingInterceptorsKeysHaveNoWouldBeMeters() throws Exception {
    h.enqueue(200);
    OkHttpClient client = h.client(h.builder().addListener(metrics));
    assertThat(h.call(client, "/a")).isEqualTo(200);
    assertThat(registry.find("polite.calls.wait").tag("key", h.key()).timer()).isNotNull();
    assertThat(registry.find("polite.calls.would.wait").timer()).isNull();
    assertThat(registry.find("polite.calls.would.retries").counter()).isNull();
  }

  @Test
  void keysPastTheTagBoundAreCountedUnderOtherWhenObserving() throws Exception {
    PoliteMetrics untagged = PoliteMetrics.builder().maxKeyTags(0).build();
    SimpleMeterRegistry own = new SimpleMeterRegistry();
    untagged.bindTo(own);
    h.enqueue(200);
    OkHttpClient client = h.client(h.builder().observeOnly(true).addListener(untagged));
    assertThat(h.call(client, "/a")).isEqualTo(200);
    assertThat(own.get("polite.calls.would.wait").tag("key", PoliteMetrics.OTHER).timer().count())
        .isEqualTo(1);
  }
}
