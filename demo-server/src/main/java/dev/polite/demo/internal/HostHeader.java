package dev.polite.demo.internal;

/**
 * What a {@code Host} header may hold (RFC 9110 section 7.2, RFC 3986 section 3.2.2): a
 * registered name, an IPv4 address or a bracketed IP literal, and an optional port; empty for a
 * target without an authority. Checked character by character, without a regular expression: it
 * runs on every request.
 *
 * <p>Usage: {@code if (!HostHeader.isValid(host)) answer400();}
 */
final class HostHeader {
  /** Longer than any DNS name (253) with a port. */
  static final int MOST_CHARS = 262;
  private static final boolean[] ALLOWED = new boolean[128];

  static {
    for (char c = 'a'; c <= 'z'; c++) {
      ALLOWED[c] = true;
      ALLOWED[Character.toUpperCase(c)] = true;
    }
    for (char c = '0'; c <= '9'; c++) {
      ALLOWED[c] = true;
    }
    for (char c : "-._~%!$&'()*+,;=:[]".toCharArray()) {
      ALLOWED[c] = true;
    }
  }

  private HostHeader() {}

  /** Whether {@code value} is a well-formed Host value. */
  static boolean isValid(String value) {
    int length = value.length();
    if (length > MOST_CHARS) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      if (c >= 128 || !ALLOWED[c]) {
        return false;
      }
    }
    return true;
  }
}
