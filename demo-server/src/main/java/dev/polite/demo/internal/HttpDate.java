package dev.polite.demo.internal;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Writes IMF-fixdates (RFC 9110 section 5.6.7), {@code Sun, 06 Nov 1994 08:49:37 GMT}, for the
 * {@code Date} and {@code Retry-After} headers. The JDK's {@code RFC_1123_DATE_TIME} is not this
 * format: it writes a one-digit day ({@code 6 Nov}), which IMF-fixdate forbids.
 *
 * <p>A server writes the same second thousands of times, so each instance remembers the last
 * second it formatted (one entry, replaced whole, so racing threads at worst format twice). Use
 * one instance per header: {@code Date} and a rejection's retry time are different seconds and
 * would evict each other.
 *
 * <p>Usage: {@code String date = new HttpDate().format(clock.millis());}
 */
public final class HttpDate {
  private static final DateTimeFormatter IMF_FIXDATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private record Formatted(long epochSecond, String text) {}

  private volatile Formatted last = new Formatted(Long.MIN_VALUE, "");

  /** The second holding {@code epochMillis} (an HTTP-date has no fraction: it is truncated). */
  public String format(long epochMillis) {
    return formatSecond(Math.floorDiv(epochMillis, 1000));
  }

  /** The instant {@code epochSecond} seconds after the epoch. */
  public String formatSecond(long epochSecond) {
    Formatted cached = last;
    if (cached.epochSecond() == epochSecond) {
      return cached.text();
    }
    String text = IMF_FIXDATE.format(Instant.ofEpochSecond(epochSecond));
    last = new Formatted(epochSecond, text);
    return text;
  }
}
