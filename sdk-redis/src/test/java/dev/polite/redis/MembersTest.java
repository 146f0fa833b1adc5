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
 * Several interceptors on one state (one per client of a process) each join a key, and each is
 * a member of the fleet of its own, on a real Redis: the fleet counts both, so each leases and
 * paces alone at its share, not at the whole instance's.
 */
class MembersTest {
  @RegisterExtension final RealRedis redis = new RealRedis();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Semaphore news = new Semaphore(0);
  private RedisSharedState state;

  @Test
  void twoKeysOfOneNameOnOneStateAreTwoMembersAndAThirdTakesTheSeatOneLeft() throws Exception {
    state = redis.open(RedisSharedState.builder(redis.process().uri()).prefix("members:").instanceId("pod")
        .timeout(Duration.ofSeconds(2))); // a timeout no loaded machine misses
    RedisSharedKey first = join();
    RedisSharedKey second = join();
    assertThat(first.seat()).isZero();
    assertThat(second.seat()).isEqualTo(1);
    leaseOne(first);
    leaseOne(second);
    assertThat(second.instances()).as("the fleet counts both").isEqualTo(2);
    first.leave();
    RedisSharedKey third = join();
    assertThat(third.seat()).as("the seat the first left").isZero();
    RedisSharedKey other = (RedisSharedKey) state.join("other", clock::get, news::release);
    assertThat(other.seat()).as("another key's seats are its own").isZero();
  }

  private RedisSharedKey join() {
    return (RedisSharedKey) state.join("api", clock::get, news::release);
  }

  /**
   * Takes one unit of a 10-a-second pace: waits for Redis's answer when the key awaits one, and
   * moves the key's clock on when its unit falls due later.
   */
  private void leaseOne(RedisSharedKey key) throws InterruptedException {
    key.paceLearned(10, 10, true, clock.get());
    for (int steps = 0; ; steps++) {
      assertThat(steps).as("a lease within a few steps").isLessThan(10);
      long wait = key.take(1, 5, 0, clock.get());
      if (wait == 0) {
        return;
      }
      if (wait == SharedKey.AWAIT) {
        assertThat(news.tryAcquire(5, TimeUnit.SECONDS)).as("Redis answered").isTrue();
      } else {
        clock.addAndGet(wait);
      }
    }
  }
}
