package dev.polite.internal.headers;

/**
 * Case-insensitive matching of header names against lower-case text, for ASCII only: header
 * names are tokens (RFC 9110 section 5.1; OkHttp rejects anything else), so folding {@code A-Z}
 * is all that "case-insensitive" means here. Cheaper than {@link String#regionMatches(boolean,
 * int, String, int, int)}, which folds through the Unicode tables for every character that
 * differs, and which the parser called several times for every rate-limit line.
 */
final class Ascii {
  private Ascii() {}

  /** Whether {@code s[offset, offset + lower.length())} is {@code lower} in any case. */
  static boolean regionMatches(String s, int offset, String lower) {
    int n = lower.length();
    if (offset < 0 || offset > s.length() - n) return false;
    for (int i = 0; i < n; i++) {
      if (!same(s.charAt(offset + i), lower.charAt(i))) return false;
    }
    return true;
  }

  /** Whether {@code s[offset, end)} is all of {@code lower} in any case. */
  static boolean regionEquals(String s, int offset, int end, String lower) {
    return end - offset == lower.length() && regionMatches(s, offset, lower);
  }

  /** Whether {@code c} is {@code lower} or its upper-case form. */
  private static boolean same(char c, char lower) {
    return c == lower || (c >= 'A' && c <= 'Z' && c + 32 == lower);
  }
}
