package dev.polite.examples.lessons;

import java.util.HashMap;
import java.util.Map;

/**
 * The first limiter most of us write, kept naive on purpose: a map of counters in this process's
 * memory, keyed by the client and the window number, as the reference's {@code naive_limiter.py}.
 * Not thread-safe and never cleaned up: the lesson is what goes wrong, so nothing is fixed here.
 *
 * <p>Usage: {@code boolean ok = new NaiveLimiter(10, 10).allow("203.0.113.7", 9.9);}
 */
final class NaiveLimiter {
  private final int limit;
  private final double windowSeconds;
  private final Map<String, Integer> counts = new HashMap<>(); // grows forever, as the reference's

  NaiveLimiter(int limit, double windowSeconds) {
    this.limit = limit;
    this.windowSeconds = windowSeconds;
  }

  /** Counts one request of {@code client} at {@code nowSeconds} and says whether it is within the limit. */
  boolean allow(String client, double nowSeconds) {
    String key = client + ":" + (long) Math.floor(nowSeconds / windowSeconds);
    int count = counts.merge(key, 1, Integer::sum);
    return count <= limit;
  }
}
