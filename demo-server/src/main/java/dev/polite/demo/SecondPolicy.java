package dev.polite.demo;

import java.time.Duration;

/**
 * A second policy every call of a key must also pass ({@code --second-policy NAME:LIMIT/WINDOW}): a
 * fixed window of {@code limit} calls per {@code window}, beside the main limit ({@code --limit}
 * per {@code --window}, under {@code --algorithm}), as an API that allows a burst per second and a
 * quota per minute enforces both. A call is admitted only when both admit it, and a refused call
 * spends neither. The IETF draft-11 fields carry both in one list:
 * {@code RateLimit-Policy: "default";q=20;w=1, "window";q=60;w=5}.
 *
 * <p>Usage: {@code DemoServer.builder().limit(20).secondPolicy(new SecondPolicy("window", 60, Duration.ofSeconds(5)))}
 *
 * @param name the policy's name in the headers: 1 to 64 letters, digits, {@code _}, {@code .} or
 *     {@code -}, and not the main policy's {@code default}
 * @param limit calls per window, at least 1
 * @param window the window, 1 ms to 366 days, aligned as {@code --algorithm fixed-window}'s are
 */
public record SecondPolicy(String name, long limit, Duration window) {
  /** The command line's shape of one, for the refusals of text that is not one. */
  static final String SHAPE = "NAME:LIMIT/WINDOW, such as window:60/5s";

  /**
   * @throws IllegalArgumentException naming {@code secondPolicy}, for a name, limit or window it refuses
   */
  public SecondPolicy {
    if (name == null || !name.matches("[A-Za-z0-9_.-]{1,64}")) {
      throw new IllegalArgumentException("secondPolicy: the name must be 1 to 64 letters, digits, '_', '.' or '-', "
          + "was '" + name + "'");
    }
    if (name.equals("default")) {
      throw new IllegalArgumentException("secondPolicy: 'default' names the main policy; give the second another name");
    }
    if (limit < 1) {
      throw new IllegalArgumentException("secondPolicy: the limit must be at least 1, was " + limit);
    }
    if (window == null || window.compareTo(Duration.ofMillis(1)) < 0 || window.compareTo(Duration.ofDays(366)) > 0) {
      throw new IllegalArgumentException("secondPolicy: the window must be 1 ms to 366 days, was " + window);
    }
  }

  /**
   * Reads {@code NAME:LIMIT/WINDOW} ({@code window:60/5s}; the window in {@code --window}'s syntax).
   *
   * @throws IllegalArgumentException naming {@code second-policy}, for text that is not one
   */
  static SecondPolicy parse(String text) {
    LimitText read = LimitText.parse("second-policy", SHAPE, text, 0);
    return new SecondPolicy(read.name(), read.limit(), read.window());
  }

  /** As the command line gives it: {@code window:60/PT5S}. */
  @Override
  public String toString() {
    return name + ":" + limit + "/" + window;
  }
}
