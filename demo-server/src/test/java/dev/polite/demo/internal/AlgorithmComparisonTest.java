package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.polite.demo.Algorithm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link AlgorithmComparison}'s three traffic patterns on a fake clock against every algorithm at
 * "10 per 10 s": the most each admits in any 10 s is what its rule predicts (within one request).
 */
class AlgorithmComparisonTest {
  private static final long SECOND = 1_000_000_000L;

  /**
   * The most each rule admits in any 10 s span of these patterns: a bucket its burst plus what
   * refills while the stream runs (10 + 9); a fixed window twice its limit, across a boundary; a
   * sliding log exactly its limit; a leaky queue serves at its rate whatever arrives; a sliding
   * counter lets the stream in early, since it assumes the first ten were spread out.
   */
  private static final Map<Algorithm, Integer> EXPECTED = new EnumMap<>(Map.of(
      Algorithm.TOKEN_BUCKET, 19,
      Algorithm.GCRA, 19,
      Algorithm.LEAKY_QUEUE, 10,
      Algorithm.FIXED_WINDOW, 20,
      Algorithm.SLIDING_LOG, 10,
      Algorithm.SLIDING_COUNTER, 19));

  @Test
  void mostInAny10sIsWhatEachRulePredicts() throws IOException {
    Map<Algorithm, Map<String, Integer>> table = new EnumMap<>(Algorithm.class);
    for (Algorithm algorithm : Algorithm.values()) {
      table.put(algorithm, AlgorithmComparison.mostInAnyWindow(algorithm));
    }
    String printed = print(table);
    Files.writeString(Path.of("target", "algorithm-comparison.txt"), printed);

    for (Map.Entry<Algorithm, Integer> expected : EXPECTED.entrySet()) {
      int worst = table.get(expected.getKey()).values().stream().max(Integer::compare).orElseThrow();
      assertThat((double) worst)
          .as("most in any 10 s for %s in%n%s", expected.getKey(), printed)
          .isCloseTo(expected.getValue(), within(1.0));
    }
    // The meter is the token bucket turned over: the same decisions.
    assertThat(table.get(Algorithm.LEAKY_METER)).isEqualTo(table.get(Algorithm.TOKEN_BUCKET));
  }

  @Test
  void leakyQueueDelaysInsteadOfRejecting() {
    RateLimiter queue = MemoryStore.newLimiter(Algorithm.LEAKY_QUEUE, new Policy(5, 5 * SECOND, 5));
    List<Long> delays = new ArrayList<>();
    int rejected = 0;
    for (int i = 0; i < 8; i++) {
      Decision decision = queue.tryAcquire(0, 1);
      if (decision.allowed()) {
        delays.add(decision.delayNanos() / SECOND);
      } else {
        rejected++;
      }
    }
    assertThat(delays).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(rejected).isEqualTo(3);
  }

  /** The table the README shows, also left in {@code target/algorithm-comparison.txt}. */
  private static String print(Map<Algorithm, Map<String, Integer>> table) {
    StringBuilder out = new StringBuilder("most admitted in any 10 s, limit 10 per 10 s (bucket: 10, refilling 1/s)\n");
    out.append(String.format("%-16s", "algorithm"));
    for (String pattern : AlgorithmComparison.patterns().keySet()) {
      out.append(String.format("%20s", pattern));
    }
    out.append(String.format("%10s%12s%n", "worst", "expected"));
    for (Map.Entry<Algorithm, Map<String, Integer>> row : table.entrySet()) {
      out.append(String.format("%-16s", row.getKey().cliName()));
      for (int value : row.getValue().values()) {
        out.append(String.format("%20d", value));
      }
      int worst = row.getValue().values().stream().max(Integer::compare).orElseThrow();
      Integer expected = EXPECTED.get(row.getKey());
      out.append(String.format("%10d%12s%n", worst, expected == null ? "-" : expected.toString()));
    }
    return out.toString();
  }
}
