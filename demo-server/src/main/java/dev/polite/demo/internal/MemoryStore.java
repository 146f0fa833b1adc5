package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import java.util.function.LongSupplier;

/**
 * Limiter state in this process's memory: one {@link RateLimiter} per key in a bounded
 * {@link KeyTable}, idle keys forgotten once their state is as good as new.
 *
 * <p>Exact for one node and free of round trips; with several nodes each counts alone (a client
 * spread over {@code k} nodes gets up to {@code k} times the limit), which is the Redis store's
 * reason to exist.
 */
public final class MemoryStore implements LimiterStore {
  private final LongSupplier nanos;
  private final KeyTable<RateLimiter> keys;

  /**
   * @param nanos the clock, in nanoseconds since any fixed origin
   */
  public MemoryStore(Algorithm algorithm, Policy policy, LongSupplier nanos, int maxKeys) {
    this.nanos = nanos;
    this.keys = new KeyTable<>(maxKeys, policy.idleNanos(), () -> newLimiter(algorithm, policy));
  }

  /**
   * A fresh limiter (a new key's state) running {@code algorithm} to enforce {@code policy}: one
   * case per algorithm, which the compiler checks are all there.
   */
  public static RateLimiter newLimiter(Algorithm algorithm, Policy policy) {
    return switch (algorithm) {
      case TOKEN_BUCKET -> new TokenBucket(policy);
      case GCRA -> new Gcra(policy);
      case LEAKY_METER -> new LeakyMeter(policy);
      case LEAKY_QUEUE -> new LeakyQueue(policy);
      case FIXED_WINDOW -> new FixedWindow(policy);
      case SLIDING_LOG -> new SlidingLog(policy);
      case SLIDING_COUNTER -> new SlidingCounter(policy);
    };
  }

  @Override
  public Decision acquire(String key, long cost) {
    long now = nanos.getAsLong();
    return keys.get(key, now).tryAcquire(now, cost);
  }

  @Override
  public Decision reserve(String key, long units) {
    long now = nanos.getAsLong();
    return keys.get(key, now).reserve(now, units);
  }

  @Override
  public boolean blocking() {
    return false;
  }

  @Override
  public int localKeys() {
    return keys.size();
  }

  @Override
  public void close() {
    keys.clear();
  }
}
