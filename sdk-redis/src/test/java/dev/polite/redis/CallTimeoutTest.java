package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.SharedKey;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How long a call waits for its key's request before the key paces alone: the timeout, but up to
 * ten of it for the key's requests until its first lease and while the fleet knows no pace, and for
 * a lease where the fleet's schedule runs ahead of its calls, since the call would wait that long
 * anyway ({@link RedisSharedKey}); and the
 * neighbours that keep the timeout: a first request that never answers (alone within ten), the
 * requests after it where the bucket holds units, and a lease after a refusal voided the fleet's
 * debt. Redis is real, behind a proxy that holds its answers; the keys' clocks are fake ones
 * (the time-outs run on real time).
 */
class CallTimeoutTest {
  @RegisterExtension final RealRedis redis = new RealRedis();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Semaphore news = new Semaphore(0);

  @Test
  void aKeysFirstRequestAnsweredPastTheTimeoutLeavesTheKeyShared() throws Exception {
    try (DelayingProxy proxy = proxy();
        RedisSharedState state = through(proxy)) {
      proxy.delay(Duration.ofMillis(30)); // each way: the answer 60 ms and more, past 20 ms
      RedisSharedKey key = (RedisSharedKey) state.join("api", clock::get, news::release);
      assertThat(key.take(1, 1, 0, clock.get())).as("no pace known: the call waits for the fleet")
          .isEqualTo(SharedKey.AWAIT);
      outcome(key);
      assertThat(state.isFallingBack()).as("answered within ten timeouts: shared").isFalse();
      assertThat(state.transitions()).isZero();
    }
  }

  @Test
  void aKeysFirstRequestThatNeverAnswersSendsItAloneWithinTenTimeouts() throws Exception {
    try (DelayingProxy proxy = proxy();
        RedisSharedState state = through(proxy)) {
      proxy.delay(Duration.ofSeconds(5));
      RedisSharedKey key = (RedisSharedKey) state.join("api", clock::get, news::release);
      long since = System.nanoTime();
      assertThat(key.take(1, 1, 0, clock.get())).isEqualTo(SharedKey.AWAIT);
      outcome(key);
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
  void callsHeldWhileAnotherInstanceDiscoversThePaceMayWaitTenTimeoutsWhenItIsFound()
      throws Exception {
    try (DelayingProxy proxy = proxy();
        RedisSharedState mine = through(proxy);
        RedisSharedState other = inTime()) {
      AtomicLong otherClock = new AtomicLong(clock.get());
      Semaphore otherNews = new Semaphore(0);
      RedisSharedKey discoverer =
          (RedisSharedKey) other.join("api", otherClock::get, otherNews::release);
      discoverer.take(1, 1, 0, otherClock.get());
      while (discoverer.asking()) {
        assertThat(otherNews.tryAcquire(5, TimeUnit.SECONDS)).as("its answer").isTrue();
      }
      assertThat(discoverer.instances()).as("it discovers the pace for the fleet").isEqualTo(1);

      RedisSharedKey key = (RedisSharedKey) mine.join("api", clock::get, news::release);
      assertThat(key.take(1, 1, 0, clock.get())).isEqualTo(SharedKey.AWAIT);
      outcome(key);
      assertThat(key.take(1, 1, 0, clock.get())).as("held while the other discovers")
          .isEqualTo(SharedKey.AWAIT);
      assertThat(key.asking()).isFalse();
      proxy.delay(Duration.ofMillis(30)); // each way: the answer 60 ms and more, past 20 ms
      news.drainPermits();
      discoverer.paceLearned(10, 10, true, otherClock.get()); // found: published as paced
      heldCallAsksOnceThePaceIsHeard(key);
      outcome(key);
      assertThat(mine.isFallingBack()).as("answered within ten timeouts: shared").isFalse();
      assertThat(mine.transitions()).isZero();
    }
  }

  @Test
  void aKeysFirstLeaseOnceThePaceIsKnownMayTakeTenTimeoutsForItsCalls() throws Exception {
    try (DelayingProxy proxy = proxy();
        RedisSharedState state = through(proxy)) {
      RedisSharedKey key = (RedisSharedKey) state.join("api", clock::get, news::release);
      key.paceLearned(10, 10, true, clock.get()); // told at once, for no units
      outcome(key);
      assertThat(key.leaseLeft()).as("heard from Redis, nothing leased yet").isZero();
      proxy.delay(Duration.ofMillis(30));
      news.drainPermits();
      assertThat(key.take(1, 1, 0, clock.get())).as("the first lease").isEqualTo(SharedKey.AWAIT);
      outcome(key);
      assertThat(state.isFallingBack()).as("answered within ten timeouts: shared").isFalse();
      assertThat(key.leaseLeft()).isPositive();
    }
  }

  @Test
  void whereTheBucketHoldsUnitsTheRequestsAfterTheFirstAreLateAtTheTimeout() throws Exception {
    try (DelayingProxy proxy = proxy();
        RedisSharedState state = through(proxy)) {
      RedisSharedKey key = LeasedKey.of(state, clock, news, 10, 10); // heard from Redis
      proxy.delay(Duration.ofMillis(30));
      spendLease(key);
      news.drainPermits();
      assertThat(key.take(1, 1, 0, clock.get())).isEqualTo(SharedKey.AWAIT);
      outcome(key);
      assertThat(state.isFallingBack()).as("60 ms against 20: late").isTrue();
    }
  }

  @Test
  void whereTheFleetsScheduleRunsAheadACallMayWaitForItsLeaseAsLongAsForItsUnit() throws Exception {
    try (DelayingProxy proxy = proxy();
        RedisSharedState mine = through(proxy);
        RedisSharedState other = inTime()) {
      RedisSharedKey key = deepSchedule(mine, other);
      spendLease(key);
      proxy.delay(Duration.ofMillis(30)); // each way: the answer 60 ms and more, past 20 ms
      news.drainPermits();
      assertThat(key.take(1, 1, 0, clock.get())).as("the lease spent").isEqualTo(SharedKey.AWAIT);
      outcome(key);
      assertThat(mine.isFallingBack()).as("answered before its unit fell due: shared").isFalse();
      assertThat(mine.transitions()).isZero();
      assertThat(key.take(1, 1, 0, clock.get())).as("its unit falls due a schedule ahead")
          .isGreaterThan(TimeUnit.MILLISECONDS.toNanos(200));
    }
  }

  @Test
  void afterARefusalVoidedTheFleetsDebtACallWaitsTheTimeoutAgain() throws Exception {
    try (DelayingProxy proxy = proxy();
        RedisSharedState mine = through(proxy);
        RedisSharedState other = inTime()) {
      RedisSharedKey key = deepSchedule(mine, other);
      key.paused(TimeUnit.MILLISECONDS.toNanos(1), true, clock.get()); // a 429: told at once
      outcome(key); // the fleet heard it
      clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(2)); // the pause over
      proxy.delay(Duration.ofMillis(30));
      news.drainPermits();
      assertThat(key.take(1, 1, 0, clock.get())).as("the lease voided").isEqualTo(SharedKey.AWAIT);
      outcome(key);
      assertThat(mine.isFallingBack()).as("the schedule starts afresh: 60 ms is late").isTrue();
    }
  }

  /**
   * Leases {@code key} of {@code mine} a unit due a second and more after its answer: another
   * instance ({@code other}, on the same Redis) holds a busy batch of 10 units of a pace of 10 a
   * second, burst 1, before it.
   */
  private RedisSharedKey deepSchedule(RedisSharedState mine, RedisSharedState other)
      throws InterruptedException {
    RedisSharedKey key = LeasedKey.of(mine, clock, news, 10, 1);
    AtomicLong otherClock = new AtomicLong(clock.get());
    Semaphore otherNews = new Semaphore(0);
    RedisSharedKey ahead = LeasedKey.of(other, otherClock, otherNews, 10, 1);
    spendLease(ahead, otherClock);
    if (ahead.take(1, 1, 0, otherClock.get()) == SharedKey.AWAIT) {
      assertThat(otherNews.tryAcquire(5, TimeUnit.SECONDS)).as("its busy batch").isTrue();
    }
    assertThat(ahead.leaseLeft()).isGreaterThanOrEqualTo(5);
    spendLease(key);
    news.drainPermits();
    long wait = key.take(1, 1, 0, clock.get());
    if (wait == SharedKey.AWAIT) { // else answered at once, read by the call itself
      assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("a lease behind the other's").isTrue();
      wait = key.take(1, 1, 0, clock.get());
    }
    assertThat(wait).as("its first unit due a schedule ahead")
        .isGreaterThan(TimeUnit.MILLISECONDS.toNanos(400));
    return key;
  }

  /**
   * Waits for the news that the pace was found, and checks that the held call then asks the fleet.
   * The hold's own wake-up runs on real time and may come first on a busy machine: the call is
   * then still held (the keys' clock has not moved), and waits for the next news.
   */
  private void heldCallAsksOnceThePaceIsHeard(RedisSharedKey key) throws InterruptedException {
    for (int news = 0; news < 3; news++) {
      assertThat(this.news.tryAcquire(5, TimeUnit.SECONDS)).as("the pace published").isTrue();
      assertThat(key.take(1, 1, 0, clock.get())).as("the held call asks the fleet, or is held")
          .isEqualTo(SharedKey.AWAIT);
      if (key.asking()) {
        return;
      }
    }
    assertThat(key.asking()).as("the held call asks the fleet once the pace is heard").isTrue();
  }

  private DelayingProxy proxy() throws IOException {
    return new DelayingProxy(redis.process().port(), Duration.ZERO);
  }

  /** A state behind {@code proxy}, with the default timeout, 20 ms. */
  private static RedisSharedState through(DelayingProxy proxy) {
    return RedisSharedState.builder(proxy.uri()).prefix("timeout:")
        .timeout(Duration.ofMillis(20)).build();
  }

  /** Another instance's state, straight on Redis, that waits 2 s: its answers are always in time. */
  private RedisSharedState inTime() {
    return RedisSharedState.builder(redis.process().uri()).prefix("timeout:")
        .timeout(Duration.ofSeconds(2)).build();
  }

  /** Waits for the key's request to be answered or time out; other news may wake it first. */
  private void outcome(RedisSharedKey key) throws InterruptedException {
    while (key.asking()) {
      assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("the request's outcome").isTrue();
    }
  }

  private void spendLease(RedisSharedKey key) {
    spendLease(key, clock);
  }

  /** Spends the lease's units, each when it falls due on {@code clock}. */
  private static void spendLease(RedisSharedKey key, AtomicLong clock) {
    while (key.leaseLeft() >= 1) {
      long wait = key.take(1, 1, 0, clock.get());
      assertThat(wait).as("a unit of the lease").isNotEqualTo(SharedKey.AWAIT);
      clock.addAndGet(wait);
    }
  }
}
