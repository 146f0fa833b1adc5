package dev.polite.internal.model;

import dev.polite.RateLimitSignals;

/**
 * The calls a key lets go at once (no wait for their tokens) from {@code now}, each admitted a
 * millisecond after it went, and the time after the last answer. Test-only.
 */
record CallsAtOnce(int calls, long now) {
  private static final long MS = 1_000_000L;

  static CallsAtOnce from(KeyModel key, long now) {
    int atOnce = 0;
    while (true) {
      KeyModel.Reservation r = key.reserve(1, now);
      if (r.waitNanos() > 0) {
        key.cancel(r, 1, now);
        return new CallsAtOnce(atOnce, now);
      }
      atOnce++;
      key.onAnswer(200, RateLimitSignals.none(), key.grant(now, r), now += MS);
    }
  }
}
