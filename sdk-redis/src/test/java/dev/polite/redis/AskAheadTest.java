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
 * A busy key asks for its next lease before the last runs out ({@link Leases}), so its calls do
 * not wait for Redis; such a request, that no call waits for, is not late at the timeout, but a
 * call that comes to wait for it waits the timeout at most. The key's clock is a fake one, moved
 * by the test; Redis is real, behind a proxy that can hold its answers.
 */
class AskAheadTest {
  @RegisterExtension final RealRedis redis = new RealRedis();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Semaphore news = new Semaphore(0);

  @Test
  void aBusyKeysCallsDoNotWaitForRedisOnceItHoldsALease() throws Exception {
    try (RedisSharedState state = RedisSharedState.builder(redis.process().uri()).prefix("ahead:")
        .timeout(Duration.ofSeconds(2)).build()) {
      RedisSharedKey key = leased(state);
      assertThat(callsThatWaited(key, 40)).as("of 40 calls at the pace, several leases").isZero();
      assertThat(state.roundTrips()).as("a round trip per batch, not per call").isLessThan(20);
    }
  }

  @Test
  void aRequestNoCallWaitsForMayAnswerPastTheTimeout() throws Exception {
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ZERO);
        RedisSharedState state = RedisSharedState.builder(proxy.uri()).prefix("ahead:")
            .timeout(Duration.ofMillis(20)).build()) {
      RedisSharedKey key = leased(state);
      proxy.delay(Duration.ofMillis(30)); // each way: every answer 60 ms and more, past 20 ms
      assertThat(callsThatWaited(key, 20)).as("the next lease asked for ahead, late but not to anyone")
          .isZero();
      assertThat(state.transitions()).as("never alone").isZero();
    }
  }

  @Test
  void aCallThatComesToWaitForARequestWaitsTheTimeoutAtMost() throws Exception {
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ZERO);
        RedisSharedState state = RedisSharedState.builder(proxy.uri()).prefix("ahead:")
            .timeout(Duration.ofMillis(100)).build()) {
      RedisSharedKey key = leased(state);
      proxy.delay(Duration.ofSeconds(5)); // an answer that comes too late for anyone
      while (!key.asking()) { // spend on the fake clock until the next lease is asked for
        spendOne(key);
      }
      news.drainPermits(); // the answers before the request ahead
      assertThat(news.tryAcquire(300, TimeUnit.MILLISECONDS)) // past the timeout, within ten
          .as("no call waits: not late yet").isFalse();
      assertThat(state.isFallingBack()).isFalse();
      while (key.leaseLeft() >= 1) {
        spendOne(key);
      }
      news.drainPermits();
      long waitingSince = System.nanoTime();
      assertThat(key.take(1, 1, 0, clock.get())).as("the lease spent: the call waits")
          .isEqualTo(SharedKey.AWAIT);
      assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("late, as the call sees it").isTrue();
      assertThat(state.isFallingBack()).isTrue();
      assertThat(System.nanoTime() - waitingSince).as("well before ten timeouts (1 s) from the request")
          .isLessThan(TimeUnit.MILLISECONDS.toNanos(600));
    }
  }

  private RedisSharedKey leased(RedisSharedState state) throws InterruptedException {
    return LeasedKey.of(state, clock, news, 10, 1); // a burst of 1: leases lent past empty
  }

  /**
   * {@code calls} calls, each as soon as its unit falls due (a busy instance), letting a request
   * that is out be answered before the next; returns how many found no lease and waited for Redis.
   */
  private int callsThatWaited(RedisSharedKey key, int calls) throws InterruptedException {
    int waited = 0;
    for (int call = 0; call < calls; ) {
      long wait = key.take(1, 1, 0, clock.get());
      if (wait == SharedKey.AWAIT) {
        waited++;
        assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("an answer").isTrue();
      } else if (wait > 0) {
        clock.addAndGet(wait); // the call waits for its unit
      } else {
        call++;
        while (key.asking()) { // a request out: its answer comes before the next unit falls due
          assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("the answer").isTrue();
        }
      }
    }
    return waited;
  }

  /** Spends one unit, moving the fake clock to when it falls due. */
  private void spendOne(RedisSharedKey key) {
    long wait = key.take(1, 1, 0, clock.get());
    assertThat(wait).as("a unit of the lease").isNotEqualTo(SharedKey.AWAIT);
    clock.addAndGet(wait);
    if (wait > 0) {
      assertThat(key.take(1, 1, 0, clock.get())).isZero();
    }
  }
}
