package dev.polite.internal.headers;

/**
 * Reads RFC 3339 / ISO 8601 timestamps as Anthropic ({@code 2025-08-21T12:40:59Z}) and Atlassian
 * ({@code 2026-03-26T16:00Z}, minute precision) send them: {@code T}, {@code t} or a space between
 * date and time, optional seconds and fraction, and {@code Z} or an offset ({@code +01:00},
 * {@code +0100}); a missing zone is read as UTC. Hand-written because {@code Instant.parse}
 * rejects minute precision and offsets, and allocates.
 */
final class IsoTimes {
  static final long INVALID = Long.MIN_VALUE;

  private IsoTimes() {}

  /** Whether {@code s} starts like an ISO date ({@code dddd-dd-}). */
  static boolean looksLikeIso(String s) {
    return s.length() >= 10 && Numbers.isDigit(s.charAt(0)) && Numbers.isDigit(s.charAt(3))
        && s.charAt(4) == '-' && s.charAt(7) == '-';
  }

  /** Epoch milliseconds (fraction rounded up to the millisecond), or INVALID. */
  static long parse(String s) {
    int n = s.length();
    if (n < 16 || !looksLikeIso(s)) return INVALID;
    long year = Numbers.digits(s, 0, 4);
    long month = Numbers.digits(s, 5, 7);
    long day = Numbers.digits(s, 8, 10);
    char sep = s.charAt(10);
    if (sep != 'T' && sep != 't' && sep != ' ') return INVALID;
    if (s.charAt(13) != ':') return INVALID;
    long hour = Numbers.digits(s, 11, 13);
    long minute = Numbers.digits(s, 14, 16);
    if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0) return INVALID;
    int i = 16;
    long second = 0;
    int millis = 0;
    boolean extra = false;
    if (i < n && s.charAt(i) == ':') {
      if (i + 3 > n) return INVALID;
      second = Numbers.digits(s, i + 1, i + 3);
      if (second < 0) return INVALID;
      i += 3;
      if (i < n && (s.charAt(i) == '.' || s.charAt(i) == ',')) {
        i++;
        int start = i;
        while (i < n && Numbers.isDigit(s.charAt(i))) {
          int d = s.charAt(i) - '0';
          int k = i - start;
          if (k < 3) millis = millis * 10 + d;
          else if (d != 0) extra = true;
          i++;
        }
        int digits = i - start;
        if (digits == 0) return INVALID;
        for (int k = digits; k < 3; k++) millis *= 10;
      }
    }
    long offset = 0;
    if (i < n) {
      char z = s.charAt(i);
      if ((z == 'Z' || z == 'z') && i + 1 == n) {
        i++;
      } else if (z == '+' || z == '-') {
        int sign = z == '-' ? -1 : 1;
        long hh;
        long mm;
        if (n - i == 6 && s.charAt(i + 3) == ':') {
          hh = Numbers.digits(s, i + 1, i + 3);
          mm = Numbers.digits(s, i + 4, i + 6);
        } else if (n - i == 5) {
          hh = Numbers.digits(s, i + 1, i + 3);
          mm = Numbers.digits(s, i + 3, i + 5);
        } else if (n - i == 3) {
          hh = Numbers.digits(s, i + 1, i + 3);
          mm = 0;
        } else {
          return INVALID;
        }
        if (hh < 0 || mm < 0 || hh > 18 || mm > 59) return INVALID;
        offset = sign * (hh * 60L + mm) * 60_000L;
        i = n;
      } else {
        return INVALID;
      }
    }
    long t = CivilTime.epochMillis((int) year, (int) month, (int) day, (int) hour, (int) minute, (int) second, millis);
    if (t == CivilTime.INVALID) return INVALID;
    return t - offset + (extra ? 1 : 0);
  }
}
