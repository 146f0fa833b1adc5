package dev.polite.internal.headers;

/**
 * Finds the retry hint some APIs put only in a JSON error body: Discord's
 * {@code {"retry_after": 64.57, "global": false}} (seconds since API v8; v6/v7 sent milliseconds
 * and are not supported) and Matrix's {@code "retry_after_ms"}. Reads members of the top-level
 * object only, skipping nested values, so a {@code retry_after} inside an unrelated nested object
 * is not mistaken for the hint. A scanner rather than a JSON library keeps the sdk free of a
 * runtime dependency; it gives up quietly on anything that is not a JSON object, and reads at most
 * the first {@value #MAX_CHARS} characters. A hint that cannot be true (negative other than -1,
 * over a year, 21 digits, {@code NaN} or {@code Infinity} as Python's encoder prints them) is
 * dropped and noted in {@link #anomalous}, by the rules of {@link Plausible}.
 */
final class JsonRetryAfter {
  static final int MAX_CHARS = 65_536;

  /**
   * The hint's milliseconds (-1 if none), whether it came from {@code retry_after_ms}, {@code global},
   * and whether a hint was dropped because it cannot be true.
   */
  long millis = -1;
  boolean fromMillisField;
  boolean global;
  boolean anomalous;

  private final String s;
  private final int end;
  private int i;

  private JsonRetryAfter(String body) {
    this.s = body;
    this.end = Math.min(body.length(), MAX_CHARS);
  }

  static JsonRetryAfter scan(String body) {
    JsonRetryAfter j = new JsonRetryAfter(body);
    try {
      j.object();
    } catch (RuntimeException malformed) {
      // keep whatever was found before the error
    }
    return j;
  }

  private void object() {
    ws();
    if (i >= end || s.charAt(i) != '{') return;
    i++;
    while (true) {
      ws();
      if (i >= end || s.charAt(i) != '"') return;
      int keyStart = i + 1;
      skipString();
      int keyEnd = i - 1;
      ws();
      if (i >= end || s.charAt(i) != ':') return;
      i++;
      ws();
      int valueStart = i;
      skipValue();
      int valueEnd = i;
      member(keyStart, keyEnd, valueStart, valueEnd);
      ws();
      if (i >= end || s.charAt(i) != ',') return;
      i++;
    }
  }

  private void member(int keyStart, int keyEnd, int valueStart, int valueEnd) {
    int len = keyEnd - keyStart;
    if (len == 11 && s.regionMatches(keyStart, "retry_after", 0, 11)) {
      number(valueStart, valueEnd, false);
    } else if (len == 14 && s.regionMatches(keyStart, "retry_after_ms", 0, 14)) {
      number(valueStart, valueEnd, true);
    } else if (len == 6 && s.regionMatches(keyStart, "global", 0, 6)) {
      global = valueEnd - valueStart == 4 && s.regionMatches(valueStart, "true", 0, 4);
    }
  }

  private void number(int start, int stop, boolean millisField) {
    long v = Plausible.number(Numbers.milli(s, start, stop, true));
    if (v >= 0) v = Plausible.delay(millisField ? (v + 999) / 1000 : v);
    if (v == Plausible.DROPPED) anomalous = true;
    if (v < 0) return;
    if (millisField || !fromMillisField) millis = v; // Matrix's milliseconds are exact: they win in any order
    fromMillisField |= millisField;
  }

  private void skipValue() {
    if (i >= end) return;
    char c = s.charAt(i);
    if (c == '"') {
      skipString();
    } else if (c == '{' || c == '[') {
      int depth = 0;
      while (i < end) {
        char d = s.charAt(i);
        if (d == '"') {
          skipString();
          continue;
        }
        if (d == '{' || d == '[') depth++;
        else if (d == '}' || d == ']') {
          depth--;
          if (depth == 0) {
            i++;
            return;
          }
        }
        i++;
      }
    } else {
      while (i < end) {
        char d = s.charAt(i);
        if (d == ',' || d == '}' || d == ']' || d == ' ' || d == '\t' || d == '\n' || d == '\r') return;
        i++;
      }
    }
  }

  private void skipString() {
    i++; // opening quote
    while (i < end) {
      char c = s.charAt(i);
      if (c == '\\') {
        i += 2;
      } else if (c == '"') {
        i++;
        return;
      } else {
        i++;
      }
    }
  }

  private void ws() {
    while (i < end) {
      char c = s.charAt(i);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      i++;
    }
  }
}
