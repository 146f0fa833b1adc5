package dev.polite.internal.headers;

/**
 * Turns a reset or retry value into a delay in milliseconds from the response, following the
 * corpus's section 5.2: the header's name decides the unit first ({@link Unit}), then the value's
 * shape (an ISO timestamp, an HTTP date, a Go duration, an {@code hh:mm:ss} span), then, for bare
 * numbers whose name leaves the unit open, their magnitude: at least 10^12 is epoch milliseconds,
 * at least 10^9 epoch seconds (a delay of 31 years is implausible), anything smaller a delay.
 *
 * <p>Sanity rules: {@code -1} is "unknown"; other negatives are 0 (and flagged), except in
 * Retry-After and its millisecond kin, whose grammar has no sign, so that a negative value there is
 * malformed and dropped (flask-limiter once sent {@code -1484742195}); over a year is clamped and
 * flagged; a singleton field with several values (repeated lines, or lines an intermediary
 * comma-joined) yields the longest delay, flagged. Results are never negative, except the
 * {@link #ABSENT} marker.
 */
final class Delays {
  /** No usable delay. */
  static final long ABSENT = -1;

  /** What a header's name says about its numbers. */
  enum Unit {
    /** Retry-After: delta-seconds (decimals tolerated), strict about sign. */
    RETRY_SECONDS,
    /** retry-after-ms and kin: milliseconds, strict about sign. */
    RETRY_MILLIS,
    /** A delay in seconds by name (Discord's Reset-After, IETF reset, Reddit). */
    SECONDS,
    /** A duration header (OpenAI resets): Go form, a bare number is seconds. */
    GO,
    /** Name leaves the unit open: magnitude decides (section 5.2 step 3). */
    MAGNITUDE,
    /**
     * {@code x-rate-limit-reset}: epoch seconds at X/Twitter, Okta and IBM, but milliseconds until
     * reset at Prisjakt; a value too small to be an epoch is therefore milliseconds.
     */
    EPOCH_OR_MILLIS
  }

  private Delays() {}

  /** The delay in every line of {@code f}, the longest when several; ABSENT if none. */
  static long read(Reading r, Field f, Unit unit) {
    int lines = r.headers.lineCount(f);
    if (lines == 0) return ABSENT;
    long best = parse(r, r.headers.line(f, 0), unit);
    for (int i = 1; i < lines; i++) {
      long v = parse(r, r.headers.line(f, i), unit);
      if (v != ABSENT) {
        if (best != ABSENT && v != best) r.anomaly();
        best = Math.max(best, v);
      }
    }
    return best;
  }

  /** The delay in one line; a comma-joined line yields its longest member, flagged. */
  static long parse(Reading r, String line, Unit unit) {
    long v = one(r, line, 0, line.length(), unit);
    if (v != Numbers.INVALID) return Math.max(v, ABSENT);
    int comma = line.indexOf(',');
    if (comma < 0) return ABSENT;
    long best = ABSENT;
    int count = 0;
    for (int start = 0; start <= line.length(); ) {
      int end = line.indexOf(',', start);
      if (end < 0) end = line.length();
      long m = one(r, line, start, end, unit);
      if (m != Numbers.INVALID && m >= 0) {
        best = Math.max(best, m);
        count++;
      }
      start = end + 1;
    }
    if (count > 1 || best != ABSENT) r.anomaly();
    return best;
  }

  /** One value in {@code s[start, end)}: a delay, ABSENT for "unknown", or INVALID when unreadable. */
  private static long one(Reading r, String s, int start, int end, Unit unit) {
    while (start < end && Numbers.isSpace(s.charAt(start))) start++;
    while (end > start && Numbers.isSpace(s.charAt(end - 1))) end--;
    if (start >= end) return Numbers.INVALID;
    long m = Numbers.milli(s, start, end, true);
    if (m != Numbers.INVALID) return number(r, m, unit);
    String v = start == 0 && end == s.length() ? s : s.substring(start, end);
    char c = v.charAt(0);
    if (IsoTimes.looksLikeIso(v)) {
      long t = IsoTimes.parse(v);
      return t == IsoTimes.INVALID ? Numbers.INVALID : r.delayUntil(t, t % 1000 == 0);
    }
    if (Numbers.isDigit(c) || c == '-' || c == '.') {
      if (TimeSpan.looksLikeTimeSpan(v)) {
        long span = TimeSpan.millis(v);
        if (span == TimeSpan.INVALID) return Numbers.INVALID;
        return nonNegative(r, span);
      }
      long go = GoDuration.millis(v);
      return go == GoDuration.INVALID ? Numbers.INVALID : r.clampDelay(go);
    }
    long t = HttpDates.parse(v, r.baseYear());
    return t == HttpDates.INVALID ? Numbers.INVALID : r.delayUntil(t, true);
  }

  private static long number(Reading r, long milli, Unit unit) {
    if (milli == -1000) return ABSENT;
    if (milli < 0) {
      r.anomaly();
      return unit == Unit.RETRY_SECONDS || unit == Unit.RETRY_MILLIS ? ABSENT : 0;
    }
    switch (unit) {
      case RETRY_MILLIS:
        return r.clampDelay(ceilDiv(milli, 1000));
      case MAGNITUDE:
      case EPOCH_OR_MILLIS:
        if (milli >= 1_000_000_000_000_000L) { // 10^12 units
          return r.delayUntil(ceilDiv(milli, 1000), false); // epoch milliseconds
        }
        if (milli >= 1_000_000_000_000L) { // 10^9 units
          return r.delayUntil(milli, milli % 1000 == 0); // epoch seconds, maybe fractional
        }
        return r.clampDelay(unit == Unit.EPOCH_OR_MILLIS ? ceilDiv(milli, 1000) : milli);
      default:
        return r.clampDelay(milli); // thousandths of a second are milliseconds
    }
  }

  private static long nonNegative(Reading r, long millis) {
    if (millis < 0) {
      r.anomaly();
      return 0;
    }
    return r.clampDelay(millis);
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}
