package dev.polite.internal.headers;

import java.util.ArrayList;
import java.util.List;

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
      int attr = attribute(name, dash + 1);
      if (attr < 0) continue;
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
   * Which attribute {@code name} ends with from {@code at} on (any case): 0 {@code limit},
   * 1 {@code remaining}, 2 {@code reset}, or -1. The length and first letter leave one candidate
   * to compare.
   */
  private static int attribute(String name, int at) {
    int end = name.length();
    if (end - at == 9) return Ascii.regionEquals(name, at, end, "remaining") ? 1 : -1;
    if (end - at != 5) return -1;
    char c = name.charAt(at);
    if (c == 'l' || c == 'L') return Ascii.regionEquals(name, at, end, "limit") ? 0 : -1;
    return Ascii.regionEquals(name, at, end, "reset") ? 2 : -1;
  }

  /**
   * The quota named by {@code name[start, end)} (any case), created on first sight: each quota
   * has three lines, so matching in place allocates its name once instead of three times.
   */
  private static Quota quota(List<Quota> quotas, String name, int start, int end) {
    for (int k = 0, n = quotas.size(); k < n; k++) {
      Quota q = quotas.get(k);
      if (Ascii.regionEquals(name, start, end, q.name)) return q;
    }
    return created(quotas, Quota.lowerName(name, start, end));
  }

  private static Quota created(List<Quota> quotas, String name) {
    Quota q = new Quota(name);
    if (name.contains("token")) q.unit = OpenAiDialect.TOKENS;
    else if (!name.equals("requests")) q.unit = name;
    quotas.add(q);
    return q;
  }
}
