package dev.polite.demo.internal;

/**
 * What one key has reserved and not had back, for the algorithms that take refunds: the units its
 * reservations consumed, less what refunds gave back, and never more than its bucket is missing,
 * since what the refill has restored is back already. So a refund gives back at most what was
 * reserved, once, and a key cannot keep reservations the refill has paid for, to cash them later
 * on top of spending the refilled units. Requests that reserve nothing (no cost header) are spent
 * for good.
 *
 * <p>Whole units: the bucket's fractional refill is rounded in the key's favour (a reservation of 4
 * a microsecond old is still 4 owed); the capacity bounds what that can give.
 *
 * <p>Not thread-safe: part of a limiter's state, under its lock. A limiter makes one at its key's
 * first reservation, so keys that never reserve carry none.
 */
final class Reservations {
  private long owed;

  /** The bucket misses {@code missing} units now (fractional): nothing beyond that is owed any more. */
  void missing(double missing) {
    if (owed > 0) {
      owed = Math.min(owed, (long) Math.ceil(Math.max(0, missing) - RateLimiter.EPSILON));
    }
  }

  /** {@code units} were reserved and consumed. */
  void reserved(long units) {
    owed = Nanos.saturatedAdd(owed, units);
  }

  /** Takes what a refund of {@code asked} units gives back: at most what is owed. */
  long take(long asked) {
    long given = Math.min(asked, owed);
    owed -= given;
    return given;
  }
}
