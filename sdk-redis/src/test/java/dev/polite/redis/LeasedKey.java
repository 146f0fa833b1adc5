package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.SharedKey;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A key of a real state on a test's fake clock, told an advertised pace, once it holds a lease. */
final class LeasedKey {
  private LeasedKey() {}

  /** Joins "api", tells it {@code rate} a second with {@code burst}, and steps until it holds units. */
  static RedisSharedKey of(RedisSharedState state, AtomicLong clock, Semaphore news, double rate,
      double burst) throws InterruptedException {
    RedisSharedKey key = (RedisSharedKey) state.join("api", clock::get, news::release);
    key.paceLearned(rate, burst, true, clock.get());
    for (int step = 0; key.leaseLeft() < 1; step++) {
      assertThat(step).as("a lease within a few answers").isLessThan(10);
      if (key.take(1, 1, 0, clock.get()) == SharedKey.AWAIT) {
        assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("an answer").isTrue();
      }
    }
    return key;
  }
}
