package dev.polite.testing;

/**
 * What a server that counts calls in fixed windows admits: {@code limit} calls in each window of
 * {@code windowNanos} of ticker time, the windows aligned on multiples of it. The engines' tests
 * answer with its count in a dialect that names no reset (Shopify's {@code used/limit}, Azure's
 * remaining count). Thread-safe.
 */
public final class FixedWindowCount {
  private final long limit;
  private final long windowNanos;
  private long window = Long.MIN_VALUE;
  private long used;

  public FixedWindowCount(long limit, long windowNanos) {
    this.limit = limit;
    this.windowNanos = windowNanos;
  }

  /** Counts a call that arrives at ticker time {@code at}: whether its window admits it. */
  public synchronized boolean admit(long at) {
    long w = Math.floorDiv(at, windowNanos);
    if (w != window) {
      window = w;
      used = 0;
    }
    boolean admitted = used < limit;
    used += admitted ? 1 : 0;
    return admitted;
  }

  /** The calls the current window has counted. */
  public synchronized long used() {
    return used;
  }

  /** What the current window has left. */
  public synchronized long remaining() {
    return limit - used;
  }

  public long limit() {
    return limit;
  }
}
