package dev.polite;

/**
 * Reads a vendor's own rate-limit headers, for an API whose dialect polite does not know. It runs
 * after the built-in dialects, on a builder already holding what they read, so it can add to their
 * reading or override it; it never needs to fork the library. It reads {@link HeaderLines}, so one
 * dialect serves every engine.
 *
 * <pre>{@code
 * RateLimitDialect acme = new RateLimitDialect() {
 *   public String name() { return "acme"; }
 *   public boolean read(int status, HeaderLines headers, long responseEpochMillis,
 *       RateLimitSignals.Builder signals) {
 *     String left = headers.first("Acme-Calls-Left");
 *     if (left == null) return false;
 *     signals.remaining(Long.parseLong(left.trim()));
 *     return true;
 *   }
 * };
 * }</pre>
 *
 * <p>Contract: return {@code true} only when the response carried the dialect's headers; the
 * signals' {@link RateLimitSignals#dialect()} then becomes {@link #name()}. What the builder is
 * given must be valid (its setters reject negative counts and durations). If {@code read} throws,
 * or returns {@code false}, everything it did to the builder is discarded and the response is read
 * as if the dialect were not registered: a dialect cannot break parsing. Absolute times should be
 * converted against {@code responseEpochMillis} (the response's {@code Date}, or the caller's clock
 * when it has none), not the local clock. Implementations must be thread-safe and fast: they run on
 * every response.
 */
public interface RateLimitDialect {
  /** The dialect's name, reported by {@link RateLimitSignals#dialect()}; short and lower-case. */
  String name();

  /**
   * Reads the response's headers into {@code signals}.
   *
   * @param status the response's status code
   * @param headers every header line of the response, as its engine received them
   * @param responseEpochMillis the response's time: its {@code Date} header, or our clock without one
   * @param signals what the built-in dialects read, to add to or override
   * @return whether the response carried this dialect's headers
   */
  boolean read(int status, HeaderLines headers, long responseEpochMillis, RateLimitSignals.Builder signals);
}
