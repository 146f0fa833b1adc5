package dev.polite;

import dev.polite.internal.model.AimdController;

/**
 * The default {@link RateController}: additive increase, multiplicative decrease, as TCP finds
 * a link's capacity.
 *
 * <p>Until the first rate-limit rejection a key has no pace at all. A rejection sets the pace to
 * {@code decreaseFactor} times the rate the server actually admitted since the previous cut (or
 * the pace, if lower; the pace alone when nothing was admitted), counting the calls admitted
 * before the cut whose answers came after it. Each second without a rejection then adds
 * {@code increasePerSecond},
 * slowing to a tenth of that near the pace last refused (so that the refusals, each of which
 * usually costs a Retry-After pause, stay rare), and never more than twice the measured send
 * rate, so a quiet key does not bank a pace it never tested. The pace never falls below
 * {@code minRate}.
 *
 * <p>Immutable and thread-safe; each key gets its own controller from {@link #create()}.
 *
 * <pre>{@code
 * RateController.Factory aimd = Aimd.builder().decreaseFactor(0.5).increasePerSecond(2).build();
 * }</pre>
 */
public final class Aimd implements RateController.Factory {
  private static final Aimd DEFAULTS = builder().build();

  private final double decreaseFactor;
  private final double increasePerSecond;
  private final double minRate;

  private Aimd(Builder b) {
    this.decreaseFactor = b.decreaseFactor;
    this.increasePerSecond = b.increasePerSecond;
    this.minRate = b.minRate;
  }

  /**
   * AIMD with the defaults: decrease factor 0.9, increase 1 request/s per second (a tenth of
   * that near the pace last refused, and at most 1 % of that pace per second), floor 0.5/s. The
   * cut is shallow because each refusal already costs the key a pause: a deep cut is paid for
   * twice. Where these defaults were chosen, and what they give against a header-less server, is
   * in sdk-adaptive/README.md ("Measured"), beside the commands that measure them.
   */
  public static Aimd defaults() {
    return DEFAULTS;
  }

  /** Starts a configuration. */
  public static Builder builder() {
    return new Builder();
  }

  /** The factor a rejection multiplies the pace by. */
  public double decreaseFactor() {
    return decreaseFactor;
  }

  /** Requests per second added for each second without a rejection. */
  public double increasePerSecond() {
    return increasePerSecond;
  }

  /** The lowest pace, requests per second. */
  public double minRate() {
    return minRate;
  }

  @Override
  public RateController create() {
    return new AimdController(decreaseFactor, increasePerSecond, minRate);
  }

  @Override
  public String toString() {
    return "Aimd{decrease=" + decreaseFactor + " increase=" + increasePerSecond + "/s min="
        + minRate + "/s}";
  }

  /** Builds {@link Aimd}. Not thread-safe. */
  public static final class Builder {
    private double decreaseFactor = 0.9;
    private double increasePerSecond = 1.0;
    private double minRate = 0.5;

    private Builder() {}

    /** The factor a rejection multiplies the pace by, in (0, 1). Default 0.9. */
    public Builder decreaseFactor(double decreaseFactor) {
      if (!(decreaseFactor > 0 && decreaseFactor < 1)) {
        throw new IllegalArgumentException("decreaseFactor must be in (0, 1): " + decreaseFactor);
      }
      this.decreaseFactor = decreaseFactor;
      return this;
    }

    /** Requests per second added per second without a rejection; positive. Default 1. */
    public Builder increasePerSecond(double increasePerSecond) {
      if (!(increasePerSecond > 0) || Double.isInfinite(increasePerSecond)) {
        throw new IllegalArgumentException("increasePerSecond must be positive: " + increasePerSecond);
      }
      this.increasePerSecond = increasePerSecond;
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
    public Aimd build() {
      return new Aimd(this);
    }
  }
}
