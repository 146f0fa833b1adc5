package dev.polite.demo.internal;

/**
 * The generic cell rate algorithm: token-bucket decisions stored as one timestamp.
 *
 * <p>The state is the theoretical arrival time (TAT): when the key would have spent all its
 * allowance at the sustained rate. Each admitted unit pushes the TAT forward by the emission
 * interval {@code T = window / limit}; a request is admitted when, after the push, the TAT is at
 * most {@code burst × T} ahead of now. A new key's TAT is "now", i.e. a full burst is available.
 *
 * <p>Everything is in whole nanoseconds ({@code T} rounded to the nearest nanosecond), so the
 * comparison is exact and needs no epsilon; the result matches {@link TokenBucket} request for
 * request. One long per key is why redis-cell and many gateways prefer it at millions of keys.
 */
public final class Gcra implements RateLimiter {
  private final long interval;
  private final long tolerance;
  private final long burst;
  private long tat;
  private boolean started;

  /** A fresh key's state under {@code policy}. */
  public Gcra(Policy policy) {
    this.interval = policy.intervalNanos();
    this.burst = policy.burst();
    this.tolerance = Math.multiplyExact(burst, interval);
  }

  @Override
  public synchronized Decision tryAcquire(long nowNanos, long cost) {
    if (!started) {
      tat = nowNanos;
      started = true;
    }
    // A refund (cost < 0) moves the TAT back; one behind now reads as a full bucket, so the
    // capacity bounds what a refund can give.
    long base = Math.max(tat, nowNanos);
    long newTat = base + cost * interval;
    long allowAt = newTat - tolerance;
    if (allowAt <= nowNanos) {
      tat = newTat;
      return Decision.allow(remaining(nowNanos), nextUnit(nowNanos));
    }
    return Decision.reject(remaining(nowNanos), allowAt - nowNanos, nextUnit(nowNanos));
  }

  private long remaining(long now) {
    long ahead = Math.max(0, tat - now);
    return Math.max(0, (long) Math.floor(burst - (double) ahead / interval + EPSILON));
  }

  private long nextUnit(long now) {
    long remaining = remaining(now);
    if (remaining >= burst) {
      return 0;
    }
    long ahead = Math.max(0, tat - now);
    return Math.max(0, ahead - (burst - remaining - 1) * interval);
  }
}
