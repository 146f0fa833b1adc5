package dev.polite.examples.clients;

import java.util.List;

/**
 * What reached the server, as counted on the wire: by OkHttp's network interceptors
 * ({@link AttemptCounter}), or by a relay between a client without interceptors and the server
 * ({@link CountingRelay}). Each attempt counted here is counted, with its refusal if it was one,
 * into the {@link CallAttempts} of the call it belongs to as well. Thread-safe; read while the
 * calls run and after.
 *
 * <p>Usage: {@code WireCount wire = relay; out.println(wire.sent() + " sent, " + wire.rejected() + " rejected");}
 */
public interface WireCount {
  /**
   * Attempts put on the wire, answered or not, the engine's own silent re-sends included: every
   * request written to a connection the server had not closed.
   */
  long sent();

  /** Rate-limit refusals received ({@link RateLimitRejection}). */
  long rejected();

  /** Every attempt counted in {@link #sent()}, in the order sent. */
  List<SentAttempt> attempts();

  /**
   * Attempts the engine began on a pooled connection the server had already closed, held back
   * before anything was written and sent again by the engine on a new connection: in neither
   * {@link #sent()} nor any call's attempts. 0 (the default) where such an attempt never reaches
   * the counter at all.
   */
  default long staleConnections() {
    return 0;
  }
}
