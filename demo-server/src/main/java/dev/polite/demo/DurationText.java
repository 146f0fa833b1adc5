package dev.polite.demo;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads durations as people type them: {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 1m},
 * {@code 1h}, ISO-8601 ({@code PT10S}), or a bare number of seconds.
 */
final class DurationText {
  private static final Pattern TEXT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?");

  private DurationText() {}

  /**
   * A duration that may be negative: {@code -30s}, {@code +60s}, {@code 60s}.
   *
   * @throws IllegalArgumentException naming {@code parameter} when the text is not a duration
   */
  static Duration parseSigned(String parameter, String text) {
    String s = text.trim();
    if (s.startsWith("-")) {
      return parse(parameter, s.substring(1)).negated();
    }
    return parse(parameter, s.startsWith("+") ? s.substring(1) : s);
  }

  /**
   * @throws IllegalArgumentException naming {@code parameter} when the text is not a duration
   */
  static Duration parse(String parameter, String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    if (s.startsWith("p")) {
      try {
        return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(parameter + ": '" + text + "' is not a duration", e);
      }
    }
    Matcher m = TEXT.matcher(s);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          parameter + ": '" + text + "' is not a duration (try 500ms, 10s, 1m, 1h or PT10S)");
    }
    double amount = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double nanosPerUnit;
    switch (unit) {
      case "ms":
        nanosPerUnit = 1e6;
        break;
      case "m":
        nanosPerUnit = 60e9;
        break;
      case "h":
        nanosPerUnit = 3600e9;
        break;
      case "d":
        nanosPerUnit = 86400e9;
        break;
      default:
        nanosPerUnit = 1e9;
    }
    return Duration.ofNanos(Math.round(amount * nanosPerUnit));
  }
}
