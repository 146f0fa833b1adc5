package dev.polite.internal.headers;

/**
 * The hyphenated {@code X-Rate-Limit-*} family: X/Twitter and Okta ({@code x-rate-limit}, epoch
 * seconds reset), IBM Security Verify ({@code X-Rate-Limit-Policy} names the policy), Zendesk
 * ({@code X-Rate-Limit: 700} is the per-minute limit, {@code zendesk}), and Prisjakt, whose
 * {@code X-Rate-Limit-Reset: 600000} is milliseconds until reset. Epoch-sized values are epochs,
 * smaller ones therefore milliseconds: the name, not magnitude alone, settles the unit (the
 * magnitude rule would wait 6.9 days where Prisjakt meant 10 minutes).
 */
final class XRateLimitHyphenDialect {
  private XRateLimitHyphenDialect() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    boolean zendesk = h.has(Field.X_RATE_LIMIT);
    if (!zendesk && !h.has(Field.X_RATE_LIMIT_LIMIT) && !h.has(Field.X_RATE_LIMIT_REMAINING)
        && !h.has(Field.X_RATE_LIMIT_RESET)) {
      return;
    }
    String name = XRateLimitDialect.trimmed(h.first(Field.X_RATE_LIMIT_POLICY));
    Quota q = new Quota(name == null ? "" : name);
    q.quota = Counts.read(r, h.has(Field.X_RATE_LIMIT_LIMIT) ? Field.X_RATE_LIMIT_LIMIT : Field.X_RATE_LIMIT, false);
    q.remaining = Counts.read(r, Field.X_RATE_LIMIT_REMAINING, false);
    q.resetMillis = Delays.read(r, Field.X_RATE_LIMIT_RESET, Delays.Unit.EPOCH_OR_MILLIS);
    if (zendesk && !h.has(Field.X_RATE_LIMIT_LIMIT)) q.windowMillis = 60_000;
    String dialect = zendesk ? "zendesk" : "x-rate-limit";
    q.addTo(r, dialect);
    r.recognised(dialect);
  }
}
