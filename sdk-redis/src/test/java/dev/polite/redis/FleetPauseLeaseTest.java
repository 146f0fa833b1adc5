package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.SharedKey;
import dev.polite.Ticker;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a pause the fleet heard does to an instance's lease, on a real Redis: a spent quota (the
 * ordinary rhythm of a fleet at its pace) keeps it, so the instance spends on after the pause
 * without a round trip; a refusal gives it back, since it was leased at a pace the server refused.
 */
class FleetPauseLeaseTest {
  @RegisterExtension final RealRedis redis = new RealRedis();
  private RedisSharedState state;

  @AfterEach
  void close() {
    if (state != null) {
      state.close();
    }
  }

  /** A key with a lease of 100 units, all due now (a fleet of one at 100 a second, burst 100). */
  private RedisSharedKey leased() throws InterruptedException {
    state = RedisSharedState.builder(redis.process().uri()).prefix("pause-lease:")
        .timeout(Duration.ofSeconds(2)).build(); // a timeout no loaded machine misses
    RedisSharedKey key = (RedisSharedKey) state.join("api", Ticker.system(), () -> {});
    key.paceLearned(100, 100, true, System.nanoTime());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (key.take(1, 50, 0, System.nanoTime()) != 0) {
      assertThat(System.nanoTime()).as("a lease within 5 s").isLessThan(deadline);
      Thread.sleep(5); // the lease is asked in the background
    }
    return key;
  }

  @Test
  void aSpentQuotasPauseKeepsTheLease() throws Exception {
    RedisSharedKey key = leased();
    long trips = state.roundTrips();
    key.heardPause(TimeUnit.MILLISECONDS.toMicros(30), false);
    assertThat(key.take(1, 50, 0, System.nanoTime())).as("held by the pause").isPositive();
    Thread.sleep(40);
    assertThat(key.take(1, 50, 0, System.nanoTime())).as("spends its lease once the pause is over").isZero();
    assertThat(state.roundTrips()).as("no round trip for it").isEqualTo(trips);
  }

  @Test
  void aRefusalsPauseGivesTheLeaseBack() throws Exception {
    RedisSharedKey key = leased();
    long trips = state.roundTrips();
    key.heardPause(TimeUnit.MILLISECONDS.toMicros(30), true);
    Thread.sleep(40);
    assertThat(key.take(1, 50, 0, System.nanoTime())).as("no lease left: it asks the fleet again")
        .isNotZero();
    assertThat(state.roundTrips()).as("a round trip for a new lease").isGreaterThan(trips);
  }
}
