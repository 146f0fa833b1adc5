package dev.polite;

/**
 * Why polite stopped trying a call. Reported to {@link PoliteListener#gaveUp}.
 *
 * <pre>{@code
 * if (reason == GiveUpReason.WAIT_TOO_LONG) metrics.increment("polite.gave_up.wait");
 * }</pre>
 */
public enum GiveUpReason {
  /** The wait the call needed exceeds the max wait or the call's remaining time. */
  WAIT_TOO_LONG,
  /** Every attempt the retry rules allow was used. */
  ATTEMPTS_EXHAUSTED,
  /** The key's retry budget is spent: too many recent failures to retry another. */
  BUDGET_EXHAUSTED,
  /** The server said not to retry ({@code Stripe-Should-Retry: false} and the like). */
  SERVER_SAID_NO
}
