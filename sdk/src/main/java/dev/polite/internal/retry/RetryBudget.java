package dev.polite.internal.retry;

/**
 * gRPC's retry throttling (gRFC A6), per key: stops retry storms against a failing server.
 *
 * <p>The budget starts at {@code maxTokens}. Every failed attempt that qualifies for a retry
 * takes one token; every success gives back {@code tokenRatio}. A retry is allowed only while the
 * budget, after paying for the failure, stays above half of {@code maxTokens}. With the defaults
 * (10, 0.1) four failures in a row are retried and the fifth is not; about eleven successes
 * restore the right to retry; and retries are sustainable only while fewer than about 9 % of
 * attempts fail ({@code tokenRatio / (1 + tokenRatio)}). First attempts are never blocked.
 *
 * <p>Thread-safe.
 */
public final class RetryBudget {
  private final double maxTokens;
  private final double tokenRatio;
  private double tokens;

  /**
   * @param maxTokens the budget's size, in (0, 1000]
   * @param tokenRatio what one success gives back, positive
   */
  public RetryBudget(double maxTokens, double tokenRatio) {
    this.maxTokens = maxTokens;
    this.tokenRatio = tokenRatio;
    this.tokens = maxTokens;
  }

  /** Pays for a failed attempt and answers whether it may be retried. */
  public synchronized boolean onFailureMayRetry() {
    tokens = Math.max(0, tokens - 1);
    return tokens > maxTokens / 2;
  }

  /** Earns back part of a token for an attempt that did not fail. */
  public synchronized void onSuccess() {
    tokens = Math.min(maxTokens, tokens + tokenRatio);
  }

  /** The tokens left. */
  public synchronized double tokens() {
    return tokens;
  }
}
