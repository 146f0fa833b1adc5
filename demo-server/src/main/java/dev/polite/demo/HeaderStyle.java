package dev.polite.demo;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which rate-limit header dialect the server speaks, on every answer and on a 429. Most styles
 * send {@code Retry-After} in whole seconds on a 429; {@link #RETRY_AFTER_MS} adds milliseconds,
 * {@link #RETRY_AFTER_DATE} sends an HTTP-date instead, and {@link #NONE} sends nothing at all.
 * The styles are the shapes real servers answer in, so a client can be measured against each.
 *
 * <p>Usage: {@code DemoServer.builder().headers(HeaderStyle.LEGACY)} or {@code --headers legacy}.
 */
public enum HeaderStyle {
  /**
   * IETF draft-ietf-httpapi-ratelimit-headers-11: {@code RateLimit-Policy: "default";q=10;w=1}
   * and {@code RateLimit: "default";r=3;t=1}.
   */
  IETF("ietf"),
  /** The older draft fields {@code RateLimit-Limit}, {@code -Remaining}, {@code -Reset} (delta seconds). */
  LEGACY("legacy"),
  /** GitHub style {@code x-ratelimit-limit/-remaining/-used/-reset}, reset in epoch seconds. */
  X_RATELIMIT("x-ratelimit"),
  /**
   * X's (and Okta's) {@code x-rate-limit-limit/-remaining/-reset}, reset in epoch seconds: GitHub's
   * numbers, a hyphen apart, and no field to name a budget in, so a host with several budgets
   * ({@code --budget}) answers each route with its own numbers under the same names, as X's API v2
   * does per endpoint. A 429 adds {@code Retry-After} in whole seconds, as most styles do (X itself
   * documents none).
   */
  X_RATE_LIMIT("x-rate-limit"),
  /**
   * No quota headers; a 429 carries only {@code Retry-After} in whole seconds (delta seconds, RFC
   * 9110), as most APIs that document no limit headers answer.
   */
  RETRY_AFTER("retry-after"),
  /**
   * No quota headers; a 429 carries {@code retry-after-ms} (milliseconds) and {@code Retry-After}
   * (seconds, rounded up), as OpenAI and Azure OpenAI answer.
   */
  RETRY_AFTER_MS("retry-after-ms"),
  /**
   * No quota headers; a 429 carries {@code Retry-After} as an IMF-fixdate (RFC 9110), and every
   * answer a {@code Date} from the same clock, skewed by {@code --clock-skew}: a client must
   * measure the date against {@code Date}, not its own clock.
   */
  RETRY_AFTER_DATE("retry-after-date"),
  /**
   * Shopify's {@code X-Shopify-Shop-Api-Call-Limit: used/limit} on every answer (no reset, no
   * window); a 429 adds {@code Retry-After} in whole seconds.
   */
  USED_LIMIT("used-limit"),
  /**
   * Azure Resource Manager's {@code x-ms-ratelimit-remaining-subscription-reads: N} on every answer:
   * what remains, and nothing else (no limit, no reset, no window); a 429 adds {@code Retry-After}
   * in whole seconds.
   */
  AZURE("azure"),
  /**
   * Nothing at all: no quota headers and a bare 429 without {@code Retry-After}, as HAProxy's
   * default deny answers. The hardest shape for a client: it must find the pace by itself.
   */
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
