package dev.polite.internal.headers;

/**
 * Calendar arithmetic for the date parsers: days since the epoch from a proleptic Gregorian date
 * (Howard Hinnant's {@code days_from_civil}), month names, and RFC 9110's rule for two-digit
 * years. Hand-written so that parsing a date allocates nothing and needs no formatter.
 */
final class CivilTime {
  static final long INVALID = Long.MIN_VALUE;
  private static final String MONTHS = "janfebmaraprmayjunjulaugsepoctnovdec";
  private static final int[] DAYS_IN_MONTH = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

  private CivilTime() {}

  /** Epoch milliseconds of the UTC date-time, or INVALID when a field is out of range. */
  static long epochMillis(int year, int month, int day, int hour, int minute, int second, int millis) {
    if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]
        || (month == 2 && day == 29 && !isLeap(year)) || hour < 0 || hour > 23 || minute < 0
        || minute > 59 || second < 0 || second > 60 || millis < 0 || millis > 999) {
      return INVALID;
    }
    if (second == 60) second = 59; // a leap second: near enough, and never later than meant
    long days = daysFromCivil(year, month, day);
    return ((days * 24 + hour) * 60 + minute) * 60_000L + second * 1000L + millis;
  }

  static long daysFromCivil(int y, int m, int d) {
    y -= m <= 2 ? 1 : 0;
    long era = Math.floorDiv(y, 400);
    long yoe = y - era * 400;
    long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
  }

  /** The month (1-12) named by the first three letters of {@code s[start, end)}, any case; 0 if none. */
  static int month(String s, int start, int end) {
    if (end - start < 3) return 0;
    char a = lower(s.charAt(start));
    char b = lower(s.charAt(start + 1));
    char c = lower(s.charAt(start + 2));
    for (int i = 0; i < 12; i++) {
      if (MONTHS.charAt(i * 3) == a && MONTHS.charAt(i * 3 + 1) == b && MONTHS.charAt(i * 3 + 2) == c) {
        return i + 1;
      }
    }
    return 0;
  }

  /**
   * RFC 9110 section 5.6.7: a two-digit year that would lie more than 50 years after
   * {@code referenceYear} is the most recent past year with the same last two digits.
   */
  static int fullYear(int twoDigits, int referenceYear) {
    int century = referenceYear - Math.floorMod(referenceYear, 100);
    int year = century + twoDigits;
    if (year > referenceYear + 50) year -= 100;
    else if (year <= referenceYear - 50) year += 100;
    return year;
  }

  /** The UTC year of an epoch-millisecond instant. */
  static int yearOf(long epochMillis) {
    long days = Math.floorDiv(epochMillis, 86_400_000L);
    // civil_from_days, year only
    long z = days + 719468;
    long era = Math.floorDiv(z, 146097);
    long doe = z - era * 146097;
    long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    long m = mp + (mp < 10 ? 3 : -9);
    return (int) (yoe + era * 400 + (m <= 2 ? 1 : 0));
  }

  private static boolean isLeap(int y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  }

  private static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
  }
}
