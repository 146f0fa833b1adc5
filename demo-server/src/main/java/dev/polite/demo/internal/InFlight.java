package dev.polite.demo.internal;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A concurrency limit per key: at most {@code max} requests of one key in flight. Counts what is
 * running, not what started, which is what protects workers from a few slow endpoints (Stripe
 * runs one beside its rate limiter). Keys leave the map when their count returns to zero, so its
 * size is bounded by the requests in flight.
 */
public final class InFlight {
  private final int max;
  private final ConcurrentHashMap<String, int[]> counts = new ConcurrentHashMap<>();

  public InFlight(int max) {
    this.max = max;
  }

  /** Takes a place for {@code key}; false if it already has {@code max} in flight. */
  public boolean tryEnter(String key) {
    boolean[] entered = {false};
    counts.compute(key, (k, count) -> {
      if (count == null) {
        entered[0] = true;
        return new int[] {1};
      }
      if (count[0] >= max) {
        return count;
      }
      count[0]++;
      entered[0] = true;
      return count;
    });
    return entered[0];
  }

  /** Gives back a place taken by {@link #tryEnter}. */
  public void exit(String key) {
    counts.computeIfPresent(key, (k, count) -> --count[0] <= 0 ? null : count);
  }

  /** Requests of {@code key} in flight now. */
  public int inFlight(String key) {
    int[] count = counts.get(key);
    return count == null ? 0 : count[0];
  }
}
