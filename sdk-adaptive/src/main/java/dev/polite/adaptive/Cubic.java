package dev.polite.adaptive;

import dev.polite.RateController;
import dev.polite.adaptive.internal.CubicController;

/**
 * A {@link RateController} that discovers a key's pace with CUBIC, as the AWS SDKs' adaptive
 * retry mode does: an alternative to the sdk's default {@link dev.polite.Aimd}.
 *
 * <p>Until the first rate-limit rejection a key has no pace. A rejection remembers the rate it
 * happened at ({@code lastMaxRate}: the measured send rate, or the current pace if that is
 * lower) and cuts the pace to {@code beta} times it. Each answer that is not a rejection then
 * sets the pace on the cubic curve {@code scale * (t - k)^3 + lastMaxRate}, where {@code t} is the
 * seconds since the cut and {@code k = cbrt(lastMaxRate * (1 - beta) / scale)} is when the curve
 * is back at the rate that was refused: a fast climb just after the cut, a cautious plateau near
 * the old limit, then an accelerating probe beyond it. The pace is never more than twice the
 * measured send rate (a quiet key does not bank a pace it never tested) nor below
 * {@code minRate}.
 *
 * <p>Why CUBIC next to AIMD: AIMD's linear climb (1/s per second by default) takes as many
 * seconds to regain a cut as the cut was large, so its average sits well below the limit it keeps
 * finding; CUBIC regains the {@code 1 - beta} = 30 % it cut within {@code k} seconds
 * ({@code cbrt(20 * 0.3 / 0.4)} = 2.5 s at 20/s, {@code cbrt(100 * 0.3 / 0.4)} = 4.2 s at 100/s)
 * and lingers near it. Constants and their meaning are AWS's (Java {@code TransientState},
 * botocore {@code CubicCalculator}), unit-tested against the values AWS's implementation gives.
 *
 * <p>Immutable and thread-safe; each key gets its own controller from {@link #create()}.
 *
 * <pre>{@code
 * PoliteInterceptor.builder().rateController(Cubic.defaults()).build();
 * }</pre>
 */
public final class Cubic implements RateController.Factory {
  private static final Cubic DEFAULTS = builder().build();

  private final double beta;
  private final double scale;
  private final double minRate;

  private Cubic(Builder b) {
    this.beta = b.beta;
    this.scale = b.scale;
    this.minRate = b.minRate;
  }

  /** AWS's constants: beta 0.7, scale 0.4, minimum 0.5 requests per second. */
  public static Cubic defaults() {
    return DEFAULTS;
  }

  /** Starts a configuration. */
  public static Builder builder() {
    return new Builder();
  }

  /** The factor a rejection multiplies the refused rate by. */
  public double beta() {
    return beta;
  }

  /** The cubic curve's scale constant C, requests per second per second cubed. */
  public double scale() {
    return scale;
  }

  /** The lowest pace, requests per second. */
  public double minRate() {
    return minRate;
  }

  @Override
  public RateController create() {
    return new CubicController(beta, scale, minRate);
  }

  @Override
  public String toString() {
    return "Cubic{beta=" + beta + " scale=" + scale + " min=" + minRate + "/s}";
  }

  /** Builds {@link Cubic}. Not thread-safe. */
  public static final class Builder {
    private double beta = 0.7;
    private double scale = 0.4;
    private double minRate = 0.5;

    private Builder() {}

    /** The factor a rejection multiplies the refused rate by, in (0, 1). Default 0.7. */
    public Builder beta(double beta) {
      if (!(beta > 0 && beta < 1)) {
        throw new IllegalArgumentException("beta must be in (0, 1): " + beta);
      }
      this.beta = beta;
      return this;
    }

    /** The cubic curve's scale constant C; positive. Default 0.4. */
    public Builder scale(double scale) {
      if (!(scale > 0) || Double.isInfinite(scale)) {
        throw new IllegalArgumentException("scale must be positive: " + scale);
      }
      this.scale = scale;
      return this;
    }

    /** The lowest pace in requests per second; positive. Default 0.5. */
    public Builder minRate(double minRate) {
      if (!(minRate > 0) || Double.isInfinite(minRate)) {
        throw new IllegalArgumentException("minRate must be positive: " + minRate);
      }
      this.minRate = minRate;
      return this;
    }

    /** The immutable configuration. */
    public Cubic build() {
      return new Cubic(this);
    }
  }
}
