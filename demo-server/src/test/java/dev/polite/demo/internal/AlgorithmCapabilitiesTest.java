package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.WhenDown;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What each {@link Algorithm} constant says it can do is what the server's parts then do with it:
 * the constant declares it, the stores only act on it.
 */
class AlgorithmCapabilitiesTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void theRedisStoreHasAScriptForEveryAlgorithmThatSaysItRunsOnRedis() {
    for (Algorithm algorithm : Algorithm.values()) {
      if (algorithm.runsOnRedis()) {
        assertThat(RedisScript.of(algorithm).keySuffixes()).as(algorithm.cliName()).isNotEmpty();
      } else {
        assertThatThrownBy(() -> RedisScript.of(algorithm)).as(algorithm.cliName())
            .isInstanceOf(IllegalStateException.class).hasMessage(algorithm + " has no Redis script");
      }
    }
  }

  @Test
  void theAlgorithmsThatSayTheyTakeRefundsGiveUnitsBackAndNoOtherDoes() {
    for (Algorithm algorithm : Algorithm.values()) {
      RateLimiter limiter = MemoryStore.newLimiter(algorithm, new Policy(10, SECOND, 10));
      limiter.reserve(SECOND, 4);
      long refunded = limiter.tryAcquire(SECOND, -2).refunded();
      assertThat(refunded > 0).as(algorithm.cliName()).isEqualTo(algorithm.takesRefunds());
    }
  }

  @Test
  void aRefundRefusedNamesTheAlgorithmsThatTakeThem() {
    CostHeader header = CostHeader.of(DemoServerConfig.builder().algorithm(Algorithm.FIXED_WINDOW)
        .costHeader("X-Cost").build());
    assertThat(header.refusal("-1"))
        .isEqualTo("X-Cost: fixed-window takes no refunds (token-bucket, gcra and leaky-meter do)");
  }

  @Test
  void theSyncedStoreRunsEveryAlgorithmThatSaysItDoesAndRefusesTheRest() {
    for (Algorithm algorithm : Algorithm.values()) {
      // A synced store contacts Redis only when it syncs, and this one is never asked to
      if (algorithm.runsOnSyncedStore()) {
        syncedStore(algorithm).close();
      } else {
        assertThatThrownBy(() -> syncedStore(algorithm)).as(algorithm.cliName())
            .isInstanceOf(IllegalStateException.class)
            .hasMessage(algorithm + " cannot be synced (supported: [token-bucket, gcra, leaky-meter, fixed-window, "
                + "sliding-counter])");
      }
    }
  }

  private static SyncedStore syncedStore(Algorithm algorithm) {
    return new SyncedStore(URI.create("redis://127.0.0.1:1"), algorithm, new Policy(10, SECOND, 10), WhenDown.OPEN,
        1, Duration.ofMillis(20), () -> SECOND, 100);
  }
}
