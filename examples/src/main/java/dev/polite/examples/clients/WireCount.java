package dev.polite.examples.clients;

import java.util.List;

/**
 * What reached the server, as counted on the wire: by OkHttp's network interceptors
 * ({@link AttemptCounter}), or by a relay between a client without interceptors and the server
 * ({@link CountingRelay}). Thread-safe; read while the calls run and after.
 *
 * <p>Usage: {@code WireCount wire = relay; out.println(wire.sent() + " sent, " + wire.rejected() + " rejected");}
 */
public interface WireCount {
  /**
   * Attempts that reached the server: every one answered (any status), and every one that failed
   * with no answer that the engine did not send again by itself.
   */
  long sent();

  /** Rate-limit refusals received ({@link RateLimitRejection}). */
  long rejected();

  /** Every attempt counted in {@link #sent()}, in the order sent. */
  List<SentAttempt> attempts();

  /**
   * Exchanges that failed before any answer and that the engine itself sent again on a new
   * connection, in neither {@link #sent()} nor any call's retries; 0 (the default) where the
   * engine's re-sends are seen as sent like any other attempt.
   */
  default long connectionRetries() {
    return 0;
  }
}
