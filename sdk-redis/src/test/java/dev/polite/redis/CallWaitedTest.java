package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.SharedKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RedisSharedState.Builder#onCallWaited} hears how long each call waited for Redis, on the
 * key's own clock (a fake one, moved by the test while a proxy holds Redis's answer), and nothing
 * for calls that went on the lease they held, or whose units fell due after the answer anyway.
 */
class CallWaitedTest {
  private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

  @RegisterExtension final RealRedis redis = new RealRedis();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Semaphore news = new Semaphore(0);
  private final List<Duration> waits = new CopyOnWriteArrayList<>();

  @Test
  void callsThatFindTheLeaseSpentAreToldTheirWaitUntilTheAnswerOrTheTimeOut() throws Exception {
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ZERO);
        RedisSharedState state = listened(proxy, waits::add)) {
      RedisSharedKey key = leased(state);
      int told = waits.size();
      spendLease(key);
      assertThat(waits).as("calls that went on the lease waited for nothing").hasSize(told);
      waits.clear();

      waitForTheNextLease(key, proxy, Duration.ofMillis(300));
      assertThat(waits).containsExactly(Duration.ofMillis(7));
    }
  }

  @Test
  void callsWhoseUnitsFallDueAfterTheAnswerAreNotTold() throws Exception {
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ZERO);
        RedisSharedState state = listened(proxy, waits::add)) {
      // 2 a second, burst 1: the first lease is lent past empty, and the next one's units fall due
      // after those, on the fleet's schedule, however late the request for them came.
      RedisSharedKey key = LeasedKey.of(state, clock, news, 2, 1);
      spendLease(key);
      waits.clear();
      waitForTheNextLease(key, proxy, Duration.ofMillis(50));
      assertThat(key.take(1, 1, 0, clock.get())).as("its unit falls due later: the schedule's")
          .isPositive().isNotEqualTo(SharedKey.AWAIT);
      assertThat(waits).as("Redis held no call back").isEmpty();
    }
  }

  @Test
  void aCallWaitsAtMostTheTimeOutAndIsToldSo() throws Exception {
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ZERO);
        RedisSharedState state = RedisSharedState.builder(proxy.uri())
            .prefix("waited:").timeout(Duration.ofMillis(100)).onCallWaited(waits::add).build()) {
      RedisSharedKey key = leased(state);
      spendLease(key);
      waits.clear();
      proxy.delay(Duration.ofSeconds(2)); // well past the 100 ms time-out
      drainNews();
      assertThat(key.take(1, 1, 0, clock.get())).isEqualTo(SharedKey.AWAIT);
      clock.addAndGet(3 * MILLI);
      assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("the time-out").isTrue();
      assertThat(state.isFallingBack()).as("timed out: alone").isTrue();
      assertThat(waits).containsExactly(Duration.ofMillis(3));
    }
  }

  @Test
  void aListenerThatThrowsDoesNotStopTheKey() throws Exception {
    AtomicInteger heard = new AtomicInteger();
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ZERO);
        RedisSharedState state = listened(proxy, d -> {
          heard.incrementAndGet();
          throw new IllegalStateException("a listener's bug");
        })) {
      RedisSharedKey key = leased(state);
      spendLease(key);
      heard.set(0); // the calls that waited for the first lease
      // Held 300 ms on its way, the request finds units in the fleet's bucket: due at once, so
      // Redis held the call back, and the listener is told.
      waitForTheNextLease(key, proxy, Duration.ofMillis(300));
      assertThat(heard).as("told, and it threw").hasValue(1);

      proxy.delay(Duration.ZERO);
      for (int lease = 0; lease < 2; lease++) { // each lease spent, the next is asked for
        spendLease(key);
        for (int step = 0; key.leaseLeft() < 1; step++) {
          assertThat(step).as("a lease within a few answers").isLessThan(10);
          if (key.take(1, 1, 0, clock.get()) == SharedKey.AWAIT) {
            assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("an answer").isTrue();
          }
        }
        assertThat(state.isFallingBack()).isFalse();
      }
      assertThat(key.leaseLeft()).as("leased on after the listener threw").isPositive();
    }
  }

  /** A state behind {@code proxy} that waits 2 s for Redis, its call waits told to {@code listener}. */
  private static RedisSharedState listened(DelayingProxy proxy, Consumer<Duration> listener) {
    return RedisSharedState.builder(proxy.uri()).prefix("waited:")
        .timeout(Duration.ofSeconds(2)).onCallWaited(listener).build();
  }

  private RedisSharedKey leased(RedisSharedState state) throws InterruptedException {
    return LeasedKey.of(state, clock, news, 10, 10);
  }

  /** Spends the lease's units, each when it falls due on the fake clock. */
  private void spendLease(RedisSharedKey key) {
    while (key.leaseLeft() >= 1) {
      long wait = key.take(1, 1, 0, clock.get());
      assertThat(wait).as("a unit of the lease").isNotEqualTo(SharedKey.AWAIT);
      clock.addAndGet(wait);
    }
  }

  /**
   * A call finds the lease spent and waits for the next, whose request the proxy holds
   * {@code delay} on its way (real time) while the key's clock moves 7 ms.
   */
  private void waitForTheNextLease(RedisSharedKey key, DelayingProxy proxy, Duration delay)
      throws InterruptedException {
    proxy.delay(delay);
    drainNews();
    assertThat(key.take(1, 1, 0, clock.get())).as("the lease spent: a request out")
        .isEqualTo(SharedKey.AWAIT);
    clock.addAndGet(7 * MILLI);
    assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("the answer").isTrue();
  }

  private void drainNews() {
    news.drainPermits();
  }
}
