package dev.polite.demo.internal;

/**
 * Where the per-key limiter state lives and who decides: this process's memory, or a shared
 * Redis. One call per request; the key is already resolved and the cost already set by the route.
 */
public interface LimiterStore extends AutoCloseable {

  /**
   * Decides one request of {@code cost} units for {@code key}. Never throws for a store outage
   * (that is decided as {@code --when-down} says).
   *
   * @throws StoreBusyException when the store cannot decide for another reason (its pool full)
   */
  Decision acquire(String key, long cost);

  /**
   * Decides one request of {@code key} that reserves {@code units}: as {@link #acquire}, and for
   * the algorithms that take refunds what it consumes may be given back later by a refund
   * ({@code acquire} with a negative cost), once. Only a cost the client named is a reservation.
   *
   * @throws StoreBusyException as {@link #acquire} does
   */
  default Decision reserve(String key, long units) {
    return acquire(key, units);
  }

  /** Whether {@link #acquire} may block on the network (and must run off the I/O threads). */
  boolean blocking();

  /** Keys held in this process (for a shared store: in its local fallback). */
  int localKeys();

  @Override
  void close();
}
