package dev.polite.demo;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which rate-limit header dialect the server speaks. {@code Retry-After} (whole seconds) is
 * always sent on a 429, whatever the style.
 *
 * <p>Usage: {@code DemoServer.builder().headers(HeaderStyle.LEGACY)} or {@code --headers legacy}.
 */
public enum HeaderStyle {
  /**
   * IETF draft-ietf-httpapi-ratelimit-headers-11: {@code RateLimit-Policy: "default";q=10;w=1}
   * and {@code RateLimit: "default";r=3;t=1}. The default.
   */
  IETF("ietf"),
  /** The older draft fields {@code RateLimit-Limit}, {@code -Remaining}, {@code -Reset} (delta seconds). */
  LEGACY("legacy"),
  /** GitHub style {@code x-ratelimit-limit/-remaining/-used/-reset}, reset in epoch seconds. */
  X_RATELIMIT("x-ratelimit"),
  /** No quota headers; only {@code Retry-After} on a 429. */
  NONE("none");

  private final String cliName;

  HeaderStyle(String cliName) {
    this.cliName = cliName;
  }

  /** The command-line name, such as {@code x-ratelimit}. */
  public String cliName() {
    return cliName;
  }

  /**
   * Parses a command-line name or constant name.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static HeaderStyle parse(String text) {
    String wanted = text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    for (HeaderStyle style : values()) {
      if (style.cliName.equals(wanted)) {
        return style;
      }
    }
    throw new IllegalArgumentException("headers: unknown value '" + text + "', expected one of "
        + Arrays.stream(values()).map(HeaderStyle::cliName).collect(Collectors.joining("|")));
  }

  @Override
  public String toString() {
    return cliName;
  }
}
