package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a pause the fleet heard does to an instance's lease, on a real Redis and the key's own
 * clock (a fake one, moved by the test): a spent quota (the ordinary rhythm of a fleet at its
 * pace) keeps it, so the instance spends on after the pause without a round trip; a refusal
 * drops it, since it was leased at a pace the server refused (the script voided every lease).
 */
class FleetPauseLeaseTest {
  private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

  @RegisterExtension final RealRedis redis = new RealRedis();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Semaphore news = new Semaphore(0);
  private RedisSharedState state;

  /** A key with a lease of 100 units, all due now (a fleet of one at 100 a second, burst 100). */
  private RedisSharedKey leased() throws InterruptedException {
    state = redis.open(RedisSharedState.builder(redis.process().uri()).prefix("pause-lease:")
        .timeout(Duration.ofSeconds(2))); // a timeout no loaded machine misses
    // The pauses' subscription lands in the background, and its SUBSCRIBE counts as a round
    // trip: counted after a test reads the round trips, it would look like a lease request.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!state.hearsPauses() && System.nanoTime() < deadline) {
      Thread.sleep(5); // a real connection: only polling tells
    }
    assertThat(state.hearsPauses()).as("subscribed to the fleet's pauses").isTrue();
    RedisSharedKey key = (RedisSharedKey) state.join("api", clock::get, news::release);
    key.paceLearned(100, 100, true, clock.get());
    for (int answers = 0; key.take(1, 50, 0, clock.get()) != 0; answers++) {
      assertThat(answers).as("a lease within a few answers").isLessThan(5);
      // Redis's answer comes on Lettuce's thread, and tells the key's callback.
      assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("Redis answered").isTrue();
    }
    return key;
  }

  @Test
  void aSpentQuotasPauseKeepsTheLease() throws Exception {
    RedisSharedKey key = leased();
    long trips = state.roundTrips();
    key.heardPause(TimeUnit.MILLISECONDS.toMicros(30), false);
    assertThat(key.take(1, 50, 0, clock.get())).as("held by the pause").isPositive();
    clock.addAndGet(40 * MILLI);
    assertThat(key.take(1, 50, 0, clock.get())).as("spends its lease once the pause is over").isZero();
    assertThat(state.roundTrips()).as("no round trip for it").isEqualTo(trips);
  }

  @Test
  void aCallHeldByAPauseSpendsNothingOfTheLease() throws Exception {
    RedisSharedKey key = leased();
    double left = key.leaseLeft();
    assertThat(left).as("a lease to spend").isPositive();
    key.heardPause(TimeUnit.MILLISECONDS.toMicros(30), false);
    for (int call = 0; call < 5; call++) {
      assertThat(key.take(1, 50, 0, clock.get())).as("call %s held by the pause", call).isPositive();
    }
    assertThat(key.leaseLeft()).as("the held calls' units are still the lease's").isEqualTo(left);
    clock.addAndGet(40 * MILLI);
    assertThat(key.take(1, 50, 0, clock.get())).isZero();
    assertThat(key.leaseLeft()).as("spent by the call that went").isEqualTo(left - 1);
  }

  @Test
  void aRefusalsPauseDropsTheLease() throws Exception {
    RedisSharedKey key = leased();
    long trips = state.roundTrips();
    key.heardPause(TimeUnit.MILLISECONDS.toMicros(30), true);
    clock.addAndGet(40 * MILLI);
    // No lease left: the call asks the fleet again. Its answer may already be in when take()
    // returns (a fast Redis completes the request before its handler is attached), so the
    // round trip is what tells, not the wait.
    key.take(1, 50, 0, clock.get());
    assertThat(state.roundTrips()).as("a round trip for a new lease").isGreaterThan(trips);
  }
}
