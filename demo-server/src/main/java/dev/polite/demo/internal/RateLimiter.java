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
   * at {@code nowNanos}, consuming quota when it is admitted. For the algorithms that
   * {@linkplain dev.polite.demo.Algorithm#takesRefunds take refunds}, a negative cost gives
   * {@code -cost} units back, never past the capacity, and is always allowed.
   */
  Decision tryAcquire(long nowNanos, long cost);
}
