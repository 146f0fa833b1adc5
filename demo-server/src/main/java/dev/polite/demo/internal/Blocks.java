package dev.polite.demo.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Keys that a limiter's refusal has blocked ({@code --block-for}): once the limiter refuses a key,
 * every call of that key is refused for the block's length, and each call that arrives while the
 * block lasts restarts it, so the block ends one length after the latest refused call. This is a
 * CDN rate-limiting rule's mitigation timeout (the client is blocked for a while once over the
 * rate) and the penalty some APIs add: a client that comes back before the block ends, or whose
 * calls already on their way arrive during it, only makes it longer. A client that never goes over
 * never meets one.
 *
 * <p>Each key's block is the end of its latest restart, in the clock's nanoseconds, raised but
 * never lowered, so concurrent refusals of one key settle on the latest. The keys live in a bounded
 * {@link KeyTable}; an entry idle for one block length is over and may be forgotten, so a flood of
 * keys costs memory only while their blocks last. Kept in this node's memory, whatever the store.
 *
 * <p>Thread-safe; reads no clock: time comes in as {@code nowNanos}.
 */
public final class Blocks {
  private final long blockNanos;
  private final KeyTable<AtomicLong> ends;

  /**
   * @param blockNanos how long a block lasts after the latest refused call, at least 1
   * @param maxKeys the most keys held
   */
  public Blocks(long blockNanos, int maxKeys) {
    if (blockNanos < 1) {
      throw new IllegalArgumentException("blockNanos: must be at least 1, was " + blockNanos);
    }
    this.blockNanos = blockNanos;
    this.ends = new KeyTable<>(maxKeys, blockNanos, () -> new AtomicLong(Long.MIN_VALUE));
  }

  /** Blocks {@code key} (again) from {@code nowNanos}: its block now ends one length from now, or later. */
  public void block(String key, long nowNanos) {
    long end = Nanos.saturatedAdd(nowNanos, blockNanos);
    ends.get(key, nowNanos).accumulateAndGet(end, Math::max);
  }

  /**
   * Whether {@code key} is blocked at {@code nowNanos}; if it is, this call is refused and restarts
   * the block ({@link #block}).
   */
  public boolean refuses(String key, long nowNanos) {
    AtomicLong end = ends.peek(key);
    if (end == null || end.get() <= nowNanos) {
      return false;
    }
    block(key, nowNanos);
    return true;
  }

  /** How long a block lasts after the latest refused call, in nanoseconds. */
  public long blockNanos() {
    return blockNanos;
  }
}
