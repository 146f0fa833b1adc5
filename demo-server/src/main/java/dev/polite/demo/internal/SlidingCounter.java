package dev.polite.demo.internal;

/**
 * A sliding window counter: two fixed-window counters, the previous window's weighted by how much
 * of it the sliding window still covers, assuming its requests were spread evenly:
 * {@code estimate = previous × (1 - elapsed fraction) + current}.
 *
 * <p>Two integers per key, and nearly exact on real traffic (Cloudflare measured 0.003% wrong
 * decisions). Adversarial traffic does worse: ten requests at the end of one window followed by a
 * steady stream get 19 through in one 10-second span, because the estimate assumes the ten were
 * spread over the whole window; but the excess is spread out, never a 2x burst.
 */
public final class SlidingCounter implements RateLimiter {
  private final long limit;
  private final long window;
  private long index = Long.MIN_VALUE;
  private long previous;
  private long current;

  /** A fresh key's state under {@code policy}. */
  public SlidingCounter(Policy policy) {
    this.limit = policy.limit();
    this.window = policy.windowNanos();
  }

  @Override
  public synchronized Decision tryAcquire(long nowNanos, long cost) {
    long now = Math.floorDiv(nowNanos, window);
    if (index == Long.MIN_VALUE || now > index + 1) {
      previous = 0;
      current = 0;
      index = now;
    } else if (now == index + 1) {
      previous = current;
      current = 0;
      index = now;
    }
    long elapsed = nowNanos - index * window;
    if (estimate(elapsed) + cost <= limit + EPSILON) {
      current += cost;
      return Decision.allow(remaining(elapsed), nextUnit(elapsed));
    }
    return Decision.reject(remaining(elapsed), untilFits(elapsed, cost), nextUnit(elapsed));
  }

  private double estimate(long elapsed) {
    return previous * (1 - (double) Math.max(0, elapsed) / window) + current;
  }

  private long remaining(long elapsed) {
    return Math.max(0, (long) Math.floor(limit - estimate(elapsed) + EPSILON));
  }

  private long nextUnit(long elapsed) {
    long remaining = remaining(elapsed);
    return remaining >= limit ? 0 : untilFits(elapsed, remaining + 1);
  }

  /** How long until {@code units} more would fit, given no further admissions. */
  private long untilFits(long elapsed, long units) {
    if (current + units <= limit) {
      if (previous == 0) {
        return 0;
      }
      double fraction = 1 - (double) (limit - current - units) / previous;
      return Math.max(0, Nanos.ceil(fraction * window - elapsed));
    }
    long untilEnd = window - elapsed;
    if (current == 0 || units > limit) {
      return untilEnd;
    }
    double fraction = Math.max(0, 1 - (double) (limit - units) / current);
    return Nanos.saturatedAdd(untilEnd, Nanos.ceil(fraction * window));
  }
}
