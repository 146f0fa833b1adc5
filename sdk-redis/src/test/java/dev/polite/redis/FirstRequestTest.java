package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.SharedKey;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A key's first request, made by its first call before the key has heard from Redis, may take
 * ten timeouts for that call; the requests after it, and a first one that never answers, are
 * late as calls meet them ({@link RedisSharedKey}). Redis is real, behind a proxy that holds its
 * answers; the key's clock is a fake one (the time-outs run on real time).
 */
class FirstRequestTest {
  @RegisterExtension final RealRedis redis = new RealRedis();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Semaphore news = new Semaphore(0);

  @Test
  void aKeysFirstRequestAnsweredPastTheTimeoutLeavesTheKeyShared() throws Exception {
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ZERO);
        RedisSharedState state = RedisSharedState.builder("redis://127.0.0.1:" + proxy.port())
            .prefix("first:").timeout(Duration.ofMillis(20)).build()) {
      proxy.delay(Duration.ofMillis(30)); // each way: the answer 60 ms and more, past 20 ms
      SharedKey key = state.join("api", clock::get, news::release);
      assertThat(key.take(1, 1, 0, clock.get())).as("no pace known: the call waits for the fleet")
          .isEqualTo(SharedKey.AWAIT);
      assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("the answer").isTrue();
      assertThat(state.isFallingBack()).as("answered within ten timeouts: shared").isFalse();
      assertThat(state.transitions()).isZero();
    }
  }

  @Test
  void aKeysFirstRequestThatNeverAnswersSendsItAloneWithinTenTimeouts() throws Exception {
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ZERO);
        RedisSharedState state = RedisSharedState.builder("redis://127.0.0.1:" + proxy.port())
            .prefix("first:").timeout(Duration.ofMillis(20)).build()) {
      proxy.delay(Duration.ofSeconds(5));
      SharedKey key = state.join("api", clock::get, news::release);
      long since = System.nanoTime();
      assertThat(key.take(1, 1, 0, clock.get())).isEqualTo(SharedKey.AWAIT);
      assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("the time-out").isTrue();
      long waited = System.nanoTime() - since;
      assertThat(state.isFallingBack()).isTrue();
      assertThat(waited).as("not at the timeout: the first request may take ten")
          .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(150));
      assertThat(waited).as("ten timeouts, 200 ms, and scheduling").isLessThan(TimeUnit.SECONDS.toNanos(1));
      assertThat(key.take(1, 1, 0, clock.get())).as("alone, the call goes on the key's own share")
          .isNotEqualTo(SharedKey.AWAIT);
    }
  }

  @Test
  void theRequestsAfterTheFirstAreLateAtTheTimeout() throws Exception {
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ZERO);
        RedisSharedState state = RedisSharedState.builder("redis://127.0.0.1:" + proxy.port())
            .prefix("first:").timeout(Duration.ofMillis(20)).build()) {
      RedisSharedKey key = LeasedKey.of(state, clock, news, 10, 10); // heard from Redis
      proxy.delay(Duration.ofMillis(30));
      while (key.leaseLeft() >= 1) {
        long wait = key.take(1, 1, 0, clock.get());
        assertThat(wait).as("a unit of the lease").isNotEqualTo(SharedKey.AWAIT);
        clock.addAndGet(wait);
      }
      news.drainPermits();
      assertThat(key.take(1, 1, 0, clock.get())).isEqualTo(SharedKey.AWAIT);
      assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("the time-out").isTrue();
      assertThat(state.isFallingBack()).as("60 ms against 20: late").isTrue();
    }
  }
}
