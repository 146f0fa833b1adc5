package dev.polite.demo;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The rate-limiting algorithms the demo server can enforce, each with the name the command line
 * uses.
 *
 * <p>Usage: {@code DemoServer.builder().algorithm(Algorithm.GCRA)} or {@code --algorithm gcra}.
 *
 * <p>With {@code limit N} per {@code window W} and a burst {@code B} (default {@code N}): the
 * bucket family (token bucket, GCRA, leaky meter, leaky queue) holds {@code B} and refills or
 * drains at {@code N / W}; the window family (fixed window, sliding log, sliding counter) allows
 * {@code N} per {@code W} and ignores the burst.
 *
 * <p>Each constant is the one place that says what its algorithm is and can do: what a fresh key
 * holds (the burst or the limit) and which stores run it. How the server runs it lives beside the
 * stores, in switches over these constants that the compiler checks are complete: the limiter a
 * key gets in memory ({@code MemoryStore.newLimiter}) and the Lua script of the Redis store
 * ({@code RedisScript.of}). Adding an algorithm is adding a constant here, and then a case to
 * each of those (and a script).
 */
public enum Algorithm {
  /** Capacity B refilling at N/W; rejects what the bucket cannot pay for. */
  TOKEN_BUCKET("token-bucket", Holds.BURST, Can.RUN_ON_REDIS, Can.RUN_SYNCED, Can.TAKE_REFUNDS),
  /** The token bucket stored as one theoretical arrival time. Same decisions. */
  GCRA("gcra", Holds.BURST, Can.RUN_ON_REDIS, Can.RUN_SYNCED, Can.TAKE_REFUNDS),
  /**
   * A level draining at N/W, rejecting when full: the token bucket upside down. Redis runs it as
   * the token bucket, whose decisions (and state) are the same.
   */
  LEAKY_METER("leaky-meter", Holds.BURST, Can.RUN_ON_REDIS, Can.RUN_SYNCED, Can.TAKE_REFUNDS),
  /** A FIFO of B slots leaving at N/W: admitted requests are delayed, not rejected. Memory only. */
  LEAKY_QUEUE("leaky-queue", Holds.BURST),
  /** One counter per aligned window; allows up to 2N across a boundary. */
  FIXED_WINDOW("fixed-window", Holds.LIMIT, Can.RUN_ON_REDIS, Can.RUN_SYNCED),
  /** Every admitted timestamp of the last W; exact, O(N) memory per key. */
  SLIDING_LOG("sliding-log", Holds.LIMIT, Can.RUN_ON_REDIS),
  /** Previous and current window counters, the previous one weighted by overlap. */
  SLIDING_COUNTER("sliding-counter", Holds.LIMIT, Can.RUN_ON_REDIS, Can.RUN_SYNCED);

  /** What a fresh key holds: the bucket family holds the burst, the window family the limit. */
  private enum Holds { BURST, LIMIT }

  /** What it can do beyond running in memory, which every algorithm does. */
  private enum Can { RUN_ON_REDIS, RUN_SYNCED, TAKE_REFUNDS }

  private final String cliName;
  private final Holds holds;
  private final List<Can> can;

  Algorithm(String cliName, Holds holds, Can... can) {
    this.cliName = cliName;
    this.holds = holds;
    this.can = List.of(can);
  }

  /** The command-line name, such as {@code token-bucket}. */
  public String cliName() {
    return cliName;
  }

  /** Whether the burst ({@code B}) applies: true for the bucket family. */
  public boolean usesBurst() {
    return holds == Holds.BURST;
  }

  /**
   * What a fresh key holds under this algorithm, with {@code limit} per window and a bucket of
   * {@code burst}: the burst for the bucket family, the limit for the window family. No request may
   * cost more, since none could ever be admitted.
   */
  public long holds(long limit, long burst) {
    return usesBurst() ? burst : limit;
  }

  /**
   * Whether the Redis store can run this algorithm: all but the leaky queue, which holds requests
   * back rather than counting them.
   */
  public boolean runsOnRedis() {
    return can.contains(Can.RUN_ON_REDIS);
  }

  /** Every algorithm the Redis store can run, in declaration order. */
  public static List<Algorithm> onRedis() {
    return Arrays.stream(values()).filter(Algorithm::runsOnRedis).toList();
  }

  /**
   * Whether the synced store ({@code synced:redis://...}: count locally, sync every interval) can
   * run this algorithm: the token bucket, GCRA and leaky meter (one synced bucket: their decisions
   * are the same), the fixed window and the sliding window counter. Not the sliding log (every
   * timestamp would have to be shipped) nor the leaky queue (it holds requests, not counts).
   */
  public boolean runsOnSyncedStore() {
    return can.contains(Can.RUN_SYNCED);
  }

  /** Every algorithm the synced store can run, in declaration order. */
  public static List<Algorithm> onSyncedStore() {
    return Arrays.stream(values()).filter(Algorithm::runsOnSyncedStore).toList();
  }

  /**
   * Parses a command-line name ({@code token-bucket}) or constant name ({@code TOKEN_BUCKET}).
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static Algorithm parse(String text) {
    String wanted = text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    for (Algorithm algorithm : values()) {
      if (algorithm.cliName.equals(wanted)) {
        return algorithm;
      }
    }
    throw new IllegalArgumentException(
        "algorithm: unknown value '" + text + "', expected one of " + names());
  }

  /** All command-line names, separated by {@code |}. */
  public static String names() {
    return Arrays.stream(values()).map(Algorithm::cliName).collect(Collectors.joining("|"));
  }

  /**
   * Whether a request may give units back (a negative cost): the bucket family, where a refund
   * is tokens returned, up to the capacity. A window counts requests that happened, and the
   * queue's are already scheduled; neither has anything to give back.
   */
  public boolean takesRefunds() {
    return can.contains(Can.TAKE_REFUNDS);
  }

  /** Every algorithm that takes refunds, in declaration order. */
  public static List<Algorithm> takingRefunds() {
    return Arrays.stream(values()).filter(Algorithm::takesRefunds).toList();
  }

  @Override
  public String toString() {
    return cliName;
  }
}
