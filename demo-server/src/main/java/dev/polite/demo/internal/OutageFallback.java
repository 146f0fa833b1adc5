package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import dev.polite.demo.WhenDown;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * What a Redis-backed store decides while Redis does not answer, as {@link WhenDown} says: admit
 * all, reject all, or this node's share of the limit (limit ÷ nodes) from memory. Shared by the
 * shared store ({@link RedisStore}) and the synced one ({@link SyncedStore}), so that both fail
 * the same way and a lane measured against either means the same thing. It also knows whether
 * Redis is down now, and logs each change once, however many requests or syncs it spans.
 *
 * <p>Thread-safe.
 */
final class OutageFallback implements AutoCloseable {
  private static final long ONE_SECOND = 1_000_000_000L;

  private final WhenDown whenDown;
  private final long capacity;
  private final MemoryStore local;
  private final AtomicBoolean down = new AtomicBoolean();
  private final AtomicInteger outagesLogged = new AtomicInteger();
  private final AtomicInteger recoveriesLogged = new AtomicInteger();

  OutageFallback(WhenDown whenDown, Algorithm algorithm, Policy policy, int nodes, LongSupplier nanos,
      int maxKeys) {
    this.whenDown = whenDown;
    this.capacity = policy.capacity(algorithm);
    this.local = new MemoryStore(algorithm, policy.share(nodes), nanos, maxKeys);
  }

  /** Whether Redis is marked down now. */
  boolean isDown() {
    return down.get();
  }

  /** Redis failed ({@code cause}): marks it down, logged once per outage. */
  void failed(Logger log, String target, Exception cause) {
    if (down.compareAndSet(false, true)) {
      outagesLogged.incrementAndGet();
      log.warn("rate limiter store {} unavailable, failing {}{}: {}", target, whenDown,
          whenDown == WhenDown.LOCAL ? " (this node's share of the limit)" : "", cause.toString());
    }
  }

  /** Redis answered: marks it up, and says so once, with what the store does again ({@code again}). */
  void answered(Logger log, String target, String again) {
    if (down.compareAndSet(true, false)) {
      recoveriesLogged.incrementAndGet();
      log.info("rate limiter store {} is back; {}", target, again);
    }
  }

  /** How many outages were logged (one line each, however long they lasted). */
  int outagesLogged() {
    return outagesLogged.get();
  }

  /** How many recoveries were logged. */
  int recoveriesLogged() {
    return recoveriesLogged.get();
  }

  /**
   * Decides one request without Redis; {@code reserving} when its cost is a reservation. A refund
   * gives nothing back open or closed (what was reserved is in Redis), and in the local share only
   * what was reserved there.
   */
  Decision decide(String key, long cost, boolean reserving) {
    switch (whenDown) {
      case CLOSED:
        return cost < 0 ? Decision.refund(0, 0, ONE_SECOND) : Decision.reject(0, ONE_SECOND, ONE_SECOND);
      case LOCAL:
        return reserving ? local.reserve(key, cost) : local.acquire(key, cost);
      case OPEN:
      default:
        return cost < 0 ? Decision.refund(0, capacity, 0) : Decision.allow(capacity, 0);
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
