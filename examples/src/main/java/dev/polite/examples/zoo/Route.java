package dev.polite.examples.zoo;

import java.time.Duration;

/**
 * A route with a budget of its own on the host ({@code --budget PREFIX=NAME:LIMIT/WINDOW}): the
 * cell sends {@code calls} of every cycle of its {@link Split} to {@code prefix} itself.
 *
 * @param prefix the route, and the path its calls go to
 * @param name the budget's name in the answers
 * @param limit its requests per window (burst = limit)
 * @param window its window
 * @param calls its calls per cycle of the mix
 */
record Route(String prefix, String name, long limit, Duration window, int calls) {
  public Route {
    if (calls < 1) {
      throw new IllegalArgumentException("calls: must be at least 1, was " + calls);
    }
  }

  /** Its documented rate, requests per second. */
  double rate() {
    return limit / (window.toNanos() / 1e9);
  }
}
