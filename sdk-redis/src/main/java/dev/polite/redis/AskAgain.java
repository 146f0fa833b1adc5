package dev.polite.redis;

/**
 * When a key pacing alone asks Redis again: 50 ms after a failed request, doubling up to
 * {@code retryEvery}, so that a Redis that is down costs each key a request a {@code retryEvery}
 * while one that blinked is heard again within a tenth of a second. After an answer in time,
 * while its state still waits for {@link #REJOIN_AFTER} of them in a row to
 * rejoin the fleet, at once: Redis has just answered, and each ask confirms it (a key calling
 * once a second would otherwise stay alone for seconds). At most that many asks per call, so
 * another key's failures cannot keep this one asking.
 *
 * <p>Not thread-safe: its {@link RedisSharedKey} holds it under its lock.
 */
final class AskAgain {
  private static final long FIRST_RETRY_NANOS = 50_000_000L;
  /**
   * How many answers in time, in a row, bring keys pacing alone back to the fleet. One failure
   * sends them alone, but one answer must not bring them back: a Redis whose answers straddle
   * the timeout would flip the fleet on every other request, and log each flip. A key alone asks
   * again 50 ms after a failure (doubling), and at once after an answer in time, so confirming
   * costs N round trips, a few milliseconds. With answers late at random with probability p, a
   * run of N in time takes about ((1 - p)^-N - 1) / p asks, of which about a fraction p failed
   * and cost at least 50 ms each. N = 5: 5 asks after a blip on a healthy Redis (p near 0), 6 at
   * p = 5 %; at p = 1/2, 62 asks, 31 failed: one rejoin in about 2 s or more (lasting about two
   * requests), not one every other request; never while every answer is late (a 25 ms proxy
   * before a 20 ms timeout). N = 3: 14 asks at p = 1/2, a rejoin about every half second,
   * flapping again. N = 8 would space a coin-flip Redis's rejoins to about 13 s, but each answer
   * more in a row is one more that a healthy Redis's rare late one spoils; 5 already takes the
   * flapping from every other request to once in seconds.
   */
  static final int REJOIN_AFTER = 5;

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
    return ++confirms < REJOIN_AFTER;
  }
}
