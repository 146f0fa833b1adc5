package dev.polite.internal;

import java.time.Duration;

/**
 * Saturating nanosecond arithmetic, the one home for it. Waits, deadlines and pauses are
 * nanosecond counts on a monotonic ticker, and the values that feed them come from servers and
 * users (a Retry-After of a century, a max wait of {@code ChronoUnit.FOREVER}): an overflow there
 * would turn "wait very long" into "go now". Every sum, product and conversion of such values
 * saturates at {@link Long#MAX_VALUE} ("never") instead.
 */
public final class Nanos {
  private Nanos() {}

  /** {@code d} in nanoseconds, or {@link Long#MAX_VALUE} when it does not fit (centuries). */
  public static long of(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /** {@code a + b}, or {@link Long#MAX_VALUE} when it overflows upward. */
  public static long add(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  /** {@code a * b} for non-negative {@code a} and positive {@code b}, saturated. */
  public static long multiply(long a, long b) {
    return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }

  /** {@code base * 2^doublings}, at most {@code cap}: an exponential backoff step. */
  public static long doubled(long base, int doublings, long cap) {
    int shift = Math.min(Math.max(0, doublings), 62);
    return base > (cap >> shift) ? cap : base << shift;
  }

  /**
   * {@code value} rounded up, so that nothing is granted a nanosecond early, within a quarter of
   * the long range either way: far beyond any wait, and leaving room to add two such values.
   */
  public static long ceil(double value) {
    double up = Math.ceil(value);
    if (up >= Long.MAX_VALUE / 4) {
      return Long.MAX_VALUE / 4;
    }
    return up <= Long.MIN_VALUE / 4 ? Long.MIN_VALUE / 4 : (long) up;
  }
}
