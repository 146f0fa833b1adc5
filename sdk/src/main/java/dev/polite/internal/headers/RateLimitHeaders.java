package dev.polite.internal.headers;

import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import java.time.Duration;
import okhttp3.Headers;

/**
 * Reads a response's rate-limit signals. A first cut: Retry-After in delta-seconds and the IETF
 * draft-11 {@code RateLimit} / {@code RateLimit-Policy} fields; the full dialect parser grows
 * behind this same entry point.
 *
 * <p>Never throws: malformed values are dropped. Thread-safe.
 */
public final class RateLimitHeaders {
  private static final RateLimitHeaders STANDARD = new RateLimitHeaders();

  private RateLimitHeaders() {}

  /** The parser with every built-in dialect. */
  public static RateLimitHeaders standard() {
    return STANDARD;
  }

  /**
   * Parses one response.
   *
   * @param status the response's status code
   * @param headers all of the response's headers
   * @param nowEpochMillis our wall clock, used only when the response has no usable {@code Date}
   */
  public RateLimitSignals parse(int status, Headers headers, long nowEpochMillis) {
    RateLimitSignals.Builder b = RateLimitSignals.builder();
    String dialect = RateLimitSignals.NO_DIALECT;
    String retryAfter = headers.get("Retry-After");
    if (retryAfter != null) {
      long s = parseNonNegativeLong(retryAfter.trim());
      if (s >= 0) {
        b.retryAfter(Duration.ofSeconds(s));
        dialect = "retry-after";
      }
    }
    String policy = String.join(", ", headers.values("RateLimit-Policy"));
    String limit = String.join(", ", headers.values("RateLimit"));
    if (!limit.isEmpty()) {
      long r = param(limit, "r");
      long t = param(limit, "t");
      RateLimitPolicy.Builder p = RateLimitPolicy.builder(name(limit));
      if (r >= 0) p.remaining(r);
      if (t >= 0) p.reset(Duration.ofSeconds(t));
      if (!policy.isEmpty()) {
        long q = param(policy, "q");
        long w = param(policy, "w");
        if (q >= 0) p.quota(q);
        if (w > 0) p.window(Duration.ofSeconds(w));
      }
      RateLimitPolicy built = p.build();
      b.addPolicy(built).governedBy(built);
      dialect = "ietf-draft-11";
    }
    String shouldRetry = headers.get("Stripe-Should-Retry");
    if (shouldRetry != null) {
      b.shouldRetry(Boolean.parseBoolean(shouldRetry.trim()));
    }
    boolean rejection = status == 429;
    b.rejection(rejection);
    return b.dialect(dialect).build();
  }

  private static String name(String field) {
    int semi = field.indexOf(';');
    String n = (semi < 0 ? field : field.substring(0, semi)).trim();
    return n.startsWith("\"") && n.endsWith("\"") && n.length() >= 2 ? n.substring(1, n.length() - 1) : n;
  }

  private static long param(String field, String key) {
    for (String part : field.split("[;,]")) {
      String p = part.trim();
      if (p.startsWith(key + "=")) {
        return parseNonNegativeLong(p.substring(key.length() + 1).trim());
      }
    }
    return -1;
  }

  private static long parseNonNegativeLong(String s) {
    if (s.isEmpty() || s.length() > 15) return -1;
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') return -1;
    }
    return Long.parseLong(s);
  }
}
