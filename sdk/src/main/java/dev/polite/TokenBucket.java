package dev.polite;

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
 * <h2>What it promises</h2>
 * Over any interval of T seconds the calls it lets start without waiting, plus those whose wait
 * ends within the interval, cost at most {@code capacity + rate * T}: the classic bucket bound.
 * Refill is lazy (computed from the time elapsed when asked), so the bucket has no thread and an
 * idle one costs nothing. An infinite rate means "no limit": every reserve answers 0.
 *
 * <p>A bucket starts full unless made with {@link #empty}: a fresh client may use the burst the
 * server allows, which is what servers that start their own buckets full expect.
 *
 * <p>Thread-safe: every method is atomic. Times are {@link Ticker} nanoseconds passed in by the
 * caller, so the bucket never reads a clock itself.
 *
 * <pre>{@code
 * TokenBucket bucket = TokenBucket.full(5.0, 5.0, ticker.read());  // 5 per second, burst 5
 * long waitNanos = bucket.reserve(1, ticker.read());
 * }</pre>
 */
public final class TokenBucket {
  /** Tolerance for float drift: ten refills of 0.1 must make one whole token. */
  private static final double EPSILON = 1e-9;

  private double rate;
  private double capacity;
  private double tokens;
  private long updatedAt;

  private TokenBucket(double rate, double capacity, double tokens, long now) {
    this.rate = checkRate(rate);
    this.capacity = checkCapacity(capacity);
    this.tokens = tokens;
    this.updatedAt = now;
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
  public synchronized long reserve(double cost, long nowNanos) {
    refill(nowNanos);
    if (Double.isInfinite(rate)) {
      return 0; // no limit: nothing to count, and no debt to carry into a finite rate later
    }
    tokens -= cost;
    return waitForDebt(tokens);
  }

  /** Takes {@code cost} tokens only if they are there now; never goes into debt. */
  public synchronized boolean tryAcquire(double cost, long nowNanos) {
    refill(nowNanos);
    if (Double.isInfinite(rate)) {
      return true;
    }
    if (tokens + EPSILON < cost) {
      return false;
    }
    tokens -= cost;
    return true;
  }

  /** How long until {@code cost} tokens would be there, without taking them. */
  public synchronized long waitFor(double cost, long nowNanos) {
    refill(nowNanos);
    return waitForDebt(tokens - cost);
  }

  /** Gives back tokens a caller reserved but did not use, up to the capacity. */
  public synchronized void refund(double cost, long nowNanos) {
    refill(nowNanos);
    tokens = Math.min(capacity, tokens + cost);
  }

  /** Changes the refill rate from now on; tokens accrued so far keep the old rate. */
  public synchronized void setRate(double ratePerSecond, long nowNanos) {
    refill(nowNanos);
    rate = checkRate(ratePerSecond);
  }

  /** Changes the capacity; a fuller bucket is trimmed to it. */
  public synchronized void setCapacity(double capacity, long nowNanos) {
    refill(nowNanos);
    this.capacity = checkCapacity(capacity);
    tokens = Math.min(tokens, this.capacity);
  }

  /** Sets the balance outright (capped at the capacity): how a server's count overrides ours. */
  public synchronized void setTokens(double tokens, long nowNanos) {
    refill(nowNanos);
    this.tokens = Math.min(capacity, tokens);
  }

  /** The balance now; negative while callers wait on reserved tokens. */
  public synchronized double tokens(long nowNanos) {
    refill(nowNanos);
    return tokens;
  }

  /** Tokens added per second; infinite for no limit. */
  public synchronized double rate() {
    return rate;
  }

  /** The most tokens the bucket holds. */
  public synchronized double capacity() {
    return capacity;
  }

  @Override
  public synchronized String toString() {
    return "TokenBucket{rate=" + rate + "/s capacity=" + capacity + " tokens=" + tokens + '}';
  }

  private void refill(long now) {
    long elapsed = now - updatedAt;
    if (elapsed <= 0) {
      return; // a stale "now" from a racing caller never takes tokens back
    }
    updatedAt = now;
    if (tokens >= capacity) {
      return;
    }
    tokens = Double.isInfinite(rate) ? capacity : Math.min(capacity, tokens + elapsed * rate / 1e9);
  }

  private long waitForDebt(double balance) {
    if (balance >= -EPSILON || Double.isInfinite(rate)) {
      return 0;
    }
    double nanos = Math.ceil(-balance / rate * 1e9);
    return nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) nanos;
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
