package dev.polite.demo.internal;

import java.util.List;

/**
 * A fixed window or sliding window counter synced across nodes: the shared state is one counter
 * per aligned window, and a sync adds this node's count to the current one and reads back both it
 * and the previous window's (which the sliding counter weighs by overlap).
 *
 * <p>Between syncs the node sees the totals it last read plus its own admissions; in a new window
 * it starts from zero and its own count until its first sync there. The windows forget: an
 * overshoot in one window is not paid back in the next, so each window admits up to
 * {@code limit + client rate × S} (the excess the reference's synced lane shows).
 */
final class SyncedWindow implements SyncedKey {
  private final long limit;
  private final long window;
  private final boolean sliding;
  private long index = Long.MIN_VALUE;
  /** The previous window's total as this node knows it, its own unsent count included. */
  private long previous;
  /** The current window's total at the last sync, this node's count included. */
  private long current;
  /** Admitted here in the previous window and not yet synced. */
  private long pendingPrevious;
  /** Admitted here in the current window since the last sync. */
  private long pending;
  private long pushedIndex = Long.MIN_VALUE;

  SyncedWindow(Policy policy, boolean sliding) {
    this.limit = policy.limit();
    this.window = policy.windowNanos();
    this.sliding = sliding;
  }

  private void roll(long nowNanos) {
    long now = Math.floorDiv(nowNanos, window);
    if (now == index) {
      return;
    }
    if (index != Long.MIN_VALUE && now == index + 1) {
      previous = current + pending;
      pendingPrevious += pending;
    } else {
      previous = 0;
      pendingPrevious = 0;
    }
    current = 0;
    pending = 0;
    index = now;
  }

  private double used(long nowNanos) {
    double weight = sliding ? 1 - (double) (nowNanos - index * window) / window : 0;
    return previous * weight + current + pending;
  }

  @Override
  public synchronized Decision tryAcquire(long nowNanos, long cost) {
    roll(nowNanos);
    long untilEnd = (index + 1) * window - nowNanos;
    double used = used(nowNanos);
    if (used + cost <= limit + RateLimiter.EPSILON) {
      pending += cost;
      return Decision.allow(remaining(nowNanos), untilEnd);
    }
    return Decision.reject(remaining(nowNanos), untilEnd, untilEnd);
  }

  private long remaining(long nowNanos) {
    return Math.max(0, (long) Math.floor(limit - used(nowNanos) + RateLimiter.EPSILON));
  }

  @Override
  public synchronized List<String> push(long nowNanos) {
    roll(nowNanos);
    List<String> args = List.of("window", Long.toString(index), Long.toString(pendingPrevious),
        Long.toString(pending));
    current += pending;
    pending = 0;
    pendingPrevious = 0;
    pushedIndex = index;
    return args;
  }

  @Override
  public synchronized void learn(Object reply) {
    List<?> totals = (List<?>) reply;
    long before = ((Number) totals.get(0)).longValue();
    long total = ((Number) totals.get(1)).longValue();
    if (pushedIndex == index) {
      previous = Math.max(previous, before);
      current = total;
    } else if (pushedIndex == index - 1) { // the window turned while the sync was on its way
      previous = total + pendingPrevious;
    }
  }
}
