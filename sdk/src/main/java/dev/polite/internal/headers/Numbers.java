package dev.polite.internal.headers;

/**
 * Reads the plain numbers header values carry ({@code 42}, {@code 598.0}, {@code -1},
 * {@code 1470173023.123}) into thousandths, without allocating and without a regex.
 *
 * <p>Thousandths ("milli-units") serve both uses: a count is the value floored, a delay in seconds
 * becomes milliseconds rounded up. Integer parts longer than 15 digits (the structured-field
 * limit) saturate at {@link #HUGE} so that callers treat them as absurd rather than overflow.
 */
final class Numbers {
  /** Returned for anything that is not a number. */
  static final long INVALID = Long.MIN_VALUE;
  /** A saturated magnitude (10^15 units), far beyond any plausible value. */
  static final long HUGE = 1_000_000_000_000_000_000L;

  private Numbers() {}

  /** The value of {@code s} in thousandths, rounded up when {@code ceil} (else down); INVALID if not a number. */
  static long milli(String s, boolean ceil) {
    return milli(s, 0, s.length(), ceil);
  }

  /**
   * The value of {@code s[start, end)} in thousandths: optional {@code -}, digits, optional
   * {@code .} and digits, surrounded by optional spaces or tabs.
   */
  static long milli(String s, int start, int end, boolean ceil) {
    while (start < end && isSpace(s.charAt(start))) start++;
    while (end > start && isSpace(s.charAt(end - 1))) end--;
    if (start >= end) return INVALID;
    boolean negative = false;
    int i = start;
    if (s.charAt(i) == '-') {
      negative = true;
      i++;
    }
    long whole = 0;
    int wholeDigits = 0;
    boolean saturated = false;
    while (i < end && isDigit(s.charAt(i))) {
      if (whole >= 100_000_000_000_000L) {
        saturated = true;
      } else {
        whole = whole * 10 + (s.charAt(i) - '0');
      }
      wholeDigits++;
      i++;
    }
    long frac = 0;
    int fracDigits = 0;
    boolean rest = false;
    if (i < end && s.charAt(i) == '.') {
      i++;
      while (i < end && isDigit(s.charAt(i))) {
        int d = s.charAt(i) - '0';
        if (fracDigits < 3) {
          frac = frac * 10 + d;
        } else if (d != 0) {
          rest = true;
        }
        fracDigits++;
        i++;
      }
    }
    if (i != end || (wholeDigits == 0 && fracDigits == 0)) return INVALID;
    if (saturated) return negative ? -HUGE : HUGE;
    for (int k = fracDigits; k < 3; k++) frac *= 10;
    long magnitude = whole * 1000 + frac;
    if (negative) {
      return -(magnitude + (rest && !ceil ? 1 : 0));
    }
    return magnitude + (rest && ceil ? 1 : 0);
  }

  /** A non-negative integer of at most 18 digits in {@code s[start, end)}, or INVALID. */
  static long digits(String s, int start, int end) {
    if (start >= end || end - start > 18) return INVALID;
    long v = 0;
    for (int i = start; i < end; i++) {
      char c = s.charAt(i);
      if (!isDigit(c)) return INVALID;
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /** Floor division by 1000 of a thousandths value. */
  static long floorUnits(long milli) {
    return Math.floorDiv(milli, 1000);
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static boolean isSpace(char c) {
    return c == ' ' || c == '\t';
  }

  static boolean isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
}
