package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.SharedKey;
import dev.polite.Ticker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Redis that answers just past the timeout (25 ms a read, through a proxy, before a 20 ms
 * timeout), or now in time and now not, sends the keys alone once, and they stay alone until it
 * answers in time again, for good: no flapping between the fleet and alone, one WARN as they go
 * and one INFO as they come back.
 */
class SlowRedisTest {
  @RegisterExtension final RealRedis redis = new RealRedis();

  @Test
  void aRedisJustPastTheTimeoutSendsTheKeysAloneOnce() throws Exception {
    runThroughSlowRedis(1); // every read held 25 ms: every answer a little late
  }

  @Test
  void aRedisStraddlingTheTimeoutDoesNotFlipOnEveryRequest() throws Exception {
    runThroughSlowRedis(2); // one request and its answer held, the next not: late, in time, late
  }

  /**
   * 50 calls on a key through a proxy holding one read in {@code holdOneIn} 25 ms, before a 20 ms
   * timeout: alone once, and for good; then the proxy lets go and the key comes back, once.
   */
  private void runThroughSlowRedis(int holdOneIn) throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream logged = new ByteArrayOutputStream();
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ZERO)) {
      // slf4j-simple writes to whatever System.err is at the time: a copy of it, here.
      System.setErr(new PrintStream(new TeeStream(err, logged), true, StandardCharsets.UTF_8));
      String uri = proxy.uri();
      try (RedisSharedState state = RedisSharedState.builder(uri).prefix("slow-test:")
          .timeout(Duration.ofMillis(20)).retryEvery(Duration.ofMillis(50)).build()) {
        assertThat(state.transitions()).as("connected and warmed up").isZero();
        proxy.holdOneIn(holdOneIn);
        proxy.delay(Duration.ofMillis(25));
        SharedKey key = state.join("api", Ticker.system(), () -> {});
        key.paceLearned(1000, 1000, true, System.nanoTime());
        for (int i = 0; i < 50; i++) {
          key.take(1, 0, 0, System.nanoTime()); // a unit a lease: every call would ask Redis
          Thread.sleep(30);
        }
        assertThat(state.isFallingBack()).as("alone while Redis is slow").isTrue();
        assertThat(state.transitions()).as("went alone once, and stayed").isEqualTo(1);

        proxy.delay(Duration.ZERO);
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (state.isFallingBack() && System.nanoTime() < end) {
          key.take(1, 0, 0, System.nanoTime());
          Thread.sleep(10);
        }
        assertThat(state.isFallingBack()).as("back once Redis answers in time").isFalse();
        assertThat(state.transitions()).as("alone once, back once").isEqualTo(2);
      }
    } finally {
      System.setErr(err);
    }
    String log = logged.toString(StandardCharsets.UTF_8);
    assertThat(log.lines().filter(l -> l.contains("WARN dev.polite.redis") && l.contains("polite: Redis at")))
        .as("warnings in %s", log).hasSize(1);
    assertThat(log.lines().filter(l -> l.contains("INFO dev.polite.redis") && l.contains("polite: Redis at")))
        .as("rejoins in %s", log).hasSize(1);
  }
}
