package dev.polite;

import java.time.Duration;

/**
 * Hears what polite does, for metrics and tracing; every method does nothing by default.
 *
 * <p>Called synchronously on the calling thread, sometimes while other calls wait for the same
 * key, so keep it quick and thread-safe. An exception thrown by a listener is logged and
 * swallowed; it never fails a call. Keys are what the key function made of the request; the
 * built-in key functions never put credentials in them.
 *
 * <pre>{@code
 * PoliteInterceptor.builder().listener(new PoliteListener() {
 *   public void rateLimited(String key, RateLimitSignals s) { meter.mark(key); }
 * })
 * }</pre>
 */
public interface PoliteListener {
  /** A call waited for its key's pace before it was sent. */
  default void paced(String key, Duration wait) {}

  /** A key's pace changed: learned from the server's headers, or set by its rate controller. */
  default void policyLearned(String key, double ratePerSecond, double burst, RateLimitSignals signals) {}

  /** The server answered with a rate-limit rejection. */
  default void rateLimited(String key, RateLimitSignals signals) {}

  /** Every call to the key waits until the server's reset or requested delay has passed. */
  default void paused(String key, Duration pause) {}

  /** A paused key takes calls again. */
  default void resumed(String key) {}

  /** A failed attempt will be retried after {@code delay}. {@code attempt} counts from 1. */
  default void retryScheduled(String key, int attempt, Duration delay) {}

  /** polite stopped trying the call and returned (or threw) what it had. */
  default void gaveUp(String key, GiveUpReason reason, Duration requestedDelay) {}

  /** A listener that hears nothing. */
  static PoliteListener none() {
    return NoListener.INSTANCE;
  }
}

/** The listener that ignores everything. */
enum NoListener implements PoliteListener {
  INSTANCE
}
