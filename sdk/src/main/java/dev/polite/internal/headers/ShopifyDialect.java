package dev.polite.internal.headers;

/**
 * Shopify's REST Admin API, dialect {@code shopify}: {@code X-Shopify-Shop-Api-Call-Limit: 32/40}
 * is the leaky bucket's fill level, <em>used</em>/size, so 8 remain. Its fractional
 * {@code Retry-After: 2.0} is {@link RetryAfter}'s. Several values keep the fullest bucket.
 */
final class ShopifyDialect {
  static final String DIALECT = "shopify";

  private ShopifyDialect() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    int lines = h.lineCount(Field.X_SHOPIFY_SHOP_API_CALL_LIMIT);
    if (lines == 0) return;
    Quota best = null;
    int found = 0;
    for (int i = 0; i < lines; i++) {
      String line = h.line(Field.X_SHOPIFY_SHOP_API_CALL_LIMIT, i);
      for (int start = 0; start < line.length(); ) {
        int end = line.indexOf(',', start);
        if (end < 0) end = line.length();
        Quota q = usedOverLimit(r, line, start, end, "");
        if (q != null) {
          found++;
          if (best == null || q.remaining < best.remaining) best = q;
        }
        start = end + 1;
      }
    }
    if (found > 1) r.anomaly();
    if (best != null) {
      best.addTo(r, DIALECT);
      r.recognised(DIALECT);
    }
  }

  /** {@code used/limit} in {@code s[start, end)} as a quota with its remainder, or null. */
  static @org.jspecify.annotations.Nullable Quota usedOverLimit(Reading r, String s, int start, int end, String name) {
    int slash = s.indexOf('/', start);
    if (slash < 0 || slash >= end) return null;
    long used = Counts.one(r, s, start, slash);
    long limit = Counts.one(r, s, slash + 1, end);
    if (used < 0 || limit < 0) return null;
    Quota q = new Quota(name);
    q.quota = limit;
    q.remaining = Math.max(0, limit - used);
    return q;
  }
}
