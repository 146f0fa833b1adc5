package dev.polite.demo.internal;

import java.time.Duration;
import java.time.Instant;

/**
 * Durations and instants in nanoseconds, the unit every limiter counts in, with arithmetic that
 * saturates instead of wrapping: a wait too long for a {@code long} (about 292 years) becomes
 * {@link Long#MAX_VALUE}, "for ever", never a negative number that would read as "now". The
 * server's one home for that arithmetic; nothing else in it adds or multiplies nanoseconds that
 * could overflow.
 */
public final class Nanos {
  private Nanos() {}

  /** A non-negative duration given as a double, rounded up to whole nanoseconds; 0 for NaN or less. */
  public static long ceil(double nanos) {
    if (!(nanos > 0)) {
      return 0;
    }
    return nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(nanos);
  }

  /** How many whole {@code unit}s (such as a second, in nanoseconds) cover {@code nanos}, rounded up; 0 for none. */
  public static long ceilDiv(long nanos, long unit) {
    return nanos <= 0 ? 0 : (nanos - 1) / unit + 1; // unlike (nanos + unit - 1) / unit, cannot overflow
  }

  /** {@code duration} in nanoseconds, or {@link Long#MAX_VALUE} (or MIN) when it does not fit. */
  public static long of(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException tooLong) {
      return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /** Nanoseconds since the epoch at {@code instant}, saturating beyond the year 2262. */
  public static long sinceEpoch(Instant instant) {
    return saturatedAdd(saturatedMultiply(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
  }

  /** {@code a + b}, or the {@code long} nearest to it when that overflows. */
  public static long saturatedAdd(long a, long b) {
    try {
      return Math.addExact(a, b);
    } catch (ArithmeticException overflow) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /** {@code a × b}, or the {@code long} nearest to it when that overflows. */
  public static long saturatedMultiply(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException overflow) {
      return (a < 0) == (b < 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
  }
}
