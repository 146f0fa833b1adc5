package dev.polite.internal.headers;

/**
 * HubSpot, dialect {@code hubspot}: {@code X-HubSpot-RateLimit-Daily} with
 * {@code -Daily-Remaining} (a one-day window) and {@code -Secondly} with
 * {@code -Secondly-Remaining} (one second), and the burst triple {@code -Max},
 * {@code -Remaining}, {@code -Interval-Milliseconds}. Each pair is a policy.
 */
final class HubSpotDialect {
  static final String DIALECT = "hubspot";

  private HubSpotDialect() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    boolean found = pair(r, "daily", Field.X_HUBSPOT_RATELIMIT_DAILY, Field.X_HUBSPOT_RATELIMIT_DAILY_REMAINING, 86_400_000);
    found |= pair(r, "secondly", Field.X_HUBSPOT_RATELIMIT_SECONDLY, Field.X_HUBSPOT_RATELIMIT_SECONDLY_REMAINING, 1000);
    if (h.has(Field.X_HUBSPOT_RATELIMIT_MAX) || h.has(Field.X_HUBSPOT_RATELIMIT_REMAINING)) {
      long interval = Counts.read(r, Field.X_HUBSPOT_RATELIMIT_INTERVAL_MILLISECONDS, false);
      found |= pair(r, "burst", Field.X_HUBSPOT_RATELIMIT_MAX, Field.X_HUBSPOT_RATELIMIT_REMAINING, interval);
    }
    if (found) r.recognised(DIALECT);
  }

  private static boolean pair(Reading r, String name, Field limit, Field remaining, long windowMillis) {
    if (!r.headers.has(limit) && !r.headers.has(remaining)) return false;
    Quota q = new Quota(name);
    q.quota = Counts.read(r, limit, false);
    q.remaining = Counts.read(r, remaining, false);
    if (windowMillis != Plausible.ABSENT) q.window(r, windowMillis); // an interval of 0 is flagged
    if (q.quota < 0 && q.remaining < 0) return false;
    q.addTo(r, DIALECT);
    return true;
  }
}
