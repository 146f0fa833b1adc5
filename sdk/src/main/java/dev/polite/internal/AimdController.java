package dev.polite.internal;

import dev.polite.RateController;

/**
 * AIMD for one key; see {@link dev.polite.Aimd} for the rules. The increase is time-based
 * ({@code increasePerSecond} times the seconds since the last change), so the climb does not
 * depend on how many requests happen to succeed.
 *
 * <p>Not thread-safe: the key's lock guards it.
 */
public final class AimdController implements RateController {
  private final double decreaseFactor;
  private final double increasePerSecond;
  private final double minRate;
  private double rate = Double.POSITIVE_INFINITY;
  private long changedAt;

  /** See {@link dev.polite.Aimd.Builder} for the meaning and ranges of the arguments. */
  public AimdController(double decreaseFactor, double increasePerSecond, double minRate) {
    this.decreaseFactor = decreaseFactor;
    this.increasePerSecond = increasePerSecond;
    this.minRate = minRate;
  }

  @Override
  public double rate() {
    return rate;
  }

  @Override
  public void onSuccess(long nowNanos, double measuredSendRate) {
    if (Double.isInfinite(rate)) {
      return;
    }
    double raised = rate + increasePerSecond * secondsSince(nowNanos);
    changedAt = nowNanos;
    rate = Math.max(minRate, Math.min(raised, Math.max(rate, 2 * measuredSendRate)));
  }

  @Override
  public void onRejection(long nowNanos, double measuredSendRate) {
    // Cut from what the key really sent when that is below the pace: the server refused that.
    double base = measuredSendRate > 0 ? Math.min(rate, measuredSendRate) : rate;
    rate = Double.isInfinite(base) ? minRate : Math.max(minRate, base * decreaseFactor);
    changedAt = nowNanos;
  }

  private double secondsSince(long nowNanos) {
    return Math.max(0, nowNanos - changedAt) / 1e9;
  }

  @Override
  public String toString() {
    return "AimdController{rate=" + rate + "/s}";
  }
}
