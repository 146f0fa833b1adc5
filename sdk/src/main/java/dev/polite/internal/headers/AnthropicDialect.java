package dev.polite.internal.headers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Anthropic's {@code anthropic-ratelimit-<quota>-<limit|remaining|reset>}: quotas
 * {@code requests}, {@code tokens}, {@code input-tokens}, {@code output-tokens} (and the
 * subscription {@code unified-*} ones), resets as RFC 3339 timestamps converted against the
 * response's {@code Date}. A reset at or before {@code Date} is 0: the bucket is already full
 * again. Token quotas get the unit {@code tokens}. Dialect {@code anthropic}.
 */
final class AnthropicDialect {
  static final String DIALECT = "anthropic";

  private AnthropicDialect() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    if (!h.has(Prefix.ANTHROPIC)) return;
    List<Quota> quotas = new ArrayList<>(4);
    int prefix = Prefix.ANTHROPIC.text.length();
    for (int i = 0, n = h.prefixedCount(); i < n; i++) {
      if (h.prefixedKind(i) != Prefix.ANTHROPIC) continue;
      String name = h.prefixedName(i);
      int dash = name.lastIndexOf('-');
      if (dash <= prefix) continue;
      int attr;
      if (name.regionMatches(true, dash + 1, "limit", 0, 5) && name.length() - dash - 1 == 5) attr = 0;
      else if (name.regionMatches(true, dash + 1, "remaining", 0, 9) && name.length() - dash - 1 == 9) attr = 1;
      else if (name.regionMatches(true, dash + 1, "reset", 0, 5) && name.length() - dash - 1 == 5) attr = 2;
      else continue;
      Quota q = quota(quotas, name, prefix, dash);
      String value = h.prefixedValue(i);
      if (attr == 0) q.quota = Counts.parse(r, value, false);
      else if (attr == 1) q.remaining = Counts.parse(r, value, false);
      else q.resetMillis = Delays.parse(r, value, Delays.Unit.MAGNITUDE);
    }
    for (Quota q : quotas) q.addTo(r, DIALECT);
    if (!quotas.isEmpty()) r.recognised(DIALECT);
  }

  /**
   * The quota named by {@code name[start, end)} (any case), created on first sight: each quota
   * has three lines, so matching in place allocates its name once instead of three times.
   */
  private static Quota quota(List<Quota> quotas, String name, int start, int end) {
    int len = end - start;
    for (int k = 0, n = quotas.size(); k < n; k++) {
      Quota q = quotas.get(k);
      if (q.name.length() == len && name.regionMatches(true, start, q.name, 0, len)) return q;
    }
    return created(quotas, name.substring(start, end).toLowerCase(Locale.ROOT));
  }

  private static Quota created(List<Quota> quotas, String name) {
    Quota q = new Quota(name);
    if (name.contains("token")) q.unit = OpenAiDialect.TOKENS;
    else if (!name.equals("requests")) q.unit = name;
    quotas.add(q);
    return q;
  }
}
