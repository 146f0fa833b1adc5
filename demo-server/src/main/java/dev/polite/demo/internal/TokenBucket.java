package dev.polite.demo.internal;

import org.jspecify.annotations.Nullable;

/**
 * A token bucket: capacity {@code burst}, refilling continuously at {@code limit / window}.
 *
 * <p>The state is two numbers, the tokens and the instant they were counted. Nothing drips tokens
 * in: each call first adds {@code elapsed × rate}, capped at the capacity (lazy refill), then
 * takes {@code cost} tokens if they are there. A new key starts full, so an idle client may send
 * a whole burst at once; over any span {@code T} the bucket admits at most
 * {@code burst + rate × T}, which is why "10 per 10 s" as a bucket admits 19 or 20 in some
 * 10-second span while a window algorithm admits 10.
 *
 * <p>Tokens are fractional doubles. The comparison adds {@link RateLimiter#EPSILON}, since ten
 * refills of 0.1 make 0.9999999999999999 and a request due exactly on time would otherwise be
 * rejected: without it, this bucket and {@link Gcra}, which must agree request for request,
 * admitted 19 and 20 of the same traffic.
 *
 * <p>{@code remaining} is the floor of the tokens, and the wait until the next whole token is
 * reported with every answer: a client that pauses that long when {@code remaining} is 0, and
 * otherwise paces at the refill rate, never meets a rejection.
 *
 * <p>A refund gives back what {@linkplain #reserve reservations} consumed and no refund has given
 * back, at most what the bucket misses ({@link Reservations}).
 */
public final class TokenBucket implements RateLimiter {
  private final double capacity;
  private final double perNano;
  private double tokens;
  private long updated;
  private boolean started;
  private @Nullable Reservations reservations; // made at the first reservation

  /** A fresh key's state under {@code policy}. */
  public TokenBucket(Policy policy) {
    this.capacity = policy.burst();
    this.perNano = policy.unitsPerNano();
    this.tokens = capacity;
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
    if (started && nowNanos > updated) {
      tokens = Math.min(capacity, tokens + (nowNanos - updated) * perNano);
    }
    if (!started || nowNanos > updated) {
      updated = nowNanos;
      started = true;
    }
    if (reservations != null) {
      reservations.missing(capacity - tokens);
    }
    if (cost < 0) {
      long given = reservations == null ? 0 : reservations.take(-cost);
      tokens = Math.min(capacity, tokens + given); // stops at full
      return Decision.refund(given, remaining(), nextUnit());
    }
    if (tokens + EPSILON >= cost) {
      tokens = Math.max(0, tokens - cost);
      if (reserving) {
        (reservations != null ? reservations : (reservations = new Reservations())).reserved(cost);
      }
      return Decision.allow(remaining(), nextUnit());
    }
    return Decision.reject(remaining(), Nanos.ceil((cost - tokens) / perNano), nextUnit());
  }

  private long remaining() {
    return (long) Math.floor(tokens + EPSILON);
  }

  private long nextUnit() {
    long remaining = remaining();
    if (remaining >= capacity) {
      return 0;
    }
    return Nanos.ceil((remaining + 1 - tokens) / perNano);
  }
}
