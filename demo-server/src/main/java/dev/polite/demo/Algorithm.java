package dev.polite.demo;

import java.util.Arrays;
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
 */
public enum Algorithm {
  /** Capacity B refilling at N/W; rejects what the bucket cannot pay for. */
  TOKEN_BUCKET("token-bucket"),
  /** The token bucket stored as one theoretical arrival time. Same decisions. */
  GCRA("gcra"),
  /** A level draining at N/W, rejecting when full: the token bucket upside down. */
  LEAKY_METER("leaky-meter"),
  /** A FIFO of B slots leaving at N/W: admitted requests are delayed, not rejected. */
  LEAKY_QUEUE("leaky-queue"),
  /** One counter per aligned window; allows up to 2N across a boundary. */
  FIXED_WINDOW("fixed-window"),
  /** Every admitted timestamp of the last W; exact, O(N) memory per key. */
  SLIDING_LOG("sliding-log"),
  /** Previous and current window counters, the previous one weighted by overlap. */
  SLIDING_COUNTER("sliding-counter");

  private final String cliName;

  Algorithm(String cliName) {
    this.cliName = cliName;
  }

  /** The command-line name, such as {@code token-bucket}. */
  public String cliName() {
    return cliName;
  }

  /** Whether the burst ({@code B}) applies: true for the bucket family. */
  public boolean usesBurst() {
    return this == TOKEN_BUCKET || this == GCRA || this == LEAKY_METER || this == LEAKY_QUEUE;
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

  @Override
  public String toString() {
    return cliName;
  }
}
