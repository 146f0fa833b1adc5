package dev.polite.adaptive;

/**
 * A throttler's verdict on one request: whether it may be sent, and the drop probability it
 * was judged with.
 *
 * <pre>{@code
 * Admission a = throttler.admit(ticker.read(), Criticality.CRITICAL);
 * if (!a.allowed()) { ... }
 * }</pre>
 *
 * @param allowed whether the request may be sent
 * @param probability the local drop probability at the time, in [0, 1]
 */
public record Admission(boolean allowed, double probability) {
  static final Admission FREE = new Admission(true, 0);
}
