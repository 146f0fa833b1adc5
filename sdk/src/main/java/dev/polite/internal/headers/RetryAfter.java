package dev.polite.internal.headers;

/**
 * The server's requested delay and its retry verdict.
 *
 * <p>Precedence: {@code retry-after-ms}, then {@code x-ms-retry-after-ms}
 * (both milliseconds, the Azure SDK and OpenAI order), then RFC 9110 {@code Retry-After}
 * (delta-seconds, any of the three HTTP-date forms converted against the response's {@code Date},
 * and the decimals Shopify sends, {@code 2.0}); the first usable one wins. Traefik's
 * {@code X-Retry-In} (a Go duration) is the precise value behind a {@code Retry-After} Traefik used
 * to floor ({@code Retry-After: 0} + {@code X-Retry-In: 105.712425ms}), so the longer of the two is
 * kept. MailerLite's {@code X-RateLimit-Retry-After} (seconds) is read only when nothing else is.
 *
 * <p>{@code Stripe-Should-Retry} and OpenAI's {@code x-should-retry} gate the decision, not the
 * delay: {@code true}/{@code false} (any case), anything else ignored.
 */
public final class RetryAfter {
  static final String DIALECT = "retry-after";

  private RetryAfter() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    long millis = Delays.read(r, Field.RETRY_AFTER_MS, Delays.Unit.RETRY_MILLIS);
    if (millis < 0) millis = Delays.read(r, Field.X_MS_RETRY_AFTER_MS, Delays.Unit.RETRY_MILLIS);
    if (millis < 0) millis = Delays.read(r, Field.RETRY_AFTER, Delays.Unit.RETRY_SECONDS);
    if (h.has(Field.X_RETRY_IN)) {
      millis = Math.max(millis, Delays.read(r, Field.X_RETRY_IN, Delays.Unit.GO));
    }
    if (millis < 0) millis = Delays.read(r, Field.X_RATELIMIT_RETRY_AFTER, Delays.Unit.RETRY_SECONDS);
    if (millis >= 0) r.retryAfterMillis(millis, DIALECT);
    verdict(r, h.first(Field.STRIPE_SHOULD_RETRY), "stripe");
    verdict(r, h.first(Field.X_SHOULD_RETRY), DIALECT);
  }

  private static void verdict(Reading r, @org.jspecify.annotations.Nullable String value, String dialect) {
    Boolean verdict = verdictOf(value);
    if (verdict == null) return;
    r.shouldRetry(verdict);
    r.recognised(dialect);
  }

  /**
   * The server's explicit retry verdict in {@code headers}, read by the same rule as the signals:
   * {@code false} from either field wins; {@code null} when neither field says.
   */
  public static @org.jspecify.annotations.Nullable Boolean shouldRetry(dev.polite.HeaderLines headers) {
    Boolean stripe = verdictOf(headers.first(Field.STRIPE_SHOULD_RETRY.wireName));
    Boolean openAi = verdictOf(headers.first(Field.X_SHOULD_RETRY.wireName));
    if (stripe == null) return openAi;
    return openAi == null ? stripe : stripe && openAi;
  }

  private static @org.jspecify.annotations.Nullable Boolean verdictOf(@org.jspecify.annotations.Nullable String value) {
    if (value == null) return null;
    String v = value.trim();
    if (v.equalsIgnoreCase("true")) return Boolean.TRUE;
    if (v.equalsIgnoreCase("false")) return Boolean.FALSE;
    return null;
  }
}
