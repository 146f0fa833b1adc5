package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A key pacing alone while Redis is away, on the key's own clock (a fake one, moved by the test)
 * and a real redis-server that the test stops. In a fleet the key's own bucket does not pace by
 * the pace its controller discovers (the fleet's leases do), so pacing alone is the only pace it
 * has: at its share of the fleet's, bounded by its own, or its own where it heard of no fleet's.
 */
class PacingAloneTest {
  private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

  @RegisterExtension final RealRedis redis = new RealRedis();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Semaphore news = new Semaphore(0);
  private RedisSharedState state;

  /** @param connectWait 0 for a Redis already stopped; else long enough for the first connection */
  private RedisSharedKey join(Duration connectWait) {
    state = redis.open(RedisSharedState.builder(redis.process().uri()).prefix("alone:").connectWait(connectWait)
        .timeout(Duration.ofMillis(200)));
    return (RedisSharedKey) state.join("api", clock::get, news::release);
  }

  /** Calls take() until the key paces alone: its request failed (the real Redis is stopped). */
  private void untilAlone(RedisSharedKey key) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!state.isFallingBack() && System.nanoTime() < deadline) {
      key.take(1, 1, 0, clock.get());
      news.tryAcquire(100, TimeUnit.MILLISECONDS); // a real request's failure: only waiting tells
    }
    assertThat(state.isFallingBack()).as("pacing alone").isTrue();
  }

  @Test
  void withNoFleetPaceHeardAKeyPacesAloneAtThePaceItsOwnRefusalsFound() throws Exception {
    redis.process().stop();
    RedisSharedKey key = join(Duration.ZERO);
    untilAlone(key);
    assertThat(key.take(1, 1, 0, clock.get())).as("no pace known anywhere: it goes").isZero();
    key.paceLearned(4, 1, false, clock.get()); // its controller cut to 4 a second
    assertThat(key.take(1, 1, 0, clock.get())).as("from empty, a quarter of a second")
        .isEqualTo(250 * MILLI);
    clock.addAndGet(250 * MILLI);
    assertThat(key.take(1, 1, 0, clock.get())).isZero();
    assertThat(key.take(1, 1, 0, clock.get())).isEqualTo(250 * MILLI);
  }

  @Test
  void theFleetsPaceSharedAloneIsBoundedByTheKeysOwn() throws Exception {
    RedisSharedKey key = join(Duration.ofSeconds(5));
    key.paceLearned(40, 1, false, clock.get()); // the fleet's first pace: 40 a second
    for (int step = 0; ; step++) { // until a call goes on the lease
      assertThat(step).as("a lease within a few answers").isLessThan(10);
      long wait = key.take(1, 40, 0, clock.get());
      if (wait == 0) {
        break;
      } else if (wait == dev.polite.SharedKey.AWAIT) {
        assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("Redis answered").isTrue();
      } else {
        clock.addAndGet(wait); // its unit falls due (a discovered pace's bucket starts empty)
      }
    }
    assertThat(state.isFallingBack()).isFalse();
    redis.process().stop();
    clock.addAndGet(10_000 * MILLI); // the lease's units are long past their validity
    untilAlone(key);
    key.paceLearned(2, 1, false, clock.get()); // a refusal met alone: its controller cut to 2
    clock.addAndGet(10_000 * MILLI);
    long first = key.take(1, 2, 0, clock.get());
    clock.addAndGet(first);
    assertThat(key.take(1, 2, 0, clock.get())).as("went").isZero();
    assertThat(key.take(1, 2, 0, clock.get())).as("at 2 a second, not the fleet's 40 (one instance alive)")
        .isEqualTo(500 * MILLI);
  }
}
