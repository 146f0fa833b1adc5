package dev.polite.demo;

import dev.polite.demo.internal.FixedWindow;
import dev.polite.demo.internal.Gcra;
import dev.polite.demo.internal.LeakyMeter;
import dev.polite.demo.internal.LeakyQueue;
import dev.polite.demo.internal.Policy;
import dev.polite.demo.internal.RateLimiter;
import dev.polite.demo.internal.RedisScript;
import dev.polite.demo.internal.SlidingCounter;
import dev.polite.demo.internal.SlidingLog;
import dev.polite.demo.internal.TokenBucket;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

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
 * <p>Each constant is the one place that says what its algorithm needs: what a fresh key holds
 * (the burst or the limit), how a key's limiter is made in memory, and the Lua script the Redis
 * store runs it with, if any. Adding an algorithm is adding a constant here (and its script).
 */
public enum Algorithm {
  /** Capacity B refilling at N/W; rejects what the bucket cannot pay for. */
  TOKEN_BUCKET("token-bucket", Holds.BURST, TokenBucket::new, new RedisScript("token-bucket", "tb")),
  /** The token bucket stored as one theoretical arrival time. Same decisions. */
  GCRA("gcra", Holds.BURST, Gcra::new, new RedisScript("gcra", "gcra", "gcra:owed")),
  /**
   * A level draining at N/W, rejecting when full: the token bucket upside down. Redis runs it as
   * the token bucket, whose decisions (and state) are the same.
   */
  LEAKY_METER("leaky-meter", Holds.BURST, LeakyMeter::new, new RedisScript("token-bucket", "tb")),
  /** A FIFO of B slots leaving at N/W: admitted requests are delayed, not rejected. Memory only. */
  LEAKY_QUEUE("leaky-queue", Holds.BURST, LeakyQueue::new, null),
  /** One counter per aligned window; allows up to 2N across a boundary. */
  FIXED_WINDOW("fixed-window", Holds.LIMIT, FixedWindow::new, new RedisScript("fixed-window", "fw")),
  /** Every admitted timestamp of the last W; exact, O(N) memory per key. */
  SLIDING_LOG("sliding-log", Holds.LIMIT, SlidingLog::new, new RedisScript("sliding-log", "sl", "sl:seq")),
  /** Previous and current window counters, the previous one weighted by overlap. */
  SLIDING_COUNTER("sliding-counter", Holds.LIMIT, SlidingCounter::new,
      new RedisScript("sliding-counter", "sc"));

  /** What a fresh key holds: the bucket family holds the burst, the window family the limit. */
  private enum Holds { BURST, LIMIT }

  private final String cliName;
  private final Holds holds;
  private final Function<Policy, RateLimiter> limiter;
  private final @Nullable RedisScript redisScript;

  Algorithm(String cliName, Holds holds, Function<Policy, RateLimiter> limiter, @Nullable RedisScript redisScript) {
    this.cliName = cliName;
    this.holds = holds;
    this.limiter = limiter;
    this.redisScript = redisScript;
  }

  /** The command-line name, such as {@code token-bucket}. */
  public String cliName() {
    return cliName;
  }

  /** Whether the burst ({@code B}) applies: true for the bucket family. */
  public boolean usesBurst() {
    return holds == Holds.BURST;
  }

  /** Whether the Redis store can run this algorithm (all but the leaky queue). */
  public boolean runsOnRedis() {
    return redisScript != null;
  }

  /** Every algorithm the Redis store can run, in declaration order. */
  public static List<Algorithm> onRedis() {
    return Arrays.stream(values()).filter(Algorithm::runsOnRedis).toList();
  }

  /** A fresh limiter (a new key's state) enforcing {@code policy}; the server's stores call it. */
  public RateLimiter newLimiter(Policy policy) {
    return limiter.apply(policy);
  }

  /**
   * The script the Redis store runs this algorithm with; the server's Redis store calls it.
   *
   * @throws IllegalStateException when Redis cannot run it (see {@link #runsOnRedis()})
   */
  public RedisScript redisScript() {
    if (redisScript == null) {
      throw new IllegalStateException(cliName + " has no Redis script");
    }
    return redisScript;
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
    return this == TOKEN_BUCKET || this == GCRA || this == LEAKY_METER;
  }

  @Override
  public String toString() {
    return cliName;
  }
}
