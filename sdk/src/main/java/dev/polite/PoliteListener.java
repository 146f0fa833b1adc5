package dev.polite;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Hears what polite does, for metrics, logs and tracing; every method does nothing by default.
 * Events about one call carry its {@link CallContext} (key, request, and the OkHttp call);
 * events about a key as a whole (its pace, its pause) carry the key.
 *
 * <p>Called synchronously, on the thread that caused the event (the calling thread, an OkHttp
 * dispatcher thread, or {@link PoliteCallFactory}'s scheduler), sometimes while other calls wait
 * for the same key: keep it quick and thread-safe. Add as many as you like
 * ({@link PoliteInterceptor.Builder#addListener}); they hear each event in the order added. An
 * exception thrown by a listener is logged and swallowed; it never fails a call, and the other
 * listeners still hear the event. Keys are what the key function made of the request; the
 * built-in key functions never put credentials in them.
 *
 * <pre>{@code
 * PoliteInterceptor.builder().addListener(new PoliteListener() {
 *   public void rateLimited(CallContext call, RateLimitSignals s) { meter.mark(call.key()); }
 * })
 * }</pre>
 */
public interface PoliteListener {
  /**
   * An attempt of a call is about to be sent, after waiting {@code waited} for its key's pause,
   * gate and pace (zero when it went at once). Heard once per attempt, retries included.
   */
  default void sending(CallContext call, Duration waited) {}

  /** A key's pace changed: learned from the server's headers, or set by its rate controller. */
  default void policyLearned(String key, double ratePerSecond, double burst, RateLimitSignals signals) {}

  /** The server answered an attempt of {@code call} with a rate-limit rejection. */
  default void rateLimited(CallContext call, RateLimitSignals signals) {}

  /** Every call to the key waits until the server's reset or requested delay has passed. */
  default void paused(String key, Duration pause) {}

  /** A paused key takes calls again. */
  default void resumed(String key) {}

  /** A failed attempt will be retried after {@code delay}. {@code attempt} counts from 1. */
  default void retryScheduled(CallContext call, int attempt, Duration delay) {}

  /** polite stopped trying the call and returned (or threw) what it had. */
  default void gaveUp(CallContext call, GiveUpReason reason, Duration requestedDelay) {}

  /**
   * polite began keeping state for a key (its first call). {@code state} reads a fresh
   * {@link KeySnapshot} each time it is asked, for as long as the key is kept: hold it to feed a
   * gauge, and let it go at {@link #keyForgotten}.
   */
  default void keyAdded(String key, Supplier<KeySnapshot> state) {}

  /** polite forgot an idle key (past {@code maxKeys}); a later call starts it afresh. */
  default void keyForgotten(String key) {}

  /** A listener that hears nothing. */
  static PoliteListener none() {
    return NoListener.INSTANCE;
  }
}

/** The listener that ignores everything. */
enum NoListener implements PoliteListener {
  INSTANCE
}
