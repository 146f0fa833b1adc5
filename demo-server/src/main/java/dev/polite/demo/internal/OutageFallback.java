package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import dev.polite.demo.WhenDown;
import java.util.function.LongSupplier;

/**
 * What a Redis-backed store decides while Redis does not answer, as {@link WhenDown} says: admit
 * all, reject all, or this node's share of the limit (limit ÷ nodes) from memory. Shared by the
 * shared store ({@link RedisStore}) and the synced one ({@link SyncedStore}), so that both fail
 * the same way and a lane measured against either means the same thing.
 */
final class OutageFallback implements AutoCloseable {
  private static final long ONE_SECOND = 1_000_000_000L;

  private final WhenDown whenDown;
  private final long capacity;
  private final MemoryStore local;

  OutageFallback(WhenDown whenDown, Algorithm algorithm, Policy policy, int nodes, LongSupplier nanos,
      int maxKeys) {
    this.whenDown = whenDown;
    this.capacity = policy.capacity(algorithm);
    this.local = new MemoryStore(algorithm, policy.share(nodes), nanos, maxKeys);
  }

  /** The mode, as the outage's log line names it. */
  WhenDown whenDown() {
    return whenDown;
  }

  /** Decides one request without Redis. */
  Decision decide(String key, long cost) {
    switch (whenDown) {
      case CLOSED:
        return Decision.reject(0, ONE_SECOND, ONE_SECOND);
      case LOCAL:
        return local.acquire(key, cost);
      case OPEN:
      default:
        return Decision.allow(capacity, 0);
    }
  }

  /** Keys held by the local share. */
  int localKeys() {
    return local.localKeys();
  }

  @Override
  public void close() {
    local.close();
  }
}
