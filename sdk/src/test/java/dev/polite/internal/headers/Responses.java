package dev.polite.internal.headers;

import dev.polite.HeaderLines;
import dev.polite.RateLimitSignals;

/** Builds test responses: header name/value pairs, parsed with a fixed wall clock. */
final class Responses {
  /** 2025-01-01T00:00:00Z, our wall clock in every test unless a test says otherwise. */
  static final long NOW = 1_735_689_600_000L;

  private Responses() {}

  static HeaderLines headers(String... namesAndValues) {
    return HeaderLines.of(namesAndValues);
  }

  static RateLimitSignals parse(int status, String... namesAndValues) {
    return SignalsReader.standard().parse(status, headers(namesAndValues), NOW);
  }

  static RateLimitSignals parse(String... namesAndValues) {
    return parse(200, namesAndValues);
  }
}
