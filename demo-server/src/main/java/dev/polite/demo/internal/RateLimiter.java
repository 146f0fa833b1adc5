package dev.polite.demo.internal;

/**
 * The state of one key under one algorithm, deciding requests as they arrive.
 *
 * <p>Time comes in as {@code nowNanos} (any monotonic origin, the same for every call on one
 * instance); nothing here reads a clock, sleeps or starts a thread, so tests replay traffic on
 * a fake clock. An earlier {@code nowNanos} than a previous call is treated as no time passing.
 * Implementations are thread-safe.
 */
public interface RateLimiter {

  /** Epsilon for fractional arithmetic: ten refills of 0.1 add up to 0.9999999999999999. */
  double EPSILON = 1e-9;

  /**
   * Decides one request costing {@code cost} units (at least 1, at most the policy's capacity)
   * at {@code nowNanos}, consuming quota when it is admitted; what it consumes is spent for good.
   * For the algorithms that {@linkplain dev.polite.demo.Algorithm#takesRefunds take refunds}, a
   * negative cost is a refund: it gives back up to {@code -cost} units of what earlier
   * {@linkplain #reserve reservations} consumed and no refund has given back yet (never past the
   * capacity), says how many in {@link Decision#refunded()}, and is always allowed.
   */
  Decision tryAcquire(long nowNanos, long cost);

  /**
   * Decides one request that reserves {@code units}, as {@link #tryAcquire} does; for the
   * algorithms that take refunds, what it consumes may later be given back by a refund, once.
   * The others have nothing to give back, and this is {@link #tryAcquire}.
   */
  default Decision reserve(long nowNanos, long units) {
    return tryAcquire(nowNanos, units);
  }
}
