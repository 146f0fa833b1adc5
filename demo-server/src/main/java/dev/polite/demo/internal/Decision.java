package dev.polite.demo.internal;

/**
 * One answer of a limiter for one request, or for one refund.
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
 * @param refunded for a refund, the units given back (at most what the key reserved and has not
 *     had back; 0 when it had none); 0 for a request
 */
public record Decision(
    boolean allowed, long remaining, long retryAfterNanos, long nextUnitNanos, long delayNanos, long refunded) {

  /** A request's answer. */
  public Decision(boolean allowed, long remaining, long retryAfterNanos, long nextUnitNanos, long delayNanos) {
    this(allowed, remaining, retryAfterNanos, nextUnitNanos, delayNanos, 0);
  }

  /** An admitted request served at once. */
  public static Decision allow(long remaining, long nextUnitNanos) {
    return new Decision(true, remaining, 0, nextUnitNanos, 0);
  }

  /** A refund's answer: {@code refunded} units given back, and the key's quota after. */
  public static Decision refund(long refunded, long remaining, long nextUnitNanos) {
    return new Decision(true, remaining, 0, nextUnitNanos, 0, refunded);
  }

  /** A rejected request. */
  public static Decision reject(long remaining, long retryAfterNanos, long nextUnitNanos) {
    return new Decision(false, remaining, Math.max(1, retryAfterNanos), nextUnitNanos, 0);
  }
}
