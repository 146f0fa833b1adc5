package dev.polite.demo.internal;

import org.jspecify.annotations.Nullable;

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
  private @Nullable Reservations reservations; // made at the first reservation

  /** A fresh key's state under {@code policy}. */
  public Gcra(Policy policy) {
    this.interval = policy.intervalNanos();
    this.burst = policy.burst();
    this.tolerance = Math.multiplyExact(burst, interval);
  }

  @Override
  public synchronized Decision tryAcquire(long nowNanos, long cost) {
    return decide(nowNanos, cost, false);
  }

  @Override
  public synchronized Decision reserve(long nowNanos, long units) {
    return decide(nowNanos, units, true);
  }

  private Decision decide(long nowNanos, long cost, boolean reserving) {
    if (!started) {
      tat = nowNanos;
      started = true;
    }
    long base = Math.max(tat, nowNanos);
    if (reservations != null) {
      reservations.missing((double) (base - nowNanos) / interval); // the TAT's lead is what the bucket misses
    }
    if (cost < 0) {
      // A refund moves the TAT back; one behind now reads as a full bucket, so the capacity
      // bounds what it can give too
      long given = reservations == null ? 0 : reservations.take(-cost);
      tat = base - given * interval;
      return Decision.refund(given, remaining(nowNanos), nextUnit(nowNanos));
    }
    long newTat = base + cost * interval;
    long allowAt = newTat - tolerance;
    if (allowAt <= nowNanos) {
      tat = newTat;
      if (reserving) {
        (reservations != null ? reservations : (reservations = new Reservations())).reserved(cost);
      }
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
