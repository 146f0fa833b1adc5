package dev.polite.internal.headers;

/**
 * Turns a reset or retry value into a delay in milliseconds from the response:
 * the header's name decides the unit first ({@link Unit}), then the value's
 * shape (an ISO timestamp, an HTTP date, a Go duration, an {@code hh:mm:ss} span), then, for bare
 * numbers whose name leaves the unit open, their magnitude: at least 10^12 is epoch milliseconds,
 * at least 10^9 epoch seconds (a delay of 31 years is implausible), anything smaller a delay.
 *
 * <p>What can be true is {@link Plausible}'s to say: {@code -1} is "unknown"; any other negative
 * (flask-limiter once sent {@code Retry-After: -1484742195}), a delay over a year, an instant more
 * than a year from the response's {@code Date}, or a number no field truthfully carries
 * ({@code 1e400}, NaN, 21 digits) is absent and flagged, never clamped into a pause. A singleton
 * field with several values (repeated lines, or lines an intermediary comma-joined) yields the
 * longest of its plausible delays, flagged. Results are never negative, except the {@link #ABSENT}
 * marker, and never over a year.
 */
final class Delays {
  /** No usable delay. */
  static final long ABSENT = Plausible.ABSENT;

  /** What a header's name says about its numbers. */
  enum Unit {
    /** Retry-After: delta-seconds (decimals tolerated). */
    RETRY_SECONDS,
    /** retry-after-ms and kin: milliseconds. */
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

  /**
   * The delay in one line; a comma-joined line yields its longest plausible member, flagged (an
   * implausible member was dropped, and flagged, by {@link #one}).
   */
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
      if (m >= 0) { // neither INVALID nor ABSENT
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
        return span == TimeSpan.INVALID ? Numbers.INVALID : r.delay(span);
      }
      long go = GoDuration.millis(v);
      if (go != GoDuration.INVALID) return r.delay(go);
      // Go's grammar has no sign, but a negative duration is a negative delay, not garbage
      if (c == '-' && GoDuration.millis(v.substring(1)) != GoDuration.INVALID) r.anomaly();
      return Numbers.INVALID;
    }
    long t = HttpDates.parse(v, r.baseYear());
    return t == HttpDates.INVALID ? Numbers.INVALID : r.delayUntil(t, true);
  }

  /** A number read in thousandths, as a delay in the unit {@code unit} names; ABSENT if none can be true. */
  static long number(Reading r, long milli, Unit unit) {
    long v = r.kept(Plausible.number(milli));
    if (v < 0) return ABSENT;
    switch (unit) {
      case RETRY_MILLIS:
        return r.delay(ceilDiv(v, 1000));
      case MAGNITUDE:
      case EPOCH_OR_MILLIS:
        if (v >= 1_000_000_000_000_000L) { // 10^12 units
          return r.delayUntil(ceilDiv(v, 1000), false); // epoch milliseconds
        }
        if (v >= 1_000_000_000_000L) { // 10^9 units
          return r.delayUntil(v, v % 1000 == 0); // epoch seconds, maybe fractional
        }
        return r.delay(unit == Unit.EPOCH_OR_MILLIS ? ceilDiv(v, 1000) : v);
      default:
        return r.delay(v); // thousandths of a second are milliseconds
    }
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}
