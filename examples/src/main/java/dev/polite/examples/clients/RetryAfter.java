package dev.polite.examples.clients;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import okhttp3.Response;

/**
 * Reads {@code Retry-After} the way a careful hand-written client does: delta seconds, or an HTTP date
 * measured against the response's own {@code Date} (not our clock, which may disagree with the
 * server's). A missing or malformed value counts as zero, as {@code retry_after or 0} does.
 *
 * <p>Usage: {@code Duration wait = RetryAfter.of(response);}
 */
final class RetryAfter {
  private RetryAfter() {}

  /** The delay the server asked for; zero when it named none. */
  public static Duration of(Response response) {
    String value = response.header("Retry-After");
    if (value == null || value.isBlank()) {
      return Duration.ZERO;
    }
    value = value.trim();
    try {
      double seconds = Double.parseDouble(value);
      return seconds > 0 && seconds < 1e9 ? Duration.ofNanos((long) (seconds * 1e9)) : Duration.ZERO;
    } catch (NumberFormatException notSeconds) {
      try {
        ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
        String date = response.header("Date");
        ZonedDateTime now = date != null
            ? ZonedDateTime.parse(date.trim(), DateTimeFormatter.RFC_1123_DATE_TIME)
            : ZonedDateTime.now();
        Duration wait = Duration.between(now, at);
        return wait.isNegative() ? Duration.ZERO : wait;
      } catch (DateTimeParseException notDate) {
        return Duration.ZERO;
      }
    }
  }
}
