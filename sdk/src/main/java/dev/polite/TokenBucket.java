package dev.polite;

import dev.polite.internal.Nanos;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket that makes callers wait rather than fail: {@code capacity} tokens at most,
 * refilled continuously at {@code rate} tokens per second.
 *
 * <h2>Why this shape</h2>
 * A client paces itself to stay under a server's limit, so the question it asks is not "may I?"
 * but "how long until I may?". {@link #reserve} answers it and takes the tokens at once, letting
 * the balance go negative: the debt is the queue. The caller that pays is the one that waits,
 * for exactly {@code debt / rate}; the next caller queues behind it. (Guava's
 * {@code SmoothRateLimiter} makes the <em>next</em> caller pay for the current one's burst, which
 * suits a pacer with no idea of the server's budget; we often know it exactly, from the server's
 * remaining count, and want the first call after a pause to go at once.)
 *
 * <h2>How it is stored</h2>
 * As one number, the instant at which the balance is (or was) zero, {@code emptyAt}, as GCRA
 * stores a bucket: the balance at {@code now} is {@code (now - emptyAt) / interval}, capped at the
 * capacity by reading {@code emptyAt} as no earlier than {@code now - capacity * interval}. Taking
 * tokens moves {@code emptyAt} forward; a debt is an {@code emptyAt} in the future. One number
 * makes the decisions lock-free (a compare-and-set, and a refusal writes nothing at all), which
 * keeps contended callers off each other's cache lines. Changing the rate or the capacity takes a
 * lock and converts the balance, so a decision racing such a change may be judged at either
 * setting; polite changes them under the key's lock, where nothing races.
 *
 * <h2>What it promises</h2>
 * Over any interval of T seconds the calls it lets start without waiting, plus those whose wait
 * ends within the interval, cost at most {@code capacity + rate * T}: the classic bucket bound.
 * Refill is lazy, so the bucket has no thread and an idle one costs nothing. An infinite rate
 * means "no limit": every reserve answers 0 and nothing is counted.
 *
 * <p>A bucket starts full unless made with {@link #empty}: a fresh client may use the burst the
 * server allows, which is what servers that start their own buckets full expect.
 *
 * <p>Thread-safe. Times are {@link Ticker} nanoseconds passed in by the caller, so the bucket
 * never reads a clock itself; a caller with a stale {@code now} may be refused, but never takes
 * tokens back from the others.
 *
 * <pre>{@code
 * TokenBucket bucket = TokenBucket.full(5.0, 5.0, ticker.read());  // 5 per second, burst 5
 * long waitNanos = bucket.reserve(1, ticker.read());
 * }</pre>
 */
public final class TokenBucket {
  private final AtomicLong emptyAt;
  private volatile Shape shape;

  /** Rate and capacity, in the units the arithmetic wants; immutable so one read sees both. */
  private static final class Shape {
    final double rate;
    final double capacity;
    /** Nanoseconds per token; 0 for an infinite rate. */
    final double interval;
    /** How far {@code emptyAt} may lag {@code now}: a full bucket. */
    final long tolerance;

    Shape(double rate, double capacity) {
      this.rate = checkRate(rate);
      this.capacity = checkCapacity(capacity);
      this.interval = Double.isInfinite(rate) ? 0 : 1e9 / rate;
      this.tolerance = Nanos.ceil(capacity * interval);
    }

    boolean unlimited() {
      return interval == 0;
    }
  }

  private TokenBucket(double rate, double capacity, double tokens, long now) {
    Shape s = new Shape(rate, capacity);
    this.shape = s;
    this.emptyAt = new AtomicLong(now - Nanos.ceil(Math.min(tokens, capacity) * s.interval));
  }

  /**
   * A bucket holding {@code capacity} tokens.
   *
   * @param ratePerSecond tokens added per second; positive, or {@link Double#POSITIVE_INFINITY}
   * @param capacity the most tokens the bucket holds; positive
   * @param nowNanos the current {@link Ticker} time
   */
  public static TokenBucket full(double ratePerSecond, double capacity, long nowNanos) {
    return new TokenBucket(ratePerSecond, capacity, capacity, nowNanos);
  }

  /** A bucket holding no tokens yet; see {@link #full}. */
  public static TokenBucket empty(double ratePerSecond, double capacity, long nowNanos) {
    return new TokenBucket(ratePerSecond, capacity, 0, nowNanos);
  }

  /**
   * Takes {@code cost} tokens now, going into debt if need be, and returns how long the caller
   * must wait before acting: 0 when the tokens were there.
   *
   * @return the wait in nanoseconds, never negative
   */
  public long reserve(double cost, long nowNanos) {
    Shape s = shape;
    if (s.unlimited()) {
      return 0; // no limit: nothing to count, and no debt to carry into a finite rate later
    }
    long take = Nanos.ceil(cost * s.interval);
    while (true) {
      long e = emptyAt.get();
      long next = start(e, nowNanos, s) + take;
      if (emptyAt.compareAndSet(e, next)) {
        return Math.max(0, next - nowNanos);
      }
    }
  }

  /** Takes {@code cost} tokens only if they are there now; never goes into debt. */
  public boolean tryAcquire(double cost, long nowNanos) {
    Shape s = shape;
    if (s.unlimited()) {
      return true;
    }
    long take = Nanos.ceil(cost * s.interval);
    while (true) {
      long e = emptyAt.get();
      long next = start(e, nowNanos, s) + take;
      if (next - nowNanos > 0) {
        return false; // not there yet: nothing is written, so refusals do not contend
      }
      if (emptyAt.compareAndSet(e, next)) {
        return true;
      }
    }
  }

  /** How long until {@code cost} tokens would be there, without taking them. */
  public long waitFor(double cost, long nowNanos) {
    Shape s = shape;
    if (s.unlimited()) {
      return 0;
    }
    return Math.max(0, start(emptyAt.get(), nowNanos, s) + Nanos.ceil(cost * s.interval) - nowNanos);
  }

  /** Gives back tokens a caller reserved but did not use, up to the capacity. */
  public void refund(double cost, long nowNanos) {
    Shape s = shape;
    if (s.unlimited()) {
      return;
    }
    long give = Nanos.ceil(cost * s.interval);
    while (true) {
      long e = emptyAt.get();
      long next = Math.max(start(e, nowNanos, s) - give, nowNanos - s.tolerance);
      if (emptyAt.compareAndSet(e, next)) {
        return;
      }
    }
  }

  /**
   * Changes the refill rate from now on. Tokens saved are kept; a debt keeps the instant it ends,
   * not its size in tokens. The callers who ran it up were each given the instant their tokens
   * are theirs, and wait until then whatever the rate becomes; the next reservation queues behind
   * the last of them, at the new rate. Kept in tokens, a debt would be repaid sooner at a higher
   * rate, and the next reservations would land among the ones already given: a key that climbs
   * its rate a little on every answer, with a long queue reserved, would send a burst where that
   * queue ends (Guava's {@code SmoothRateLimiter} keeps its next free ticket for the same reason).
   */
  public synchronized void setRate(double ratePerSecond, long nowNanos) {
    Shape s = new Shape(ratePerSecond, shape.capacity);
    boolean inDebt = !shape.unlimited() && !s.unlimited() && emptyAt.get() > nowNanos;
    if (inDebt) {
      shape = s;
      return;
    }
    convert(tokens(nowNanos), s, nowNanos);
  }

  /** Changes the capacity; a fuller bucket is trimmed to it. */
  public synchronized void setCapacity(double capacity, long nowNanos) {
    double tokens = tokens(nowNanos);
    Shape s = new Shape(shape.rate, capacity);
    convert(Math.min(tokens, capacity), s, nowNanos);
  }

  /** Sets the balance outright (capped at the capacity): how a server's count overrides ours. */
  public synchronized void setTokens(double tokens, long nowNanos) {
    convert(Math.min(tokens, shape.capacity), shape, nowNanos);
  }

  /** The balance now; negative while callers wait on reserved tokens. */
  public double tokens(long nowNanos) {
    Shape s = shape;
    if (s.unlimited()) {
      return s.capacity;
    }
    return (nowNanos - start(emptyAt.get(), nowNanos, s)) / s.interval;
  }

  /** Tokens added per second; infinite for no limit. */
  public double rate() {
    return shape.rate;
  }

  /** The most tokens the bucket holds. */
  public double capacity() {
    return shape.capacity;
  }

  @Override
  public String toString() {
    Shape s = shape;
    return "TokenBucket{rate=" + s.rate + "/s capacity=" + s.capacity + '}';
  }

  /** Where the balance starts from at {@code now}: {@code emptyAt}, but never below a full bucket. */
  private static long start(long emptyAt, long now, Shape s) {
    return Math.max(emptyAt, now - s.tolerance);
  }

  /** Stores {@code tokens} under {@code s}: the caller holds the lock, racing grants may move on. */
  private void convert(double tokens, Shape s, long now) {
    long e = s.unlimited() ? now : now - Nanos.ceil(tokens * s.interval);
    shape = s;
    emptyAt.set(e);
  }

  private static double checkRate(double rate) {
    if (!(rate > 0)) {
      throw new IllegalArgumentException("ratePerSecond must be positive: " + rate);
    }
    return rate;
  }

  private static double checkCapacity(double capacity) {
    if (!(capacity > 0) || Double.isInfinite(capacity)) {
      throw new IllegalArgumentException("capacity must be positive and finite: " + capacity);
    }
    return capacity;
  }
}
