package dev.polite.demo.internal;

/**
 * The leaky bucket as a queue: a FIFO of {@code burst} slots that lets one unit out every
 * {@code T = window / limit}. Nothing is rejected until the queue is full, but admitted requests
 * wait their turn: the decision carries that wait as {@link Decision#delayNanos()} and the
 * server holds the response that long (without holding a thread).
 *
 * <p>The whole queue is one timestamp, the departure of the last admitted unit: a new request
 * departs {@code T} after it (or now, if the queue has drained), and is admitted when that wait,
 * plus {@code T} per extra unit of cost, is at most {@code (burst - 1) × T}. A queue of 5 turns a
 * burst of 8 into waits of 0, 1, 2, 3 and 4 intervals and 3 rejections. Served requests leave as
 * a steady stream, so at most {@code limit} are served in any window: the output is smoothed,
 * the latency is the price. nginx's {@code limit_req} without {@code nodelay} is this queue.
 */
public final class LeakyQueue implements RateLimiter {
  private final long interval;
  private final long slots;
  private long last;
  private boolean started;

  /** A fresh key's state under {@code policy}. */
  public LeakyQueue(Policy policy) {
    this.interval = policy.intervalNanos();
    this.slots = policy.burst();
  }

  @Override
  public synchronized Decision tryAcquire(long nowNanos, long cost) {
    long wait = started ? Math.max(0, last + interval - nowNanos) : 0;
    long needed = wait + (cost - 1) * interval;
    long maxWait = (slots - 1) * interval;
    if (needed <= maxWait) {
      last = nowNanos + needed;
      started = true;
      return new Decision(true, remaining(nowNanos), 0, nextUnit(nowNanos), wait);
    }
    return Decision.reject(remaining(nowNanos), needed - maxWait, nextUnit(nowNanos));
  }

  private long occupiedNanos(long now) {
    return started ? Math.max(0, last + interval - now) : 0;
  }

  private long remaining(long now) {
    return Math.max(0, (long) Math.floor(slots - (double) occupiedNanos(now) / interval + EPSILON));
  }

  private long nextUnit(long now) {
    long remaining = remaining(now);
    if (remaining >= slots) {
      return 0;
    }
    return Math.max(0, occupiedNanos(now) - (slots - remaining - 1) * interval);
  }
}
