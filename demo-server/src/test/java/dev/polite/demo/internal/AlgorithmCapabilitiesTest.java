package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.demo.Algorithm;
import org.junit.jupiter.api.Test;

/**
 * What each {@link Algorithm} constant says it can do is what the server's parts then do with it:
 * the constant declares it, the stores only act on it.
 */
class AlgorithmCapabilitiesTest {

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
}
