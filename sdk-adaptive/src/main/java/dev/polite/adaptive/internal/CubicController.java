package dev.polite.adaptive.internal;

import dev.polite.RateController;

/**
 * CUBIC for one key; see {@link dev.polite.adaptive.Cubic} for the rules. A transcription of the
 * AWS SDK for Java's {@code RateLimiterTokenBucket.TransientState} update, minus its own send-rate
 * meter: the sdk measures the key's send rate (same half-second buckets and smoothing) and passes
 * it in.
 *
 * <p>Not thread-safe: the key's lock guards it.
 */
public final class CubicController implements RateController {
  private final double beta;
  private final double scale;
  private final double minRate;

  private boolean enabled;
  private double rate = Double.POSITIVE_INFINITY;
  private double lastMaxRate;
  private long lastThrottleAt;
  private double k;

  /** See {@link dev.polite.adaptive.Cubic.Builder} for the meaning and ranges. */
  public CubicController(double beta, double scale, double minRate) {
    this.beta = beta;
    this.scale = scale;
    this.minRate = minRate;
  }

  @Override
  public double rate() {
    return rate;
  }

  @Override
  public void onRejection(long nowNanos, double measuredSendRate) {
    double refused = enabled ? Math.min(measuredSendRate, rate) : measuredSendRate;
    lastMaxRate = refused;
    k = Math.cbrt(lastMaxRate * (1 - beta) / scale);
    lastThrottleAt = nowNanos;
    enabled = true;
    update(refused * beta, measuredSendRate);
  }

  @Override
  public void onSuccess(long nowNanos, double measuredSendRate) {
    if (!enabled) {
      return;
    }
    update(calculated(nowNanos), measuredSendRate);
  }

  /** The cubic curve's rate at {@code nowNanos}, before the send-rate cap. */
  public double calculated(long nowNanos) {
    double t = (nowNanos - lastThrottleAt) / 1e9 - k;
    return scale * t * t * t + lastMaxRate;
  }

  /** Seconds from the last cut until the curve is back at the refused rate. */
  public double k() {
    return k;
  }

  private void update(double calculated, double measuredSendRate) {
    rate = Math.max(minRate, Math.min(calculated, 2 * measuredSendRate));
  }

  @Override
  public String toString() {
    return "CubicController{rate=" + rate + "/s lastMax=" + lastMaxRate + "/s}";
  }
}
