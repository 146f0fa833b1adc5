package dev.polite.demo.internal;

/**
 * A fixed window counter: time is cut into windows aligned on multiples of {@code window} (since
 * the clock's origin), and each window admits {@code limit} units.
 *
 * <p>The cheapest algorithm (one counter, one increment) and the one with the famous boundary
 * problem: ten requests just before a boundary and ten just after land in different windows, so
 * twenty pass within a fraction of a second. Every key's window also resets at the same instant,
 * so every limited client is told to come back at the same moment. Kept because daily quotas and
 * many real APIs work this way, and the demo should show what it does to clients.
 */
public final class FixedWindow implements RateLimiter {
  private final long limit;
  private final long window;
  private long index = Long.MIN_VALUE;
  private long count;

  /** A fresh key's state under {@code policy}. */
  public FixedWindow(Policy policy) {
    this.limit = policy.limit();
    this.window = policy.windowNanos();
  }

  @Override
  public synchronized Decision tryAcquire(long nowNanos, long cost) {
    return decide(nowNanos, cost, true);
  }

  /**
   * What {@link #tryAcquire} would decide for {@code cost} at {@code nowNanos}, counting nothing:
   * allowed with what remains now, or refused until the window's end. For a policy that must ask
   * another limiter before it counts a call ({@link SecondWindows}).
   */
  public synchronized Decision peek(long nowNanos, long cost) {
    return decide(nowNanos, cost, false);
  }

  private Decision decide(long nowNanos, long cost, boolean counting) {
    long current = Math.floorDiv(nowNanos, window);
    if (current > index) {
      index = current;
      count = 0;
    }
    long untilEnd = (index + 1) * window - nowNanos;
    if (count + cost <= limit) {
      if (counting) {
        count += cost;
      }
      return Decision.allow(limit - count, untilEnd);
    }
    return Decision.reject(limit - count, untilEnd, untilEnd);
  }
}
