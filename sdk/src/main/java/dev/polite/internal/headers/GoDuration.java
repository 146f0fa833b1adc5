package dev.polite.internal.headers;

/**
 * Reads Go's {@code time.Duration.String()} form, which OpenAI ({@code 6m0s}, {@code 547ms},
 * {@code 2m52.8s}) and Traefik's {@code X-Retry-In} ({@code 105.712425ms}) send: a sequence of
 * decimal numbers each with a unit {@code h m s ms us µs ns}, as {@code time.ParseDuration} accepts.
 * A bare number is not a Go duration (callers decide what unit-less values mean).
 *
 * <p>Integer arithmetic in nanoseconds, saturating at about 31 years, so no value overflows or
 * becomes infinite; no allocation.
 */
final class GoDuration {
  static final long INVALID = Long.MIN_VALUE;
  private static final long CAP_NANOS = 1_000_000_000_000_000_000L;

  private GoDuration() {}

  /** Nanoseconds of the duration in {@code s} (trimmed), or INVALID; never negative. */
  static long nanos(String s) {
    int n = s.length();
    int i = 0;
    while (i < n && Numbers.isSpace(s.charAt(i))) i++;
    while (n > i && Numbers.isSpace(s.charAt(n - 1))) n--;
    if (i < n && s.charAt(i) == '+') i++;
    if (i >= n) return INVALID;
    if (n - i == 1 && s.charAt(i) == '0') return 0;
    long total = 0;
    while (i < n) {
      long whole = 0;
      int start = i;
      while (i < n && Numbers.isDigit(s.charAt(i))) {
        if (whole < 1_000_000_000_000L) whole = whole * 10 + (s.charAt(i) - '0');
        else whole = CAP_NANOS;
        i++;
      }
      boolean anyDigits = i > start;
      long frac = 0;
      long scale = 1;
      if (i < n && s.charAt(i) == '.') {
        i++;
        int fs = i;
        while (i < n && Numbers.isDigit(s.charAt(i))) {
          if (scale < 1_000_000_000_000L) {
            frac = frac * 10 + (s.charAt(i) - '0');
            scale *= 10;
          }
          i++;
        }
        anyDigits |= i > fs;
      }
      if (!anyDigits) return INVALID;
      int us = i;
      while (i < n && !Numbers.isDigit(s.charAt(i)) && s.charAt(i) != '.') i++;
      long unit = unitNanos(s, us, i);
      if (unit <= 0) return INVALID;
      long part = saturatingMultiply(whole, unit);
      // frac/scale of a unit, rounded up to the nanosecond
      long fracNanos = frac == 0 ? 0 : (long) Math.ceil((double) frac / scale * unit);
      total = Math.min(CAP_NANOS, total + Math.min(CAP_NANOS, part) + fracNanos);
    }
    return total;
  }

  /** Milliseconds of the duration, rounded up; INVALID when not a Go duration. */
  static long millis(String s) {
    long nanos = nanos(s);
    if (nanos == INVALID) return INVALID;
    return (nanos + 999_999) / 1_000_000;
  }

  private static long unitNanos(String s, int start, int end) {
    int len = end - start;
    if (len == 1) {
      switch (s.charAt(start)) {
        case 'h': return 3_600_000_000_000L;
        case 'm': return 60_000_000_000L;
        case 's': return 1_000_000_000L;
        default: return -1;
      }
    }
    if (len == 2 && s.charAt(start + 1) == 's') {
      switch (s.charAt(start)) {
        case 'm': return 1_000_000L;
        case 'u': case '\u00b5': case '\u03bc': return 1_000L;
        case 'n': return 1L;
        default: return -1;
      }
    }
    return -1;
  }

  private static long saturatingMultiply(long a, long b) {
    long hi = Math.multiplyHigh(a, b);
    long lo = a * b;
    if ((hi == 0 && lo >= 0) && lo <= CAP_NANOS) return lo;
    return CAP_NANOS;
  }
}
