package dev.polite.internal.headers;

/**
 * Reads a count (limit, remaining, used) from a singleton header, by these sanity rules:
 * decimals are floored (Reddit sends {@code 598.0}); {@code -1} means unknown (Spring Cloud
 * Gateway on a Redis error, Azure OpenAI); other negatives (a gateway once sent {@code -27689})
 * and numbers no field truthfully carries (21 digits, NaN) are absent, flagged, as
 * {@link Plausible} says: never 0, which would read as "exhausted" and pause the key. Several values
 * (repeated lines, or Reddit's comma-joined {@code 991, 98}) yield the most conservative plausible
 * one, flagged: the smallest limit or remaining, the largest used.
 */
final class Counts {
  /** No usable count. */
  static final long ABSENT = Plausible.ABSENT;

  private Counts() {}

  /** The count in every line of {@code f}; ABSENT if none. */
  static long read(Reading r, Field f, boolean largest) {
    int lines = r.headers.lineCount(f);
    if (lines == 0) return ABSENT;
    long best = parse(r, r.headers.line(f, 0), largest);
    for (int i = 1; i < lines; i++) {
      long v = parse(r, r.headers.line(f, i), largest);
      if (v == ABSENT) continue;
      if (best != ABSENT && best != v) r.anomaly();
      best = best == ABSENT ? v : largest ? Math.max(best, v) : Math.min(best, v);
    }
    return best;
  }

  /** The count in one line; a comma-joined line yields its most conservative member, flagged. */
  static long parse(Reading r, String line, boolean largest) {
    long best = ABSENT;
    int count = 0;
    int n = line.length();
    for (int start = 0; start <= n; ) {
      int end = line.indexOf(',', start);
      if (end < 0) end = n;
      long v = one(r, line, start, end);
      if (v != ABSENT) {
        best = best == ABSENT ? v : largest ? Math.max(best, v) : Math.min(best, v);
        count++;
      }
      start = end + 1;
    }
    if (count > 1) r.anomaly();
    return best;
  }

  /** One count in {@code s[start, end)}: a non-negative count, or ABSENT (flagged when implausible). */
  static long one(Reading r, String s, int start, int end) {
    long m = r.kept(Plausible.number(Numbers.milli(s, start, end, false)));
    return m < 0 ? ABSENT : m / 1000;
  }
}
