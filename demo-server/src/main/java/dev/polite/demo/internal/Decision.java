package dev.polite.demo.internal;

/**
 * One answer of a limiter for one request.
 *
 * @param allowed whether the request is admitted
 * @param remaining whole units still available after this decision (never negative)
 * @param retryAfterNanos when rejected, how long until the same request would be admitted; 0
 *     when allowed
 * @param nextUnitNanos how long until at least one more unit than {@code remaining} is
 *     available; 0 when the quota is already full. With {@code remaining == 0} this is the
 *     honest wait for the next admissible unit, which the {@code t} of the IETF header carries
 * @param delayNanos how long an admitted request waits before it is served (the leaky-bucket
 *     queue); 0 for every other algorithm
 */
public record Decision(
    boolean allowed, long remaining, long retryAfterNanos, long nextUnitNanos, long delayNanos) {

  /** An admitted request served at once. */
  public static Decision allow(long remaining, long nextUnitNanos) {
    return new Decision(true, remaining, 0, nextUnitNanos, 0);
  }

  /** A rejected request. */
  public static Decision reject(long remaining, long retryAfterNanos, long nextUnitNanos) {
    return new Decision(false, remaining, Math.max(1, retryAfterNanos), nextUnitNanos, 0);
  }
}
