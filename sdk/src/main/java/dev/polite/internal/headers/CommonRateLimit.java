package dev.polite.internal.headers;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The common shape of an IETF {@code RateLimit} field, read without building its members: a
 * List of at most {@link #MAX_ITEMS} items, each named by a String without escapes or by a Token,
 * whose parameters all have non-negative Integer values, {@code r} or {@code t} among them
 * ({@code "default";r=50;t=30}, {@code "burst";r=4;t=1, "day";r=900;t=3600}). Anything else (an
 * escape, a partition key, a decimal, a negative number, a parameter without a value, an Inner
 * List, a syntax error) is not this shape, and {@link StructuredFields} reads it, strictly, as it
 * reads every other field.
 *
 * <p>Why: {@code RateLimit} counts down on every answer, so it cannot be remembered as its
 * policy field is ({@link RecentPolicyFields}), and the strict parser builds a member, a
 * parameter list and a boxed number per value for it, on every answer, only to read three numbers
 * off each item. This reads them as it scans, one pass to check the shape and one to report.
 *
 * <p>What it reads is exactly what the strict parser and {@link IetfDialect}'s item rule read from
 * the same text: the same characters accepted in the same places (RFC 9651's SP after {@code ;},
 * OWS around {@code ,}), a repeated parameter's last value, the first policy of the item's name.
 * {@code CommonRateLimitTest} holds the two to that over generated fields.
 */
final class CommonRateLimit {
  /** Items read here; a field with more is read by the strict parser (the corpus has at most 4). */
  static final int MAX_ITEMS = 16;

  private CommonRateLimit() {}

  /** Whether {@code field} has the common shape. */
  static boolean matches(String field) {
    return scan(field, null, null);
  }

  /**
   * Reports each item of {@code field}, which {@link #matches}, on its quota among {@code quotas}
   * (made and added when the item names none yet).
   */
  static void read(Reading r, String field, List<Quota> quotas) {
    scan(field, r, quotas);
  }

  /** One pass over {@code s}: with no reading, only whether it has the shape; else reports. */
  private static boolean scan(String s, @Nullable Reading r, @Nullable List<Quota> quotas) {
    int n = s.length();
    int i = skipSp(s, 0);
    if (i == n) return false;
    for (int items = 1; ; items++) {
      if (items > MAX_ITEMS) return false;
      int nameStart;
      int nameEnd;
      char c = s.charAt(i);
      if (c == '"') {
        nameStart = ++i;
        while (i < n && (c = s.charAt(i)) != '"') {
          if (c == '\\' || c < 0x20 || c > 0x7e) return false;
          i++;
        }
        if (i == n) return false;
        nameEnd = i++;
      } else if (c == '*' || Numbers.isAlpha(c)) {
        nameStart = i++;
        while (i < n && StructuredFields.isTokenChar(s.charAt(i))) i++;
        nameEnd = i;
      } else {
        return false;
      }
      long remaining = -1;
      long reset = -1;
      long quota = -1;
      for (int params = 1; i < n && s.charAt(i) == ';'; params++) {
        if (params > StructuredFields.MAX_PARAMS) return false; // malformed: the strict parser says so
        i = skipSp(s, i + 1);
        int keyStart = i;
        if (i == n || !((c = s.charAt(i)) >= 'a' && c <= 'z' || c == '*')) return false;
        i++;
        while (i < n && StructuredFields.isKeyChar(s.charAt(i))) i++;
        int keyLength = i - keyStart;
        if (i == n || s.charAt(i) != '=') return false;
        int digitsStart = ++i;
        long v = 0;
        while (i < n && Numbers.isDigit(c = s.charAt(i))) {
          v = v * 10 + (c - '0');
          i++;
        }
        int digits = i - digitsStart;
        if (digits == 0 || digits > 15 || (i < n && s.charAt(i) == '.')) return false;
        if (keyLength == 1) {
          switch (s.charAt(keyStart)) {
            case 'r': remaining = v; break;
            case 't': reset = v; break;
            case 'q': quota = v; break;
            default: break;
          }
        }
      }
      if (remaining < 0 && reset < 0) return false; // not an era E item: the strict reading decides
      if (r != null && quotas != null) report(r, s, nameStart, nameEnd, remaining, reset, quota, quotas);
      i = skipOws(s, i);
      if (i == n) return true;
      if (s.charAt(i) != ',') return false;
      i = skipOws(s, i + 1);
      if (i == n) return false; // a trailing comma
    }
  }

  /** The item named {@code s[start, end)} on the first quota of that name, as IetfDialect finds one. */
  private static void report(Reading r, String s, int start, int end, long remaining, long reset,
      long quota, List<Quota> quotas) {
    Quota on = null;
    for (int k = 0, m = quotas.size(); k < m && on == null; k++) {
      Quota q = quotas.get(k);
      if (q.name.length() == end - start && s.startsWith(q.name, start)) on = q;
    }
    if (on == null) {
      on = new Quota(s.substring(start, end));
      quotas.add(on);
    }
    on.report(r, remaining, reset, quota);
  }

  private static int skipSp(String s, int i) {
    while (i < s.length() && s.charAt(i) == ' ') i++;
    return i;
  }

  private static int skipOws(String s, int i) {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
    return i;
  }
}
