package dev.polite.demo.internal;

import org.jspecify.annotations.Nullable;

/**
 * The leaky bucket as a meter: a level that each request raises by its cost and that drains at
 * {@code limit / window}; a request that would overflow {@code burst} is rejected.
 *
 * <p>This is the token bucket turned over (level = capacity - tokens) and admits exactly the same
 * requests. It is here because "leaky bucket" names two mechanisms and the demo shows both; the
 * other one, which delays instead of rejecting, is {@link LeakyQueue}. nginx's {@code limit_req
 * ... nodelay} is this meter.
 */
public final class LeakyMeter implements RateLimiter {
  private final double capacity;
  private final double perNano;
  private double level;
  private long updated;
  private boolean started;
  private @Nullable Reservations reservations; // made at the first reservation

  /** A fresh key's state under {@code policy}. */
  public LeakyMeter(Policy policy) {
    this.capacity = policy.burst();
    this.perNano = policy.unitsPerNano();
  }

  @Override
  public synchronized Decision tryAcquire(long nowNanos, long cost) {
    return decide(nowNanos, cost, false);
  }

  @Override
  public synchronized Decision reserve(long nowNanos, long units) {
    return decide(nowNanos, units, true);
  }

  /** A refund, as in {@link TokenBucket}: what reservations raised the level by, and it still holds. */
  private Decision decide(long nowNanos, long cost, boolean reserving) {
    if (started && nowNanos > updated) {
      level = Math.max(0, level - (nowNanos - updated) * perNano);
    }
    if (!started || nowNanos > updated) {
      updated = nowNanos;
      started = true;
    }
    if (reservations != null) {
      reservations.missing(level);
    }
    if (cost < 0) {
      long given = reservations == null ? 0 : reservations.take(-cost);
      level = Math.max(0, level - given); // stops at empty
      return Decision.refund(given, remaining(), nextUnit());
    }
    if (level + cost <= capacity + EPSILON) {
      level = Math.min(capacity, level + cost);
      if (reserving) {
        (reservations != null ? reservations : (reservations = new Reservations())).reserved(cost);
      }
      return Decision.allow(remaining(), nextUnit());
    }
    return Decision.reject(remaining(), Nanos.ceil((level + cost - capacity) / perNano), nextUnit());
  }

  private long remaining() {
    return Math.max(0, (long) Math.floor(capacity - level + EPSILON));
  }

  private long nextUnit() {
    long remaining = remaining();
    if (remaining >= capacity) {
      return 0;
    }
    return Nanos.ceil((level - (capacity - remaining - 1)) / perNano);
  }
}
