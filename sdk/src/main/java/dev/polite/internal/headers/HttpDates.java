package dev.polite.internal.headers;

/**
 * Reads the date forms servers put in rate-limit headers: the three HTTP-date forms a recipient
 * must accept (RFC 9110 section 5.6.7: IMF-fixdate {@code Sun, 06 Nov 1994 08:49:37 GMT}, RFC 850
 * {@code Sunday, 06-Nov-94 08:49:37 GMT}, asctime {@code Sun Nov  6 08:49:37 1994}) and, leniently,
 * JavaScript's {@code Date.toString()} ({@code Tue Feb 16 2021 09:02:42 GMT+0100 (CET)}) that
 * lemlist sends.
 *
 * <p>One forgiving scanner serves all four instead of four formatters: it collects a weekday
 * (ignored), a month name, a day, a year, a time and an optional zone offset in any order those
 * forms use, and rejects anything else. It accepts month and zone names in any case, although
 * RFC 9110 calls HTTP-date case-sensitive: a client loses nothing by being lenient here. It
 * allocates nothing, which matters because every response's {@code Date} passes through it.
 */
final class HttpDates {
  static final long INVALID = Long.MIN_VALUE;

  private HttpDates() {}

  /**
   * Epoch milliseconds of the date in {@code s}, or INVALID.
   *
   * @param referenceYear the year two-digit years are read relative to (the response's year)
   */
  static long parse(String s, int referenceYear) {
    long fixed = imfFixdate(s);
    return fixed != NOT_FIXDATE ? fixed : scan(s, referenceYear);
  }

  /** {@link #imfFixdate}'s answer for a string of another form. */
  private static final long NOT_FIXDATE = Long.MIN_VALUE + 1;

  /**
   * The IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37 GMT}) read at its fixed positions, or
   * NOT_FIXDATE for any other shape. It is the form of every {@code Date} header, which most
   * parses convert, and the scanner below reads every string accepted here to the same instant;
   * this only spares it the token-by-token search.
   */
  private static long imfFixdate(String s) {
    if (s.length() != 29 || s.charAt(3) != ',' || s.charAt(4) != ' ' || s.charAt(7) != ' '
        || s.charAt(11) != ' ' || s.charAt(16) != ' ' || s.charAt(19) != ':' || s.charAt(22) != ':'
        || s.charAt(25) != ' ' || !isShortWeekday(s) || !Ascii.regionMatches(s, 26, "gmt")) {
      return NOT_FIXDATE;
    }
    int month = CivilTime.month(s, 8, 11);
    long day = Numbers.digits(s, 5, 7);
    long year = Numbers.digits(s, 12, 16);
    long hour = Numbers.digits(s, 17, 19);
    long minute = Numbers.digits(s, 20, 22);
    long second = Numbers.digits(s, 23, 25);
    if (month == 0 || day < 0 || year < 0 || hour < 0 || minute < 0 || second < 0) return NOT_FIXDATE;
    long t = CivilTime.epochMillis((int) year, month, (int) day, (int) hour, (int) minute, (int) second, 0);
    return t == CivilTime.INVALID ? INVALID : t;
  }

  private static final String[] SHORT_WEEKDAYS = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

  /** Whether {@code s} starts with a three-letter weekday, any case. */
  private static boolean isShortWeekday(String s) {
    for (String d : SHORT_WEEKDAYS) {
      if (Ascii.regionMatches(s, 0, d)) return true;
    }
    return false;
  }

  /** Any of the forms, token by token (package-private so that tests can hold the fast path to it). */
  static long scan(String s, int referenceYear) {
    int n = s.length();
    int day = -1;
    int month = 0;
    int year = -1;
    boolean twoDigitYear = false;
    int hour = -1;
    int minute = -1;
    int second = -1;
    int offsetMinutes = 0;
    boolean zone = false;
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (c == ' ' || c == '\t' || c == ',') {
        i++;
      } else if (c == '(') {
        break; // JavaScript's "(Central European Standard Time)"
      } else if (Numbers.isAlpha(c)) {
        int start = i;
        while (i < n && Numbers.isAlpha(s.charAt(i))) i++;
        int len = i - start;
        int m = len <= 9 ? CivilTime.month(s, start, i) : 0;
        if (m != 0 && month == 0 && (len == 3 || isFullMonth(len, m))) {
          month = m;
        } else if (isZone(s, start, len)) {
          if (zone) return INVALID;
          zone = true;
        } else if (!isWeekday(s, start, len) || month != 0 || day >= 0) {
          return INVALID;
        }
      } else if (Numbers.isDigit(c)) {
        int start = i;
        while (i < n && Numbers.isDigit(s.charAt(i))) i++;
        int len = i - start;
        if (len > 4) return INVALID;
        int v = (int) Numbers.digits(s, start, i);
        if (i < n && s.charAt(i) == ':') {
          if (hour >= 0 || len > 2) return INVALID;
          hour = v;
          i++;
          int ms = i;
          while (i < n && Numbers.isDigit(s.charAt(i))) i++;
          if (i - ms != 2) return INVALID;
          minute = (int) Numbers.digits(s, ms, i);
          second = 0;
          if (i < n && s.charAt(i) == ':') {
            i++;
            int ss = i;
            while (i < n && Numbers.isDigit(s.charAt(i))) i++;
            if (i - ss != 2) return INVALID;
            second = (int) Numbers.digits(s, ss, i);
          }
        } else if (len == 4 && year < 0) {
          year = v;
        } else if (len <= 2 && day < 0) {
          day = v;
        } else if (len == 2 && year < 0) {
          year = v;
          twoDigitYear = true;
        } else {
          return INVALID;
        }
      } else if ((c == '+' || c == '-') && hour >= 0 && i + 1 < n && Numbers.isDigit(s.charAt(i + 1))) {
        int sign = c == '-' ? -1 : 1;
        i++;
        int start = i;
        while (i < n && Numbers.isDigit(s.charAt(i))) i++;
        int hh;
        int mm;
        if (i - start == 4) {
          hh = (int) Numbers.digits(s, start, start + 2);
          mm = (int) Numbers.digits(s, start + 2, i);
        } else if (i - start == 2 && i + 2 < n && s.charAt(i) == ':') {
          hh = (int) Numbers.digits(s, start, i);
          int ms = i + 1;
          i = ms;
          while (i < n && Numbers.isDigit(s.charAt(i))) i++;
          if (i - ms != 2) return INVALID;
          mm = (int) Numbers.digits(s, ms, i);
        } else if (i - start <= 2) {
          hh = (int) Numbers.digits(s, start, i);
          mm = 0;
        } else {
          return INVALID;
        }
        if (hh > 18 || mm > 59) return INVALID;
        offsetMinutes = sign * (hh * 60 + mm);
      } else if (c == '-' && hour < 0) {
        i++; // RFC 850's 06-Nov-94
      } else {
        return INVALID;
      }
    }
    if (day < 0 || month == 0 || year < 0 || hour < 0) return INVALID;
    if (twoDigitYear) year = CivilTime.fullYear(year, referenceYear);
    long t = CivilTime.epochMillis(year, month, day, hour, minute, second, 0);
    return t == CivilTime.INVALID ? INVALID : t - offsetMinutes * 60_000L;
  }

  private static boolean isFullMonth(int len, int month) {
    return len == FULL_MONTH_LENGTHS[month - 1];
  }

  private static final int[] FULL_MONTH_LENGTHS = {7, 8, 5, 5, 3, 4, 4, 6, 9, 7, 8, 8};

  private static boolean isZone(String s, int start, int len) {
    return (len == 3 && (s.regionMatches(true, start, "GMT", 0, 3) || s.regionMatches(true, start, "UTC", 0, 3)))
        || (len == 2 && s.regionMatches(true, start, "UT", 0, 2))
        || (len == 1 && (s.charAt(start) == 'Z' || s.charAt(start) == 'z'));
  }

  private static boolean isWeekday(String s, int start, int len) {
    if (len < 3) return false;
    for (String d : WEEKDAYS) {
      if ((len == 3 || len == d.length()) && s.regionMatches(true, start, d, 0, len)) return true;
    }
    return false;
  }

  private static final String[] WEEKDAYS = {
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"
  };
}
