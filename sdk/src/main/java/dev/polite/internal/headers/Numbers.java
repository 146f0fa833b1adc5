package dev.polite.internal.headers;

/**
 * Reads the plain numbers header values carry ({@code 42}, {@code 598.0}, {@code -1},
 * {@code 1470173023.123}) into thousandths, without allocating and without a regex.
 *
 * <p>Thousandths ("milli-units") serve both uses: a count is the value floored, a delay in seconds
 * becomes milliseconds rounded up. A number no rate-limit field truthfully carries is told apart
 * from one that is not a number at all: integer parts longer than 15 digits (the structured-field
 * limit; they would overflow), exponents ({@code 1e400}), NaN and Infinity are
 * {@link #IMPLAUSIBLE}, which {@link Plausible} drops and flags. They are what a server's floating
 * point arithmetic prints when it goes wrong (a division by zero, an overflow), and
 * HTTP fields never use these notations for values that are right.
 */
final class Numbers {
  /** Returned for anything that is not a number. */
  static final long INVALID = Long.MIN_VALUE;
  /** Returned for a number that cannot be a true value: over 15 integer digits, an exponent, NaN, Infinity. */
  static final long IMPLAUSIBLE = Long.MIN_VALUE + 1;

  private Numbers() {}

  /**
   * The value of {@code s} in thousandths, rounded up when {@code ceil} (else down); INVALID if not
   * a number, IMPLAUSIBLE if a number that cannot be true.
   */
  static long milli(String s, boolean ceil) {
    return milli(s, 0, s.length(), ceil);
  }

  /**
   * The value of {@code s[start, end)} in thousandths: optional {@code -}, digits, optional
   * {@code .} and digits, surrounded by optional spaces or tabs. IMPLAUSIBLE for more than 15
   * integer digits, an exponent, NaN or Infinity (either sign).
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
    if (wholeDigits == 0 && fracDigits == 0) return isNonFinite(s, start, end) ? IMPLAUSIBLE : INVALID;
    if (i != end) return isExponent(s, i, end) ? IMPLAUSIBLE : INVALID;
    if (saturated) return IMPLAUSIBLE;
    for (int k = fracDigits; k < 3; k++) frac *= 10;
    long magnitude = whole * 1000 + frac;
    if (negative) {
      return -(magnitude + (rest && !ceil ? 1 : 0));
    }
    return magnitude + (rest && ceil ? 1 : 0);
  }

  /** Whether {@code s[start, end)} is NaN, Inf or Infinity, any case, with an optional sign. */
  private static boolean isNonFinite(String s, int start, int end) {
    char c = s.charAt(start);
    if (c == '-' || c == '+') start++;
    return Ascii.regionEquals(s, start, end, "nan") || Ascii.regionEquals(s, start, end, "inf")
        || Ascii.regionEquals(s, start, end, "infinity");
  }

  /** Whether {@code s[i, end)} is an exponent: {@code e} or {@code E}, an optional sign, digits. */
  private static boolean isExponent(String s, int i, int end) {
    char e = s.charAt(i);
    if (e != 'e' && e != 'E') return false;
    i++;
    if (i < end && (s.charAt(i) == '-' || s.charAt(i) == '+')) i++;
    if (i >= end) return false;
    for (; i < end; i++) {
      if (!isDigit(s.charAt(i))) return false;
    }
    return true;
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
