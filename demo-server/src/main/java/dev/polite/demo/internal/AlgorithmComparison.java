package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tells the algorithms apart: three traffic patterns (ten just before a window boundary and ten
 * on it; a burst of twenty; ten then a steady stream of ten a second for twenty seconds) replayed
 * on a virtual clock against an algorithm configured as "10 per 10 s" (a bucket holds 10,
 * refilling one a second), and the most it serves in any 10 s. The limiters are the server's own
 * classes ({@link MemoryStore#newLimiter}), so these are the decisions the server makes, with no
 * waiting. The demo server's tests check the figures; the examples' {@code lessons algorithms}
 * prints them beside the reference's table.
 *
 * <p>Usage: {@code Map<String, Integer> most = AlgorithmComparison.mostInAnyWindow(Algorithm.GCRA);}
 */
public final class AlgorithmComparison {
  private static final long SECOND = 1_000_000_000L;
  /** The window of "10 per 10 s", and the span the busiest count is taken over. */
  public static final long WINDOW_NANOS = 10 * SECOND;
  /** 10 per 10 s; the bucket family holds 10 and refills one a second. */
  public static final Policy POLICY = new Policy(10, WINDOW_NANOS, 10);

  private AlgorithmComparison() {}

  /** The three patterns, by name, as arrival times in nanoseconds of the virtual clock. */
  public static Map<String, List<Long>> patterns() {
    Map<String, List<Long>> patterns = new LinkedHashMap<>();
    List<Long> boundary = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      boundary.add(i < 10 ? 9_900_000_000L : 10 * SECOND); // ten just before the boundary, ten on it
    }
    patterns.put("window boundary", boundary);
    List<Long> burst = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      burst.add(30 * SECOND); // a quiet key, then twenty at once
    }
    patterns.put("burst of 20", burst);
    List<Long> stream = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      stream.add(9_900_000_000L);
    }
    for (long t = 10 * SECOND; t < 30 * SECOND; t += SECOND / 10) {
      stream.add(t); // then a steady ten a second for twenty seconds
    }
    patterns.put("ten then a stream", stream);
    return patterns;
  }

  /** The most {@code algorithm} serves in any 10 s, for each pattern, in the patterns' order. */
  public static Map<String, Integer> mostInAnyWindow(Algorithm algorithm) {
    Map<String, Integer> most = new LinkedHashMap<>();
    for (Map.Entry<String, List<Long>> pattern : patterns().entrySet()) {
      most.put(pattern.getKey(), mostInAnyWindow(served(algorithm, pattern.getValue())));
    }
    return most;
  }

  /** When each admitted request is served: its arrival, plus the leaky queue's delay. */
  private static List<Long> served(Algorithm algorithm, List<Long> arrivals) {
    RateLimiter limiter = MemoryStore.newLimiter(algorithm, POLICY);
    List<Long> served = new ArrayList<>();
    for (long at : arrivals) {
      Decision decision = limiter.tryAcquire(at, 1);
      if (decision.allowed()) {
        served.add(at + decision.delayNanos());
      }
    }
    return served;
  }

  /** The most served in any half-open span [s, s + 10 s); a busiest span starts at a request. */
  private static int mostInAnyWindow(List<Long> served) {
    int most = 0;
    for (long start : served) {
      int count = 0;
      for (long t : served) {
        if (t >= start && t < start + WINDOW_NANOS) {
          count++;
        }
      }
      most = Math.max(most, count);
    }
    return most;
  }
}
