package dev.polite.internal.headers;

import dev.polite.RateLimitSignals;
import okhttp3.Headers;

/**
 * The standard parser without its guard, for tests outside this package: a parser bug throws here,
 * where {@link SignalsReader#parse} would turn it into "no signal" and hide it.
 */
public final class UnguardedParser {
  private UnguardedParser() {}

  /** {@link SignalsReader#parse}, letting a bug's exception through. */
  public static RateLimitSignals parse(int status, Headers headers, long nowEpochMillis) {
    return SignalsReader.standard().readUnguarded(status, headers, nowEpochMillis);
  }
}
