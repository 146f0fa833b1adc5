package dev.polite;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Hears what polite does, for metrics, logs and tracing; every method does nothing by default.
 * Events about one call carry its {@link CallContext} (key, request and cost);
 * events about a key as a whole (its pace, its pause) carry the key.
 *
 * <p>Called synchronously, on the thread that caused the event (the calling thread, an engine's
 * thread that completed an attempt, or the {@link Scheduler} of an asynchronous call), sometimes while other calls wait
 * for the same key: keep it quick and thread-safe. Add as many as you like
 * ({@link PoliteBuilder#addListener}); they hear each event in the order added. An
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

  /**
   * The key refused {@code refusals} calls in a row, admitting none, among them calls sent only
   * once every delay it named had passed: it refuses every call (a broken or blocking limiter, a
   * key locked out). Its calls now fail at once, and one call re-verifies it in {@code probeIn}
   * (each refused probe puts the next one further off, as a backoff would, up to its cap);
   * {@link #resumed} follows the probe it admits. Heard once per run of refusals, after the
   * {@link #paused} that holds the key until the probe.
   */
  default void refusesEverything(String key, int refusals, Duration probeIn) {}

  /** A failed attempt will be retried after {@code delay}. {@code attempt} counts from 1. */
  default void retryScheduled(CallContext call, int attempt, Duration delay) {}

  /** polite stopped trying the call and returned (or threw) what it had. */
  default void gaveUp(CallContext call, GiveUpReason reason, Duration requestedDelay) {}

  /**
   * Observation mode only ({@link PoliteBuilder#observeOnly}): an attempt that went at
   * once would have waited {@code wait} for its key's pause and pace, had polite enforced them
   * (zero when it would have gone at once too). Heard once per attempt that enforcing would have
   * sent, before {@link #sending} (whose wait is then zero); an attempt enforcing would have
   * refused hears {@link #wouldGiveUp} instead. Not in it: the time the attempt would have waited
   * at its key's gate (for the key's first answer, or behind a probe), which depends on when
   * answers to calls that were never held would have come.
   */
  default void wouldWait(CallContext call, Duration wait) {}

  /**
   * Observation mode only: enforcing would have retried the attempt after {@code delay} (the
   * {@code attempt}-th retry, counting from 1); its answer, or its failure, was handed back
   * untouched instead.
   */
  default void wouldRetry(CallContext call, int attempt, Duration delay) {}

  /**
   * Observation mode only: enforcing would have stopped trying the call, for {@code reason}. With
   * {@link GiveUpReason#WAIT_TOO_LONG} before an attempt, it would have refused the call without
   * sending it ({@code requestedDelay} the wait it would have needed); after one, it would have
   * returned that answer, as observation does, or thrown it as a {@link RateLimitedException} when
   * {@link PoliteBuilder#throwWhenRateLimited} is set.
   */
  default void wouldGiveUp(CallContext call, GiveUpReason reason, Duration requestedDelay) {}

  /**
   * polite began keeping state for a key (its first call). {@code state} reads a fresh
   * {@link KeySnapshot} each time it is asked, for as long as the key is kept: hold it to feed a
   * gauge, and let it go at {@link #keyForgotten}. Heard before any event of the key's calls: it
   * runs as the key is published, so other calls of the key wait for it (keep it quick, and
   * make no call through polite from it).
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
