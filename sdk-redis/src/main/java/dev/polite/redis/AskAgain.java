package dev.polite.redis;

/**
 * When a key pacing alone asks Redis again: 50 ms after a failed request, doubling up to
 * {@code retryEvery}, so that a Redis that is down costs each key a request a {@code retryEvery}
 * while one that blinked is heard again within a tenth of a second. After an answer in time,
 * while its state still waits for {@link RedisSharedState#REJOIN_AFTER} of them in a row to
 * rejoin the fleet, at once: Redis has just answered, and each ask confirms it (a key calling
 * once a second would otherwise stay alone for seconds). At most that many asks per call, so
 * another key's failures cannot keep this one asking.
 *
 * <p>Not thread-safe: its {@link RedisSharedKey} holds it under its lock.
 */
final class AskAgain {
  private static final long FIRST_RETRY_NANOS = 50_000_000L;

  private final long retryEveryNanos;
  /** Requests failed in a row. */
  private int failures;
  /** Asks chained on answers in time since this key's last call while pacing alone. */
  private int confirms;

  AskAgain(long retryEveryNanos) {
    this.retryEveryNanos = retryEveryNanos;
  }

  /** How long after its last request a key pacing alone asks again. */
  long delay() {
    if (failures == 0) {
      return 0;
    }
    return Math.min(retryEveryNanos, FIRST_RETRY_NANOS << Math.min(failures - 1, 20));
  }

  /** A call of a key pacing alone asks again: its confirmations count from here. */
  void callAsks() {
    confirms = 0;
  }

  /** A request failed or timed out. */
  void failed() {
    failures++;
  }

  /** A request was answered in time. */
  void answered() {
    failures = 0;
  }

  /** Whether an answer in time, while the key still paces alone, is confirmed by another ask now. */
  boolean confirmsAgain() {
    return ++confirms < RedisSharedState.REJOIN_AFTER;
  }
}
