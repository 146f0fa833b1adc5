package dev.polite.internal.headers;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code x-ratelimit-<limit|remaining|reset>-<quota>} names: OpenAI and the many servers copying
 * it ({@code -requests}, {@code -tokens}, {@code -tokens_usage_based}; resets are Go durations
 * such as {@code 6m0s} or {@code 547ms}, a bare number is seconds), dialect {@code openai}; and
 * Kong's per-window pairs ({@code X-RateLimit-Limit-Minute}, {@code -Remaining-Minute}, for
 * second/minute/hour/day/month/year), dialect {@code kong}, whose window the suffix names.
 *
 * <p>Each quota becomes a policy named by its suffix. Token quotas get the unit {@code tokens}: they
 * never pace requests, and govern only when exhausted. Azure OpenAI's {@code -1} limits mean
 * unknown.
 */
final class OpenAiDialect {
  static final String OPENAI = "openai";
  static final String KONG = "kong";
  static final String TOKENS = "tokens";

  private OpenAiDialect() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    if (!h.has(Prefix.X_RATELIMIT)) return;
    List<Quota> quotas = new ArrayList<>(2);
    int prefix = Prefix.X_RATELIMIT.text.length();
    for (int i = 0, n = h.prefixedCount(); i < n; i++) {
      if (h.prefixedKind(i) != Prefix.X_RATELIMIT) continue;
      String name = h.prefixedName(i);
      int attr = attribute(name, prefix);
      if (attr < 0) continue;
      int start = prefix + ATTRIBUTES[attr].length();
      if (start >= name.length()) continue;
      Quota q = quota(r, quotas, name, start);
      String value = h.prefixedValue(i);
      if (attr == 0) q.quota = Counts.parse(r, value, false);
      else if (attr == 1) q.remaining = Counts.parse(r, value, false);
      else q.resetMillis = Delays.parse(r, value, Delays.Unit.GO);
    }
    for (Quota q : quotas) {
      String dialect = q.windowMillis > 0 ? KONG : OPENAI;
      q.addTo(r, dialect);
      r.recognised(dialect);
    }
  }

  /** What follows the prefix, by index: 0 the limit, 1 the remaining count, 2 the reset. */
  private static final String[] ATTRIBUTES = {"limit-", "remaining-", "reset-"};

  /**
   * Which of {@link #ATTRIBUTES} {@code name} has at {@code at} (any case), or -1. The first
   * letter and the third tell them apart, so only one candidate is compared in full.
   */
  private static int attribute(String name, int at) {
    if (at + 2 >= name.length()) return -1;
    int attr;
    char c = name.charAt(at);
    if (c == 'l' || c == 'L') {
      attr = 0;
    } else if (c == 'r' || c == 'R') {
      char third = name.charAt(at + 2);
      attr = third == 'm' || third == 'M' ? 1 : 2;
    } else {
      return -1;
    }
    return Ascii.regionMatches(name, at, ATTRIBUTES[attr]) ? attr : -1;
  }

  /** The quota named by {@code name} from {@code start} on (any case), created on first sight. */
  private static Quota quota(Reading r, List<Quota> quotas, String name, int start) {
    int end = name.length();
    for (int k = 0, n = quotas.size(); k < n; k++) {
      Quota q = quotas.get(k);
      if (Ascii.regionEquals(name, start, end, q.name)) return q;
    }
    String suffix = Quota.lowerName(name, start, end);
    Quota q = new Quota(suffix);
    long window = kongWindowSeconds(suffix);
    if (window > 0) {
      q.windowSeconds(r, window);
    } else if (suffix.contains("token")) {
      q.unit = TOKENS;
    } else if (!suffix.equals("requests")) {
      q.unit = suffix;
    }
    quotas.add(q);
    return q;
  }

  private static long kongWindowSeconds(String suffix) {
    switch (suffix) {
      case "second": return 1;
      case "minute": return 60;
      case "hour": return 3600;
      case "day": return 86_400;
      case "month": return 30L * 86_400;
      case "year": return 365L * 86_400;
      default: return -1;
    }
  }
}
