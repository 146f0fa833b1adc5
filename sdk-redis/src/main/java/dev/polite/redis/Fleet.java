package dev.polite.redis;

import dev.polite.SharedKey;
import java.util.concurrent.CompletableFuture;

/**
 * What a {@link RedisSharedKey} needs of the {@link RedisSharedState} that made it: its settings,
 * its connection (the lease script, which node a key is on), whether that node answers in time,
 * the listener of call waits, and word that the key left. The state hands each key a view of
 * itself as this interface, so that the key does not name the class above it.
 */
interface Fleet {
  /** The settings every key of the state reads. */
  SharedSettings settings();

  /** Whether the state was closed: its keys pace alone for good. */
  boolean isClosed();

  /** Whether the key whose state is at {@code redisKey} paces alone now: its node did not answer in time. */
  boolean isFallingBack(String redisKey);

  /** The node a request for {@code redisKey} goes to now, to be told with its outcome. */
  String nodeOf(String redisKey);

  /** The channel every pause of the state's prefix is published on. */
  String pauseChannel();

  /** Runs the lease script, failing at once when not connected; the caller times it out. */
  CompletableFuture<LeaseAnswer> lease(String[] keys, String[] args);

  /** An answer from {@code node} came within the timeout. */
  void reached(String node);

  /** A request to {@code node} failed or timed out. */
  void unreachable(String node, Throwable cause);

  /** Whether anyone listens for how long calls wait for Redis. */
  boolean timesWaits();

  /** Tells the listener, if any, that calls waited these nanoseconds for Redis. */
  void callsWaited(long[] waitedNanos);

  /** {@code key} left: it hears no more pauses, and its seat is free. */
  void left(String stateKey, SharedKey key);
}
