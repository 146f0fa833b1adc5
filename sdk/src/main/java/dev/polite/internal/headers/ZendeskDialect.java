package dev.polite.internal.headers;

import java.util.Locale;

/**
 * Zendesk's per-endpoint {@code zendesk-ratelimit-<endpoint>: total=100; remaining=99; resets=41}
 * (semicolon-separated, not a structured field), dialect {@code zendesk}: a policy named by the
 * endpoint, {@code resets} a delay in seconds. Zendesk's account-wide {@code X-Rate-Limit} and
 * {@code ratelimit-*} fields are read by their own families.
 */
final class ZendeskDialect {
  static final String DIALECT = "zendesk";

  private ZendeskDialect() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    if (!h.has(Prefix.ZENDESK)) return;
    int prefix = Prefix.ZENDESK.text.length();
    for (int i = 0, n = h.prefixedCount(); i < n; i++) {
      if (h.prefixedKind(i) != Prefix.ZENDESK) continue;
      Quota q = new Quota(h.prefixedName(i).substring(prefix).toLowerCase(Locale.ROOT));
      String v = h.prefixedValue(i);
      for (int start = 0; start < v.length(); ) {
        int end = v.indexOf(';', start);
        if (end < 0) end = v.length();
        int eq = v.indexOf('=', start);
        if (eq > start && eq < end) {
          String key = v.substring(start, eq).trim();
          if (key.equals("total")) q.quota = Counts.one(r, v, eq + 1, end);
          else if (key.equals("remaining")) q.remaining = Counts.one(r, v, eq + 1, end);
          else if (key.equals("resets")) q.resetMillis = Delays.parse(r, v.substring(eq + 1, end), Delays.Unit.SECONDS);
        }
        start = end + 1;
      }
      if (!q.isEmpty()) {
        q.addTo(r, DIALECT);
        r.recognised(DIALECT);
      }
    }
  }
}
