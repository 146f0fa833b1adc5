package dev.polite.internal.headers;

/**
 * Reads the .NET {@code TimeSpan} form Azure Resource Graph sends in
 * {@code x-ms-user-quota-resets-after}: {@code [d.]hh:mm:ss[.fffffff]} ({@code 00:00:03} is three
 * seconds). Allocation-free; a leading minus is accepted, so that the caller can tell a negative
 * span (which {@link Plausible} drops, flagged) from garbage.
 */
final class TimeSpan {
  static final long INVALID = Long.MIN_VALUE;

  private TimeSpan() {}

  /** Whether {@code s} has a colon: the cheap shape test before {@link #millis}. */
  static boolean looksLikeTimeSpan(String s) {
    return s.indexOf(':') > 0 && !IsoTimes.looksLikeIso(s);
  }

  /** Milliseconds (fraction rounded up), negative for a negative span, or INVALID. */
  static long millis(String s) {
    int n = s.length();
    int i = 0;
    while (i < n && Numbers.isSpace(s.charAt(i))) i++;
    while (n > i && Numbers.isSpace(s.charAt(n - 1))) n--;
    boolean negative = false;
    if (i < n && s.charAt(i) == '-') {
      negative = true;
      i++;
    }
    int start = i;
    while (i < n && Numbers.isDigit(s.charAt(i))) i++;
    if (i == start || i - start > 8 || i >= n) return INVALID;
    long days = 0;
    long hours;
    if (s.charAt(i) == '.') {
      days = Numbers.digits(s, start, i);
      i++;
      start = i;
      while (i < n && Numbers.isDigit(s.charAt(i))) i++;
      if (i == start || i - start > 2) return INVALID;
    } else if (i - start > 2) {
      return INVALID;
    }
    hours = Numbers.digits(s, start, i);
    if (i + 6 > n || s.charAt(i) != ':' || s.charAt(i + 3) != ':') return INVALID;
    long minutes = Numbers.digits(s, i + 1, i + 3);
    long seconds = Numbers.digits(s, i + 4, i + 6);
    if (hours < 0 || minutes < 0 || seconds < 0 || minutes > 59 || seconds > 59) return INVALID;
    if (days > 0 && hours > 23) return INVALID;
    i += 6;
    long millis = 0;
    if (i < n) {
      if (s.charAt(i) != '.') return INVALID;
      i++;
      int fs = i;
      boolean extra = false;
      while (i < n && Numbers.isDigit(s.charAt(i))) {
        int d = s.charAt(i) - '0';
        if (i - fs < 3) millis = millis * 10 + d;
        else if (d != 0) extra = true;
        i++;
      }
      int digits = i - fs;
      if (digits == 0 || i != n) return INVALID;
      for (int k = digits; k < 3; k++) millis *= 10;
      if (extra) millis++;
    }
    long total = (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + millis;
    return negative ? -total : total;
  }
}
