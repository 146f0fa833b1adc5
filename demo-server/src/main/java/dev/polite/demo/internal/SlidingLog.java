package dev.polite.demo.internal;

import java.util.ArrayDeque;

/**
 * A sliding window log: the timestamp of every admitted unit in the last {@code window}, and a
 * request is admitted while fewer than {@code limit} units are inside the span {@code (now -
 * window, now]}.
 *
 * <p>Exact over every span (at most {@code limit} in any half-open window), at the price of
 * O(limit) memory per key: fine for small limits on valuable actions, ruinous for large ones.
 * Weighted costs are stored as (timestamp, cost) pairs so a heavy request is one entry. Rejected
 * requests are not logged, so a client hammering a closed door does not push its own reopening
 * further away.
 */
public final class SlidingLog implements RateLimiter {
  private final long limit;
  private final long window;
  private final ArrayDeque<long[]> log = new ArrayDeque<>();
  private long used;

  /** A fresh key's state under {@code policy}. */
  public SlidingLog(Policy policy) {
    this.limit = policy.limit();
    this.window = policy.windowNanos();
  }

  @Override
  public synchronized Decision tryAcquire(long nowNanos, long cost) {
    while (!log.isEmpty() && log.peekFirst()[0] <= nowNanos - window) {
      used -= log.pollFirst()[1];
    }
    if (used + cost <= limit) {
      long[] last = log.peekLast();
      if (last != null && last[0] == nowNanos) {
        last[1] += cost;
      } else {
        log.addLast(new long[] {nowNanos, cost});
      }
      used += cost;
      return Decision.allow(limit - used, nextUnit(nowNanos));
    }
    return Decision.reject(limit - used, untilFree(nowNanos, used + cost - limit), nextUnit(nowNanos));
  }

  private long nextUnit(long now) {
    return used == 0 ? 0 : untilFree(now, 1);
  }

  /** How long until at least {@code units} logged units have left the window. */
  private long untilFree(long now, long units) {
    long freed = 0;
    for (long[] entry : log) {
      freed += entry[1];
      if (freed >= units) {
        return Math.max(1, entry[0] + window - now);
      }
    }
    return window;
  }
}
