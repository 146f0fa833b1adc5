package dev.polite.demo.internal;

import java.util.List;

/**
 * One key's state on one node of a {@link SyncedStore}: the fleet's total as last read from Redis
 * plus what this node admitted itself since, deciding requests locally, and the count it hands to
 * the next sync. Thread-safe: requests decide while the sync thread pushes and learns.
 */
interface SyncedKey {

  /** Decides one request against this node's view, counting it when admitted. */
  Decision tryAcquire(long nowNanos, long cost);

  /** Decides one request that reserves {@code units}, for a refund to give back later on this node. */
  default Decision reserve(long nowNanos, long units) {
    return tryAcquire(nowNanos, units);
  }

  /**
   * The arguments of this key's next sync ({@code synced.lua}'s ARGV), taking the count admitted
   * since the last one: later admissions count towards the sync after.
   */
  List<String> push(long nowNanos);

  /** Learns the shared state Redis answered to the last {@link #push}. */
  void learn(Object reply);
}
